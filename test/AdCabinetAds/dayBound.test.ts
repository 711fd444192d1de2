import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { runAsTool, runNode } from '../../harness';
import { processedData } from '../../harness/processedData';
import { apiWrites, credentialsFor } from '../../harness/sandbox';
import { cabinetIdIn } from '../../sandbox';
import { useSandbox } from '../support/useSandbox';
import { locator } from '../support/adFixtures';

const NOW = '2026-11-20T12:00:00.000Z';
const up29 = (value: number) => Math.round(value * 129) / 100;

describe('Ad Cabinet Ads → Update: Max Change % per Day across executions', () => {
	const sandbox = useSandbox({ platform: 'telegram', now: NOW });
	const DE = cabinetIdIn('telegram', '100002');
	let picked = 0;
	/** A different active ad for each test, so that no test meets another's day. */
	const nextAd = () => {
		const ads = sandbox().data.ads.filter((a) => a.status === 'active' && a.accountId === DE);
		const ad = ads[picked++];
		if (!ad) throw new Error('no active ad left');
		const cpm = (sandbox().data.adDetail(ad.id) as IDataObject).cpm as number;
		return { id: String(ad.id), cpm };
	};
	const update = (id: string, cpm: number, options: IDataObject = {}) =>
		runNode({
			type: 'adCabinetAds',
			typeVersion: 1.3,
			parameters: {
				resource: 'ad',
				operation: 'update',
				adId: locator(id),
				updateFields: { cpm },
				options: { cpmMax: 1000, maxChangePercent: 30, maxChangePercentPerDay: 30, ...options },
			} as INodeParameters,
			credentials: credentialsFor(sandbox()),
		});
	const puts = () => apiWrites(sandbox()).filter((w) => w.method === 'PUT');

	afterEach(() => {
		processedData.unavailable = false;
	});

	test('five executions of +29% each: the first is sent, the second is refused naming the day start, the asked value and the bound', async () => {
		const { id, cpm: start } = nextAd();
		let value = start;
		const errors: string[] = [];
		for (let call = 0; call < 5; call++) {
			const asked = up29(value);
			const run = await update(id, asked);
			if (run.error) errors.push(run.error.message);
			else value = asked;
		}
		expect(puts()).toHaveLength(1);
		expect(value).toBe(up29(start));
		expect(errors).toHaveLength(4);
		const second = errors[0];
		expect(second).toContain(`from ${start}, the value the ad had at the start of its day`);
		expect(second).toContain(`(got ${up29(up29(start))})`);
		expect(second).toContain('at most 30% a day (Max Change % per Day under Options)');
		expect(second).toContain('no write was sent, so nothing changed');
		expect(second).toMatch(/the day ends \d{4}-\d\d-\d\d \d\d:00 UTC/);

		// Within the day's range from the start value, a change is still sent.
		const back = await update(id, Math.round(start * 110) / 100);
		expect(back.error).toBeUndefined();
		expect(puts()).toHaveLength(2);
	});

	test('one execution changing three ads: each opens its day, the next ad is read while a day waits for its confirmation, and the changes go in item order', async () => {
		const ads = [nextAd(), nextAd(), nextAd()];
		const since = sandbox().requests.length;
		const run = await runNode({
			type: 'adCabinetAds',
			typeVersion: 1.3,
			parameters: {
				resource: 'ad',
				operation: 'update',
				adId: locator('={{ $json.id }}'),
				updateFields: { cpm: '={{ $json.cpm }}' },
				options: { cpmMax: 1000, maxChangePercent: 30, maxChangePercentPerDay: 30 },
			} as INodeParameters,
			credentials: credentialsFor(sandbox()),
			input: ads.map((ad) => ({ id: ad.id, cpm: up29(ad.cpm) })),
		});
		expect(run.error).toBeUndefined();
		const trail = sandbox()
			.requests.slice(since)
			.filter((r) => r.api === 'base')
			.map((r) => `${r.method} ${ads.findIndex((ad) => r.path.includes(ad.id))}`);
		// Item 1's day waits a second for its confirmation before its PUT; items 2 and 3 read their ads
		// meanwhile, and the PUTs still go in the order of the items.
		expect(trail.filter((step) => step.startsWith('PUT'))).toEqual(['PUT 0', 'PUT 1', 'PUT 2']);
		expect(trail.indexOf('GET 1')).toBeLessThan(trail.indexOf('PUT 0'));
		expect(trail.indexOf('GET 2')).toBeLessThan(trail.indexOf('PUT 1'));
		// Every ad's day is open: a further +29% of each, in another execution, is refused.
		for (const ad of ads) {
			const again = await update(ad.id, up29(up29(ad.cpm)));
			expect(again.error?.message).toContain(
				`from ${ad.cpm}, the value the ad had at the start of its day`,
			);
		}
	});

	test('Dry Run checks the day bound but opens no day', async () => {
		const { id, cpm: start } = nextAd();
		const dry = await update(id, up29(start), { dryRun: true });
		expect(dry.error).toBeUndefined();
		expect(dry.items[0].json).toMatchObject({ dryRun: true, method: 'PUT' });
		// No day was opened by the dry run: a real change now starts the day from the same value.
		const real = await update(id, up29(start));
		expect(real.error).toBeUndefined();
		const again = await update(id, up29(up29(start)), { dryRun: true });
		expect(again.error?.message).toContain(
			`from ${start}, the value the ad had at the start of its day`,
		);
		expect(puts()).toHaveLength(1);
	});

	test("an update is refused, never sent unbounded, when n8n's records cannot be reached", async () => {
		const { id, cpm } = nextAd();
		processedData.unavailable = true;
		const run = await update(id, up29(cpm));
		expect(run.error?.message).toMatch(
			/^Max Change % per Day \(under Options\) could not be checked: n8n's database did not answer\. The update was refused/,
		);
		expect(run.error?.message).toContain(
			'no write was sent, so nothing changed and running it again is safe',
		);
		expect(puts()).toHaveLength(0);
	});

	test('without a change of CPM or daily budget the day record is not needed', async () => {
		const { id, cpm } = nextAd();
		processedData.unavailable = true;
		const run = await update(id, cpm);
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ skipped: true, reason: 'unchanged' });
	});

	test('as a tool called directly (the MCP Server Trigger path), a second +29% call is refused', async () => {
		const { id, cpm: start } = nextAd();
		const { calls } = await runAsTool({
			type: 'adCabinetAds',
			typeVersion: 1.3,
			parameters: {
				resource: 'ad',
				operation: 'update',
				adId: locator(id),
				updateFields: { cpm: "={{ $fromAI('CPM', 'the new CPM', 'number') }}" },
				options: { cpmMax: 1000, maxChangePercent: 30, maxChangePercentPerDay: 30 },
			},
			credentials: credentialsFor(sandbox()),
			calls: [{ CPM: up29(start) }, { CPM: up29(up29(start)) }],
		});
		expect(calls[0].error).toBeUndefined();
		expect(calls[1].error).toContain(`from ${start}, the value the ad had at the start of its day`);
		expect(puts()).toHaveLength(1);
	});
});
