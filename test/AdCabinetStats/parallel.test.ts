import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { runNode } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import type { Sandbox } from '../../sandbox';
import { decodeCursor } from '../../sandbox/stats/cursor';
import { useSandbox } from '../support/useSandbox';

const NOW = '2026-11-20T12:00:00Z';

function helpersFor(sandbox: () => Sandbox) {
	function params(extra: INodeParameters, options: IDataObject = {}): INodeParameters {
		return {
			resource: 'statistic',
			operation: 'getAll',
			period: 'custom',
			periodGroupingUnit: 'day',
			grouping: [],
			currency: 'EUR',
			returnAll: true,
			filters: {},
			...extra,
			options: { numericValues: false, ...options },
		};
	}

	/** What one query for the whole period returns: the rows of a sequential pull. */
	function truth(p: INodeParameters): IDataObject[] {
		const filters = p.filters as IDataObject;
		const grouping = p.grouping as string[];
		return sandbox().data.statsRows({
			period_from: p.periodFrom,
			period_to: p.periodTo,
			period_grouping_unit: p.periodGroupingUnit,
			...(grouping.length ? { grouping } : {}),
			currency_code: p.currency,
			order_by: (p.options as IDataObject).order ?? 'period',
			...(filters.cabinetIds
				? { platform_cabinet_ids: String(filters.cabinetIds).split(',') }
				: {}),
			...(filters.adObjects ? { ad_objects: filters.adObjects } : {}),
		}) as IDataObject[];
	}

	/** The queries sent (first pages), as opposed to cursor-only next pages. */
	function queriesSent(): IDataObject[] {
		return apiRequests(sandbox())
			.map((request) => request.body as IDataObject)
			.filter((body) => body.period_from !== undefined);
	}

	/** Every cut is at the start of one of the API's periods, written in its own offset. */
	function expectCutsInTheApiOffset(p: INodeParameters): void {
		for (const query of queriesSent().slice(1)) {
			for (const edge of [query.period_from, query.period_to]) {
				if (edge !== p.periodFrom && edge !== p.periodTo) expect(String(edge)).toMatch(/\+03:00$/);
			}
		}
	}

	/**
	 * The whole query's own cursor stopped where the first part ends: it fetched fewer pages than
	 * a sequential pull, so the other parts' rows came from their own queries (had the cuts been
	 * dropped, this cursor would have paged to the end).
	 */
	function expectNoPageTwice(p: INodeParameters, rows: number): void {
		const pageSize = (p.options as IDataObject).pageSize as number;
		const ofWholeQuery = apiRequests(sandbox()).filter((request) => {
			const body = request.body as IDataObject;
			const query = body.cursor ? decodeCursor(body.cursor).query : body;
			return query.period_from === p.periodFrom && query.period_to === p.periodTo;
		});
		expect(ofWholeQuery.length).toBeLessThan(Math.ceil(rows / pageSize));
	}

	const run = (parameters: INodeParameters): ReturnType<typeof runNode> =>
		runNode({ type: 'adCabinetStats', parameters, credentials: credentialsFor(sandbox()) });

	return { params, truth, queriesSent, expectCutsInTheApiOffset, expectNoPageTwice, run };
}

/**
 * Return All fetched several pages at a time, from an API whose periods start at 00:00+03:00:
 * whatever the unit, grouping, filter, order and currency, the rows and their order are exactly
 * those of one sequential pull (the sandbox's rows for the whole query).
 */
describe('Ad Cabinet Stats → Get Many, Return All in parallel', () => {
	const sandbox = useSandbox({ now: NOW, bucketTimeZone: '+03:00' });
	afterEach(() => {
		sandbox().data.answerDelayMs = 0;
	});

	const { params, truth, queriesSent, expectCutsInTheApiOffset, expectNoPageTwice, run } =
		helpersFor(sandbox);

	const cases: Array<[string, INodeParameters, IDataObject]> = [
		[
			'day by ad, from and to inside a day',
			{ periodFrom: '2026-11-01T05:17:00Z', periodTo: '2026-11-10T13:00:00Z', grouping: ['ad'] },
			{ pageSize: 300 },
		],
		[
			'day by campaign, newest first, in USD',
			{
				periodFrom: '2026-10-10T00:00:00+03:00',
				periodTo: '2026-11-19T23:59:59+03:00',
				grouping: ['campaign'],
				currency: 'USD',
			},
			{ order: '-period', pageSize: 40 },
		],
		[
			'week by ad object',
			{
				periodFrom: '2026-06-01T00:00:00Z',
				periodTo: '2026-11-19T23:59:59Z',
				periodGroupingUnit: 'week',
				grouping: ['ad_object'],
			},
			{ pageSize: 20 },
		],
		[
			'month by cabinet and ad, newest first',
			{
				periodFrom: '2026-03-01T00:00:00Z',
				periodTo: '2026-11-19T23:59:59Z',
				periodGroupingUnit: 'month',
				grouping: ['cabinet', 'ad'],
			},
			{ order: '-period', pageSize: 250 },
		],
		[
			'day by ad, two ad objects',
			{
				periodFrom: '2026-10-20T00:00:00Z',
				periodTo: '2026-11-19T23:59:59Z',
				grouping: ['ad'],
				filters: { adObjects: ['https://t.me/uzbek_tech_news', 'https://t.me/uz_market_bot'] },
			},
			{ pageSize: 25 },
		],
	];

	test.each(cases)(
		'%s: the rows of one sequential pull, fetched as several queries at once',
		async (_name, extra, options) => {
			const p = params(extra, options);
			const expected = truth(p);
			expect(expected.length).toBeGreaterThan(3 * (options.pageSize as number));
			const { items, error } = await run(p);
			expect(error).toBeUndefined();
			expect(items.map((item) => item.json)).toEqual(expected);
			expect(queriesSent().length).toBeGreaterThan(2);
			expectCutsInTheApiOffset(p);
			expectNoPageTwice(p, expected.length);
		},
	);

	test('with Requests at Once 1 the same rows come by one cursor, one page after another', async () => {
		const p = params(cases[0][1], { ...cases[0][2], parallelRequests: 1 });
		const { items } = await run(p);
		expect(items.map((item) => item.json)).toEqual(truth(p));
		expect(queriesSent()).toHaveLength(1);
	});

	test('year: too few periods to cut, so one cursor, and the same rows', async () => {
		const p = params(
			{
				periodFrom: '2025-01-01T00:00:00Z',
				periodTo: '2026-11-19T23:59:59Z',
				periodGroupingUnit: 'year',
				grouping: ['ad'],
			},
			{ pageSize: 100 },
		);
		const { items } = await run(p);
		const expected = truth(p);
		expect(expected.length).toBeGreaterThan(300);
		expect(items.map((item) => item.json)).toEqual(expected);
	});

	test("a Limit at least the API's count is fetched in parallel; a smaller one asks for no page past it", async () => {
		const p = params({ ...cases[2][1], returnAll: false, limit: 100_000 }, cases[2][2]);
		const all = await run(p);
		expect(all.items.map((item) => item.json)).toEqual(truth(p));
		expect(queriesSent().length).toBeGreaterThan(2);

		sandbox().clearLog();
		const limited = await run({ ...p, limit: 70 });
		expect(limited.items.map((item) => item.json)).toEqual(truth(p).slice(0, 70));
		const log = apiRequests(sandbox());
		expect(log).toHaveLength(Math.ceil(70 / 20));
		for (const request of log.slice(1))
			expect(Object.keys(request.body as object)).toEqual(['cursor']);
	});

	test('an API that changes its offset mid-period (daylight saving) still gives the sequential rows', async () => {
		const zone = sandbox().data.bucketZone;
		const { bucketZone } = await import('../../sandbox/metrics/time');
		sandbox().data.bucketZone = bucketZone('Europe/Berlin');
		try {
			const p = params(
				{
					periodFrom: '2026-10-01T00:00:00+02:00',
					periodTo: '2026-11-19T23:59:59+01:00',
					grouping: ['campaign'],
				},
				{ pageSize: 20 },
			);
			const expected = truth(p);
			expect(expected.map((row) => String(row.period_date).slice(-6))).toEqual(
				expect.arrayContaining(['+02:00', '+01:00']),
			);
			const { items, error } = await run(p);
			expect(error).toBeUndefined();
			expect(items.map((item) => item.json)).toEqual(expected);
		} finally {
			sandbox().data.bucketZone = zone;
		}
	});

	test('a 429 halves the requests kept open at once (counted by the sandbox)', async () => {
		sandbox().data.answerDelayMs = 60;
		// Page 1 is alone; the first wave after it is sent 8 at a time; one of its answers is a 429.
		sandbox().faults.onNth(9, '429');
		const p = params(
			{
				periodFrom: '2026-10-01T00:00:00Z',
				periodTo: '2026-11-19T23:59:59Z',
				grouping: ['campaign'],
			},
			{ pageSize: 10 },
		);
		const { items, error } = await run(p);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual(truth(p));
		const log = apiRequests(sandbox());
		const limited = log.findIndex((request) => request.status === 429);
		expect(limited).toBeGreaterThan(0);
		const before = Math.max(...log.slice(0, limited + 1).map((request) => request.open));
		expect(before).toBeGreaterThan(4);
		// Requests already under way when the 429 came back (at most one wave of 8) may still
		// overlap; everything sent after them stays within half.
		const after = log.slice(limited + 1 + 2 * 8);
		expect(after.length).toBeGreaterThan(20);
		expect(Math.max(...after.map((request) => request.open))).toBeLessThanOrEqual(4);
	});

	test('Requests at Once must be a whole number from 1 to 32; nothing is sent otherwise', async () => {
		for (const value of [0, 2.5, 33]) {
			const { error } = await run(params(cases[0][1], { parallelRequests: value }));
			expect(error?.message).toContain('Requests at Once');
			expect(error?.message).toContain('from 1 to 32');
		}
		expect(apiRequests(sandbox())).toHaveLength(0);
	});
});

/** Hour and minute units keep only the last 5 days: this sandbox's clock is the real one. */
describe('Ad Cabinet Stats → Get Many, Return All in parallel, hour and minute units', () => {
	const sandbox = useSandbox({ bucketTimeZone: '+03:00' });
	const { params, truth, queriesSent, expectCutsInTheApiOffset, expectNoPageTwice, run } =
		helpersFor(sandbox);
	const ago = (hours: number) =>
		new Date(Math.floor(Date.now() / 60_000) * 60_000 - hours * 3_600_000).toISOString();

	const cases: Array<[string, () => INodeParameters, IDataObject]> = [
		[
			'hour by ad, nearly two days',
			() => ({
				periodFrom: ago(47.3),
				periodTo: ago(0.5),
				periodGroupingUnit: 'hour',
				grouping: ['ad'],
			}),
			{ pageSize: 400 },
		],
		[
			'30 minutes by campaign, newest first, in RUB',
			() => ({
				periodFrom: ago(30),
				periodTo: ago(1),
				periodGroupingUnit: '30_minutes',
				grouping: ['campaign'],
				currency: 'RUB',
			}),
			{ order: '-period', pageSize: 50 },
		],
		[
			'5 minutes, no grouping, one cabinet',
			() => ({
				periodFrom: ago(20),
				periodTo: ago(2),
				periodGroupingUnit: '5_minutes',
				filters: { cabinetIds: 'ACC06163' },
			}),
			{ pageSize: 20 },
		],
	];

	test.each(cases)(
		'%s: the rows of one sequential pull, fetched as several queries at once',
		async (_name, extra, options) => {
			const p = params(extra(), options);
			const expected = truth(p);
			expect(expected.length).toBeGreaterThan(3 * (options.pageSize as number));
			const { items, error } = await run(p);
			expect(error).toBeUndefined();
			expect(items.map((item) => item.json)).toEqual(expected);
			expect(queriesSent().length).toBeGreaterThan(2);
			expectCutsInTheApiOffset(p);
			expectNoPageTwice(p, expected.length);
		},
	);
});
