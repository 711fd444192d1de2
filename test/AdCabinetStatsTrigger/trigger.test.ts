import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { pollOnce } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';
import { sharedClock } from '../support/triggerClock';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Params = INodeParameters;

describe('Ad Cabinet Stats Trigger', () => {
	const sandbox = useSandbox({ now: '2026-11-17T09:00:00Z' });
	const clock = sharedClock(sandbox);
	afterEach(() => clock.stop());

	const params = (extra: Params = {}): Params => ({
		periodGroupingUnit: 'day',
		grouping: ['campaign'],
		emit: 'completed',
		startFrom: 'now',
		currency: 'EUR',
		numericValues: false,
		filters: {},
		options: {},
		...extra,
	});

	/** Polls every `stepMs` from `fromMs` to `toMs` (inclusive); returns every emitted row, in order. */
	async function pollAcross(
		parameters: Params,
		fromMs: number,
		toMs: number,
		stepMs: number,
		options: { restart?: boolean; staticData?: IDataObject } = {},
	) {
		let staticData: IDataObject = options.staticData ?? {};
		const emitted: IDataObject[] = [];
		let polls = 0;
		for (let t = fromMs; t <= toMs; t += stepMs) {
			clock.set(t);
			const result = await pollOnce({
				type: 'adCabinetStatsTrigger',
				parameters,
				credentials: credentialsFor(sandbox()),
				staticData,
			});
			polls++;
			if (result.error) throw result.error;
			for (const item of result.items ?? []) emitted.push(item.json);
			staticData = options.restart
				? (JSON.parse(JSON.stringify(result.staticData)) as IDataObject)
				: result.staticData;
		}
		return { emitted, staticData, polls };
	}

	/** Ground truth: the sandbox's rows for [from, to), whatever the unit's 2-day request rule. */
	function truth(unit: string, grouping: string[], fromMs: number, toMs: number): IDataObject[] {
		const rows: IDataObject[] = [];
		const step = unit === 'day' ? 60 * DAY : 2 * DAY;
		for (let from = fromMs; from < toMs; from += step) {
			const to = Math.min(toMs, from + step) - 1000;
			rows.push(
				...(sandbox().data.statsRows({
					period_from: new Date(from).toISOString(),
					period_to: new Date(to).toISOString(),
					period_grouping_unit: unit,
					grouping,
					currency_code: 'EUR',
					order_by: 'period',
				}) as IDataObject[]),
			);
		}
		return rows.filter(
			(row) =>
				Date.parse(String(row.period_date)) >= fromMs && Date.parse(String(row.period_date)) < toMs,
		);
	}

	test('day units over 3 days: each completed row exactly once, in period order, nothing from before activation', async () => {
		const start = Date.parse('2026-11-17T09:00:00Z');
		clock.start(start);
		const { emitted, polls } = await pollAcross(params(), start, start + 3 * DAY, HOUR);
		expect(polls).toBe(73);
		// Nov 16 had settled at activation (ended 00:00 + 1 h settle): not emitted. Nov 17-19 settled since.
		const expected = truth(
			'day',
			['campaign'],
			Date.parse('2026-11-17T00:00:00Z'),
			Date.parse('2026-11-20T00:00:00Z'),
		);
		expect(expected.length).toBeGreaterThan(10);
		expect(emitted).toEqual(expected);
	});

	test('hour units over 3 days: each completed hour exactly once, in order', async () => {
		const start = Date.parse('2026-11-17T09:10:00Z');
		clock.start(start);
		const { emitted } = await pollAcross(
			params({ periodGroupingUnit: 'hour' }),
			start,
			start + 3 * DAY,
			HOUR / 2,
		);
		const end = start + 3 * DAY;
		// 15-minute settle: at activation 09:10 the 08:00 hour (ends 09:00, settles 09:15) was still open.
		const expected = truth(
			'hour',
			['campaign'],
			Date.parse('2026-11-17T08:00:00Z'),
			Math.floor((end - 15 * 60_000) / HOUR) * HOUR,
		);
		expect(expected.length).toBeGreaterThan(100);
		expect(emitted).toEqual(expected);
	});

	test('a restart between polls (static data serialized as n8n stores it) changes nothing', async () => {
		const start = Date.parse('2026-11-17T09:00:00Z');
		clock.start(start);
		const kept = await pollAcross(params(), start, start + 2 * DAY, 3 * HOUR);
		const restarted = await pollAcross(params(), start, start + 2 * DAY, 3 * HOUR, {
			restart: true,
		});
		expect(restarted.emitted).toEqual(kept.emitted);
		expect(restarted.emitted.length).toBeGreaterThan(0);
	});

	test('Start From a date backfills the history first, then goes on', async () => {
		const start = Date.parse('2026-11-17T09:00:00Z');
		clock.start(start);
		const backfill = params({ startFrom: 'date', startDate: '2026-11-10T00:00:00Z' });
		const first = await pollAcross(backfill, start, start, HOUR);
		expect(first.emitted).toEqual(
			truth(
				'day',
				['campaign'],
				Date.parse('2026-11-10T00:00:00Z'),
				Date.parse('2026-11-17T00:00:00Z'),
			),
		);
		const later = await pollAcross(backfill, start + HOUR, start + DAY, HOUR, {
			staticData: first.staticData,
		});
		expect(later.emitted).toEqual(
			truth(
				'day',
				['campaign'],
				Date.parse('2026-11-17T00:00:00Z'),
				Date.parse('2026-11-18T00:00:00Z'),
			),
		);
	});

	test('Every Change: a row whose figures change is emitted again, an unchanged one is not', async () => {
		const start = Date.parse('2026-11-17T09:00:00Z');
		clock.start(start);
		const everyChange = params({ emit: 'everyChange' });
		const baseline = await pollAcross(everyChange, start, start, HOUR);
		expect(baseline.emitted).toEqual([]);
		// Same instant again: nothing changed, nothing emitted.
		const same = await pollAcross(everyChange, start, start, HOUR, {
			staticData: baseline.staticData,
		});
		expect(same.emitted).toEqual([]);
		// Forty minutes later today's rows have grown: each changed row comes again with its new figures.
		const later = await pollAcross(everyChange, start + 40 * 60_000, start + 40 * 60_000, HOUR, {
			staticData: same.staticData,
		});
		const today = truth(
			'day',
			['campaign'],
			Date.parse('2026-11-17T00:00:00Z'),
			Date.parse('2026-11-18T00:00:00Z'),
		);
		expect(later.emitted.length).toBeGreaterThan(0);
		expect(later.emitted).toEqual(
			today.filter((row) => later.emitted.some((e) => e.campaign_id === row.campaign_id)),
		);
		expect(later.emitted.every((row) => row.period_date === today[0].period_date)).toBe(true);
		// State holds only open periods: a few hundred bytes here.
		expect(JSON.stringify(later.staticData).length).toBeLessThan(8192);
	});

	test('a poll that fails mid-window emits nothing and keeps its state; the next emits everything once', async () => {
		const start = Date.parse('2026-11-17T09:00:00Z');
		clock.start(start);
		const byAd = params({ grouping: ['ad'], startFrom: 'date', startDate: '2026-11-14T00:00:00Z' });
		// A single transient failure is retried inside the poll.
		sandbox().faults.onNth(2, '502');
		const retried = await pollOnce({
			type: 'adCabinetStatsTrigger',
			parameters: byAd,
			credentials: credentialsFor(sandbox()),
			staticData: {},
		});
		expect(retried.error).toBeUndefined();
		const expected = truth(
			'day',
			['ad'],
			Date.parse('2026-11-14T00:00:00Z'),
			Date.parse('2026-11-17T00:00:00Z'),
		);
		expect(expected.length).toBeGreaterThan(500);
		expect(retried.items?.map((item) => item.json)).toEqual(expected);

		// A failure that outlasts the retries fails the poll: nothing emitted, state untouched.
		sandbox().clearLog();
		// Every request after the first fails: pages are fetched several at a time, so whichever
		// runs out of retries first fails the poll.
		for (let n = 2; n <= 60; n++) sandbox().faults.onNth(n, n % 2 ? 'reset' : '503');
		const failed = await pollOnce({
			type: 'adCabinetStatsTrigger',
			parameters: byAd,
			credentials: credentialsFor(sandbox()),
			staticData: {},
		});
		expect(failed.error?.name).toBe('NodeApiError');
		expect(failed.items).toBeNull();
		expect(failed.staticData['node:Node']).toEqual({});
		expect(apiRequests(sandbox()).filter((r) => r.fault).length).toBeGreaterThanOrEqual(5);
		sandbox().faults.clear();
		const next = await pollOnce({
			type: 'adCabinetStatsTrigger',
			parameters: byAd,
			credentials: credentialsFor(sandbox()),
			staticData: failed.staticData,
		});
		expect(next.items?.map((item) => item.json)).toEqual(expected);
		const again = await pollOnce({
			type: 'adCabinetStatsTrigger',
			parameters: byAd,
			credentials: credentialsFor(sandbox()),
			staticData: next.staticData,
		});
		expect(again.items).toBeNull();
	});

	test('Fetch Test Event returns a few of the latest settled rows and leaves the state alone', async () => {
		const start = Date.parse('2026-11-17T09:00:00Z');
		clock.start(start);
		const active = await pollAcross(params(), start, start + 2 * HOUR, HOUR);
		const before = JSON.stringify(active.staticData);
		const manual = await pollOnce({
			type: 'adCabinetStatsTrigger',
			parameters: params(),
			credentials: credentialsFor(sandbox()),
			staticData: active.staticData,
			mode: 'manual',
		});
		expect(manual.error).toBeUndefined();
		const latestDay = truth(
			'day',
			['campaign'],
			Date.parse('2026-11-16T00:00:00Z'),
			Date.parse('2026-11-17T00:00:00Z'),
		);
		expect(manual.items?.map((item) => item.json)).toEqual(latestDay.slice(-5));
		expect(JSON.stringify(manual.staticData)).toBe(before);
		const fresh = await pollOnce({
			type: 'adCabinetStatsTrigger',
			parameters: params(),
			credentials: credentialsFor(sandbox()),
			staticData: {},
			mode: 'manual',
		});
		expect(fresh.items).toHaveLength(5);
		expect(fresh.staticData).toEqual({});
	});

	test('a backfill date older than 5 days is refused for hour units, before any request', async () => {
		clock.start('2026-11-17T09:00:00Z');
		const { error } = await pollOnce({
			type: 'adCabinetStatsTrigger',
			parameters: params({
				periodGroupingUnit: 'hour',
				startFrom: 'date',
				startDate: '2026-11-10T00:00:00Z',
			}),
			credentials: credentialsFor(sandbox()),
			staticData: {},
		});
		expect(error?.message).toMatch(
			/^Start Date: with the unit "hour" data exists only for the last 5 days/,
		);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});
});
