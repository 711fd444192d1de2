import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { runNode } from '../../harness';
import { apiRequests, apiWrites, credentialsFor } from '../../harness/sandbox';
import { cabinetIdIn, PLATFORMS } from '../../sandbox';
import { useSandbox } from '../support/useSandbox';
import { AD_PATH, locator, minimalCreate } from '../support/adFixtures';

const NOW = '2026-11-20T12:00:00.000Z';
const LIST = '/api/v2/advertisement/';

describe.each(PLATFORMS)('Ad Cabinet Ads 1.3 → safe writes (%s form)', (platform) => {
	const sandbox = useSandbox({ platform, now: NOW });
	const DE = cabinetIdIn(platform, '100002');
	const run = (parameters: INodeParameters, extra: Partial<Parameters<typeof runNode>[0]> = {}) =>
		runNode({
			type: 'adCabinetAds',
			typeVersion: 1.3,
			parameters,
			credentials: credentialsFor(sandbox()),
			...extra,
		});
	const reads = () => apiRequests(sandbox()).filter((r) => r.method === 'GET');
	let unique = 0;
	const freshCreate = (extra: INodeParameters = {}) =>
		minimalCreate({ title: `Rerun check ${platform} ${++unique}`, ...extra });
	const activeAd = () => {
		const ad = sandbox().data.ads.find((a) => a.status === 'active' && a.accountId === DE);
		if (!ad) throw new Error('no active ad');
		return { id: ad.id, detail: sandbox().data.adDetail(ad.id) as IDataObject };
	};

	describe('Create', () => {
		test('Dry Run sends no write and shows exactly the body a real run then sends', async () => {
			const parameters = freshCreate({ options: { dryRun: true } });
			const dry = await run(parameters);
			expect(dry.error).toBeUndefined();
			expect(apiWrites(sandbox())).toHaveLength(0);
			expect(dry.items).toHaveLength(1);
			const shown = dry.items[0].json;
			expect(shown).toMatchObject({ dryRun: true, method: 'POST', path: AD_PATH[platform] });
			expect(JSON.stringify(shown)).not.toContain(sandbox().token);

			sandbox().clearLog();
			const real = await run({ ...parameters, options: {} });
			expect(real.error).toBeUndefined();
			const writes = apiWrites(sandbox());
			expect(writes).toHaveLength(1);
			expect(writes[0].body).toEqual(shown.body);
		});

		test('Skip Identical: a rerun creates nothing and outputs the ad made the first time', async () => {
			const parameters = freshCreate();
			const first = await run(parameters);
			expect(first.error).toBeUndefined();
			expect(apiWrites(sandbox())).toHaveLength(1);
			const made = first.items[0].json.ad_id;
			expect(typeof made).toBe('number');

			sandbox().clearLog();
			const again = await run(parameters);
			expect(again.error).toBeUndefined();
			expect(apiWrites(sandbox())).toHaveLength(0);
			expect(again.items[0].json).toMatchObject({
				skipped: true,
				reason: 'identical ad exists',
				ad_id: made,
				title: parameters.title,
			});
			// The extra reads of one item: the ad list filtered by the title, and the matching ad's detail.
			expect(reads().map((r) => r.path)).toEqual([LIST, `${AD_PATH[platform]}${String(made)}`]);
			expect(reads()[0].query).toMatchObject({ advertisement_titles: parameters.title });
		});

		test('Skip Identical reads as people do: a trailing space, Windows line ends and the URL in capitals with a slash make no second ad', async () => {
			const parameters = freshCreate({ text: 'First line\nSecond line' });
			const first = await run(parameters);
			expect(first.error).toBeUndefined();
			const made = first.items[0].json.ad_id;

			sandbox().clearLog();
			const retyped = {
				...parameters,
				title: `${String(parameters.title)} `,
				text: 'First line\r\nSecond line\r\n',
				promoteUrl: 'HTTPS://T.ME/berlin_startups/',
			};
			const again = await run(retyped);
			expect(again.error).toBeUndefined();
			expect(apiWrites(sandbox())).toHaveLength(0);
			expect(again.items[0].json).toMatchObject({ skipped: true, ad_id: made });

			sandbox().clearLog();
			const otherPath = await run({ ...retyped, promoteUrl: 'https://t.me/munich_startups' });
			expect(otherPath.error).toBeUndefined();
			expect(apiWrites(sandbox())).toHaveLength(1);
		});

		test('Skip Identical: two identical rows of one run create one ad; a different text is a new ad', async () => {
			const parameters = freshCreate({ text: '={{ $json.text }}' });
			const { items, error } = await run(parameters, {
				input: [{ text: 'Same words' }, { text: 'Same words' }, { text: 'Other words' }],
			});
			expect(error).toBeUndefined();
			const writes = apiWrites(sandbox());
			expect(writes.map((w) => (w.body as IDataObject).text)).toEqual([
				'Same words',
				'Other words',
			]);
			expect(items).toHaveLength(3);
			const skipped = items.filter((i) => i.json.skipped === true);
			expect(skipped).toHaveLength(1);
			const made = items.find((i) => i.json.skipped !== true && i.json.text === 'Same words');
			expect(skipped[0].json.ad_id).toBe(made?.json.ad_id);
			// One list read for the title, shared by the three rows, and one look at the ads made today
			// after the node's last write, for a twin another run made at the same moment.
			const lists = reads().filter((r) => r.path === LIST);
			expect(lists.map((r) => r.query.period ?? 'by title')).toEqual(['by title', 'today']);
		});

		test('Skip Identical switched off, or node version 1.2: a rerun creates a second ad', async () => {
			const off = freshCreate({ options: { skipIdentical: false } });
			await run(off);
			await run(off);
			expect(apiWrites(sandbox())).toHaveLength(2);
			expect(reads()).toHaveLength(0);

			sandbox().clearLog();
			const old = freshCreate();
			await run(old, { typeVersion: 1.2 });
			await run(old, { typeVersion: 1.2 });
			expect(apiWrites(sandbox())).toHaveLength(2);
			expect(reads()).toHaveLength(0);
		});

		test('a deleted identical ad does not count: the row is created again', async () => {
			const parameters = freshCreate();
			const first = await run(parameters);
			const stored = sandbox().data.ads.find((a) => a.id === first.items[0].json.ad_id);
			if (!stored) throw new Error('created ad not stored');
			stored.status = 'deleted';
			sandbox().clearLog();
			await run(parameters);
			expect(apiWrites(sandbox())).toHaveLength(1);
		});

		test('a CPM or budget outside the bounds is refused before anything is sent', async () => {
			const { error } = await run(freshCreate({ cpm: 12, options: { cpmMax: 10 } }));
			expect(error?.message).toContain('CPM');
			expect(error?.message).toContain('at most 10');
			expect(error?.message).toContain('12');
			expect(error?.message).toContain('Nothing was sent to the API');
			expect(error?.message).toContain('repeating is safe');
			const low = await run(freshCreate({ cpm: 0.5, options: { cpmMin: 1 } }));
			expect(low.error?.message).toContain('at least 1');
			const budget = await run(freshCreate({ budget: 5000, options: { budgetMax: 1000 } }));
			expect(budget.error?.message).toMatch(/Budget.*at most 1000.*5000/);
			expect(apiRequests(sandbox())).toHaveLength(0);
		});
	});

	describe('Update', () => {
		test('Dry Run reads the ad, sends no write, shows the changes and the body a real run sends', async () => {
			const { id, detail } = activeAd();
			const parameters = {
				resource: 'ad',
				operation: 'update',
				adId: locator(String(id)),
				updateFields: { title: 'Dry run title', cpm: Number(detail.cpm) + 0.1 },
			};
			const dry = await run({ ...parameters, options: { dryRun: true } });
			expect(dry.error).toBeUndefined();
			expect(apiWrites(sandbox())).toHaveLength(0);
			expect(reads().map((r) => r.path)).toEqual([`${AD_PATH[platform]}${id}`]);
			const shown = dry.items[0].json;
			expect(shown).toMatchObject({
				dryRun: true,
				method: 'PUT',
				path: `${AD_PATH[platform]}${id}`,
				changes: {
					title: { from: detail.title, to: 'Dry run title' },
					cpm: { from: detail.cpm, to: Number(detail.cpm) + 0.1 },
				},
			});
			expect(sandbox().data.adDetail(id)).toEqual(detail);

			sandbox().clearLog();
			await run(parameters);
			const writes = apiWrites(sandbox());
			expect(writes).toHaveLength(1);
			expect(writes[0].body).toEqual(shown.body);
		});

		test('Skip Unchanged: values equal to the ad send nothing; one changed value sends the PUT', async () => {
			const { id, detail } = activeAd();
			const same = await run({
				resource: 'ad',
				operation: 'update',
				adId: locator(String(id)),
				updateFields: { title: detail.title as string, cpm: detail.cpm as number },
			});
			expect(same.error).toBeUndefined();
			expect(apiWrites(sandbox())).toHaveLength(0);
			expect(same.items[0].json).toEqual({ skipped: true, reason: 'unchanged', ad_id: id });
			// The extra read of one item: the ad's detail.
			expect(reads()).toHaveLength(1);

			sandbox().clearLog();
			await run({
				resource: 'ad',
				operation: 'update',
				adId: locator(String(id)),
				updateFields: { title: `${String(detail.title)}!`, cpm: detail.cpm as number },
			});
			expect(apiWrites(sandbox())).toHaveLength(1);
			expect(reads()).toHaveLength(1);
		});

		test('Skip Unchanged off, or version 1.2: the PUT is sent without reading the ad', async () => {
			const { id, detail } = activeAd();
			const parameters = {
				resource: 'ad',
				operation: 'update',
				adId: locator(String(id)),
				updateFields: { cpm: detail.cpm as number },
			};
			await run({ ...parameters, options: { skipUnchanged: false } });
			await run(parameters, { typeVersion: 1.2 });
			expect(apiWrites(sandbox())).toHaveLength(2);
			expect(reads()).toHaveLength(0);
		});

		test('Max Change % refuses a CPM or daily budget moved too far, naming both values and the bound', async () => {
			const { id, detail } = activeAd();
			const current = detail.cpm as number;
			const { error } = await run({
				resource: 'ad',
				operation: 'update',
				adId: locator(String(id)),
				updateFields: { cpm: current * 2 },
				options: { maxChangePercent: 50 },
			});
			expect(error?.message).toContain(`current CPM is ${current}`);
			expect(error?.message).toContain(String(current * 2));
			expect(error?.message).toContain('at most 50%');
			expect(error?.message).toContain('no write was sent, so nothing changed');
			expect(apiWrites(sandbox())).toHaveLength(0);

			const within = await run({
				resource: 'ad',
				operation: 'update',
				adId: locator(String(id)),
				updateFields: { cpm: Math.round(current * 120) / 100 },
				options: { maxChangePercent: 50 },
			});
			expect(within.error).toBeUndefined();
			expect(apiWrites(sandbox())).toHaveLength(1);
		});

		test('a daily budget above Budget Max is refused before the ad is even read', async () => {
			const { id } = activeAd();
			const { error } = await run({
				resource: 'ad',
				operation: 'update',
				adId: locator(String(id)),
				updateFields: { dailyBudget: 900 },
				options: { budgetMax: 500 },
			});
			expect(error?.message).toMatch(/Daily Budget.*at most 500.*900/);
			expect(apiRequests(sandbox())).toHaveLength(0);
		});
	});
});
