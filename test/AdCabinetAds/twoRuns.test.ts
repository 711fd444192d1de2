import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { runNode } from '../../harness';
import { processedData } from '../../harness/processedData';
import { apiWrites, credentialsFor } from '../../harness/sandbox';
import { cabinetIdIn } from '../../sandbox';
import { useSandbox } from '../support/useSandbox';
import { locator, minimalCreate } from '../support/adFixtures';

const NOW = '2026-11-20T12:00:00.000Z';

/** Two executions of one workflow started at the same instant (n8n does not promise one at a time). */
describe('Ad Cabinet Ads → two executions at once', () => {
	const sandbox = useSandbox({ platform: 'telegram', now: NOW });
	let unique = 0;
	const rows = () => {
		unique++;
		return [1, 2].map((n) => ({ title: `Two runs ${unique} row ${n}`, text: `Row ${n} text` }));
	};
	const create = (input: IDataObject[], credentialId?: string) =>
		runNode({
			type: 'adCabinetAds',
			typeVersion: 1.3,
			parameters: minimalCreate({ title: '={{ $json.title }}', text: '={{ $json.text }}' }),
			credentials: credentialsFor(sandbox()),
			input,
			credentialId,
			continueOnFail: true,
		});
	const creates = () => apiWrites(sandbox()).filter((w) => w.method === 'POST');
	const adsTitled = (title: string) =>
		sandbox().data.ads.filter((ad) => ad.fields.title === title && ad.status !== 'deleted');

	afterEach(() => {
		processedData.unavailable = false;
	});

	test('in one process: each row is created once; the later run finds the ad the earlier made', async () => {
		const input = rows();
		const [a, b] = await Promise.all([create(input), create(input)]);
		expect(creates()).toHaveLength(2);
		for (const row of input) expect(adsTitled(row.title)).toHaveLength(1);
		const out = [...a.items, ...b.items].map((item) => item.json);
		const made = out.filter((json) => json.skipped !== true);
		const skipped = out.filter((json) => json.skipped === true);
		expect(made).toHaveLength(2);
		expect(skipped).toHaveLength(2);
		expect(skipped.map((json) => json.ad_id).sort()).toEqual(made.map((json) => json.ad_id).sort());
		for (const json of skipped) expect(json.reason).toBe('identical ad exists');
	});

	test("across processes (no hold shared): n8n's records keep the second run from creating; it outputs the first run's ad", async () => {
		const input = rows();
		const [a, b] = await Promise.all([create(input, 'process-1'), create(input, 'process-2')]);
		expect(creates()).toHaveLength(2);
		for (const row of input) expect(adsTitled(row.title)).toHaveLength(1);
		const out = [...a.items, ...b.items].map((item) => item.json);
		expect(out.filter((json) => json.skipped === true)).toHaveLength(2);
		expect(out.every((json) => typeof json.ad_id === 'number')).toBe(true);
	});

	test('when the claim could not be made (records unreachable), both runs create but each finds the twin and fails its item naming both ads', async () => {
		processedData.unavailable = true;
		const input = rows().slice(0, 1);
		const [a, b] = await Promise.all([create(input, 'process-1'), create(input, 'process-2')]);
		expect(creates()).toHaveLength(2);
		const ids = adsTitled(input[0].title).map((ad) => String(ad.id));
		expect(ids).toHaveLength(2);
		for (const run of [a, b]) {
			const message = String(run.items[0].json.error);
			expect(message).toMatch(
				/^Ad made twice: this run \(execution [^)]*\) created ad \d+, and another run \(of this workflow or another one\) created ad \d+/,
			);
			for (const id of ids) expect(message).toContain(id);
			expect(message).toContain('Do not run this row again until one is deleted');
		}
	});

	test('a create that failed leaves no hold or claim behind: the next run creates at once', async () => {
		const [row] = rows();
		// The run's requests: the list read for the title, then the create, which fails with 503.
		sandbox().faults.onNth(2, '503');
		const failed = await create([row]);
		expect(String(failed.items[0].json.error)).toContain('503');
		expect(adsTitled(row.title)).toHaveLength(0);
		const again = await create([row]);
		expect(again.items[0].json.skipped).toBeUndefined();
		expect(typeof again.items[0].json.ad_id).toBe('number');
		expect(adsTitled(row.title)).toHaveLength(1);
	});

	test('two updates of one ad at once end at one of the asked values, each Max Change % held against the value the API had when its PUT was sent', async () => {
		const DE = cabinetIdIn('telegram', '100002');
		const ad = sandbox().data.ads.find((a) => a.status === 'active' && a.accountId === DE);
		if (!ad) throw new Error('no active ad');
		const start = (sandbox().data.adDetail(ad.id) as IDataObject).cpm as number;
		const update = (cpm: number, credentialId: string) =>
			runNode({
				type: 'adCabinetAds',
				typeVersion: 1.3,
				parameters: {
					resource: 'ad',
					operation: 'update',
					adId: locator(String(ad.id)),
					updateFields: { cpm },
					options: { cpmMax: 1000, maxChangePercent: 30 },
				} as INodeParameters,
				credentials: credentialsFor(sandbox()),
				credentialId,
			});
		const up = Math.round(start * 129) / 100;
		const down = Math.round(start * 71) / 100;
		const [a, b] = await Promise.all([update(up, 'process-1'), update(down, 'process-2')]);
		const puts = apiWrites(sandbox()).filter((w) => w.method === 'PUT');
		// Whichever went first moved the CPM 29%; the other, read after that PUT, is 45% away: refused.
		expect(puts).toHaveLength(1);
		const errors = [a.error, b.error].filter(Boolean).map((e) => String(e?.message));
		expect(errors).toHaveLength(1);
		expect(errors[0]).toContain('at most 30%');
		const now = (sandbox().data.adDetail(ad.id) as IDataObject).cpm;
		expect([up, down]).toContain(now);
	});
});
