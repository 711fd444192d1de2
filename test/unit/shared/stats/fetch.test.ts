import { NodeApiError } from 'n8n-workflow';
import { fakeContext, fullResponse } from '../../../support/fakeContext';
import { fetchStats } from '../../../../nodes/shared/stats/fetch';
import type { StatsQuery } from '../../../../nodes/shared/stats/query';
import {
	MINUTE,
	Dataset,
	FakeStatsApi,
	pull,
	monthOfDays,
	monthQuery,
} from '../../../support/fakeStatsApi';

// Retry waits are answered at once.
jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

describe('fetchStats: one cursor', () => {
	test('follows the cursor to the end: the query once, then only the cursor', async () => {
		const api = monthOfDays();
		const { rows, pages, result } = await pull(api, monthQuery, { pageSize: 4, parallel: 1 });
		expect(rows).toEqual(api.rowsFor(monthQuery));
		expect(rows).toHaveLength(90);
		expect(api.bodies[0]).toEqual({ ...monthQuery, limit: 4 });
		expect(api.bodies.slice(1)).toEqual(
			Array.from({ length: 22 }, (_, i) => ({ cursor: `c${i + 1}` })),
		);
		expect(pages.map((page) => page.rows.length)).toEqual([...Array(22).fill(4), 2]);
		expect(pages[22].cursor).toBeNull();
		expect(result).toEqual({
			columns: [{ name: 'period_date' }, { name: 'campaign_id' }, { name: 'views' }],
			count: 90,
			rowsReceived: 90,
			pacedRequests: 0,
			pages: 23,
			parallel: 1,
			periods: 1,
		});
	});

	test('a cursor the API returns twice stops the pull with an error instead of looping', async () => {
		const fake = fakeContext(() => fullResponse({ rows: [{ period_date: 'p' }], cursor: 'same' }));
		const onRows = jest.fn();
		const error = (await fetchStats
			.call(fake.ctx, monthQuery, { parallel: 1, itemIndex: 2, onRows })
			.catch((e: unknown) => e)) as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(
			'The statistics API returned the same cursor twice, so paging stopped to avoid an endless loop. Try again or narrow the period. It only reads data, so running it again is safe.',
		);
		expect(error.context.itemIndex).toBe(2);
		expect(fake.request).toHaveBeenCalledTimes(2);
		expect(onRows).toHaveBeenCalledTimes(1);
	});

	test('an answer without a rows array is an error, not an empty result', async () => {
		const fake = fakeContext(() => fullResponse({ data: [] }));
		await expect(fetchStats.call(fake.ctx, monthQuery, { onRows: jest.fn() })).rejects.toThrow(
			'The statistics answer has no "rows" array, so it is not a statistics page. It only reads data, so running it again is safe.',
		);
		expect(fake.request).toHaveBeenCalledTimes(1);
	});

	test('an empty cursor string ends the pull like null', async () => {
		const fake = fakeContext(() => fullResponse({ rows: [{ period_date: 'p' }], cursor: '' }));
		const onRows = jest.fn();
		const result = await fetchStats.call(fake.ctx, monthQuery, { onRows });
		expect(result.rowsReceived).toBe(1);
		expect(fake.request).toHaveBeenCalledTimes(1);
	});

	test('maxRows stops at that many rows, asking no page past them', async () => {
		const api = monthOfDays();
		const { rows, result } = await pull(api, monthQuery, { pageSize: 5, maxRows: 7 });
		expect(rows).toEqual(api.rowsFor(monthQuery).slice(0, 7));
		expect(result.rowsReceived).toBe(7);
		expect(api.bodies).toHaveLength(2);
		// The count shows more rows than wanted, so nothing was cut into parts.
		expect(api.queries()).toHaveLength(1);
	});

	test('a maxRows below the page size becomes the page size', async () => {
		const api = monthOfDays();
		const { rows } = await pull(api, monthQuery, { maxRows: 3 });
		expect(rows).toHaveLength(3);
		expect(api.bodies).toEqual([{ ...monthQuery, limit: 3 }]);
	});

	test('period dates without an offset give no safe cut: the pull stays one cursor', async () => {
		const api = monthOfDays({ noOffset: true });
		const { rows, result } = await pull(api, monthQuery, { pageSize: 3, parallel: 4 });
		expect(rows).toEqual(api.rowsFor(monthQuery));
		expect(api.queries()).toHaveLength(1);
		expect(result.periods).toBe(1);
		expect(api.mostInFlight).toBe(1);
	});
});

describe('fetchStats: the parallel pull', () => {
	test("cuts the rest of the period at the API's own period starts and hands the rows on in sequential order", async () => {
		const api = monthOfDays();
		const { rows, result } = await pull(api, monthQuery, { pageSize: 3, parallel: 4 });
		expect(rows).toEqual(api.rowsFor(monthQuery));
		expect(result.periods).toBeGreaterThan(1);
		expect(result.rowsReceived).toBe(90);
		expect(result.pages).toBe(api.bodies.length);

		const [head, ...parts] = api.queries();
		expect(head).toEqual({ ...monthQuery, limit: 3 });
		expect(parts).toHaveLength(result.periods - 1);
		for (const part of parts) {
			// The rest of the query is kept; only the period differs.
			expect(part).toEqual({
				...monthQuery,
				period_from: part.period_from,
				period_to: part.period_to,
				limit: 3,
			});
			expect(part.period_from).toMatch(/T00:00:00\.000\+03:00$/);
		}
		// The parts tile the rest of the period: each ends just before the next starts, the last at the end asked for.
		const sorted = [...parts].sort(
			(a, b) => Date.parse(String(a.period_from)) - Date.parse(String(b.period_from)),
		);
		for (let i = 0; i + 1 < sorted.length; i++) {
			expect(sorted[i].period_to).toMatch(/T23:59:59\.999\+03:00$/);
			expect(Date.parse(String(sorted[i].period_to)) + 1).toBe(
				Date.parse(String(sorted[i + 1].period_from)),
			);
		}
		expect(sorted[sorted.length - 1].period_to).toBe(monthQuery.period_to);
		expect(api.mostInFlight).toBeGreaterThan(1);
		expect(api.mostInFlight).toBeLessThanOrEqual(4);
	});

	test('the longer parts are asked for first, so that no long part runs on alone at the end', async () => {
		const api = monthOfDays();
		const { rows } = await pull(api, monthQuery, { pageSize: 3, parallel: 4 });
		expect(rows).toEqual(api.rowsFor(monthQuery));
		const days = api
			.queries()
			.slice(1)
			.map((part) => Date.parse(String(part.period_to)) - Date.parse(String(part.period_from)));
		expect(new Set(days).size).toBeGreaterThan(1);
		expect(days).toEqual([...days].sort((a, b) => b - a));
	});

	test('newest first: the cuts go backwards and the rows still come in the sequential order', async () => {
		const api = monthOfDays();
		const query = { ...monthQuery, order_by: '-period' };
		const { rows, result } = await pull(api, query, { pageSize: 3, parallel: 3 });
		expect(rows).toEqual(api.rowsFor(query));
		expect(result.periods).toBeGreaterThan(1);
		const parts = api.queries().slice(1);
		expect(parts.some((part) => part.period_from === query.period_from)).toBe(true);
		expect(api.mostInFlight).toBeLessThanOrEqual(3);
	});

	test("a limit at or above the API's count still lets the pull run in parts", async () => {
		const api = monthOfDays();
		const { rows, result } = await pull(api, monthQuery, { pageSize: 3, parallel: 4, maxRows: 90 });
		expect(rows).toEqual(api.rowsFor(monthQuery));
		expect(result.periods).toBeGreaterThan(1);
	});

	test('falls back to the one cursor when a part comes back with a period from before it (periods split)', async () => {
		const api = new FakeStatsApi(
			{
				unit: 'hour',
				offsetMinutes: 0,
				campaigns: [1, 2],
				slotMs: 15 * MINUTE,
				fromMs: Date.parse('2026-11-09T00:00:00Z'),
				toMs: Date.parse('2026-11-11T00:00:00Z'),
			},
			{ fromAsDate: true },
		);
		const query: StatsQuery = {
			...monthQuery,
			period_grouping_unit: 'hour',
			period_from: '2026-11-09T00:00:00Z',
			period_to: '2026-11-10T23:59:59Z',
		};
		const { rows, result } = await pull(api, query, { pageSize: 4, parallel: 4 });
		// Parts were tried...
		expect(api.queries().length).toBeGreaterThan(1);
		// ...then dropped: the rows are exactly one sequential pull's, each period once.
		expect(rows).toEqual(api.rowsFor(query));
		expect(rows).toHaveLength(96);
		expect(result.periods).toBe(1);
		expect(result.rowsReceived).toBe(96);
	});

	test('an API that gives no count is cut too, and still falls back when a part starts too early', async () => {
		const data: Dataset = {
			unit: 'hour',
			offsetMinutes: 0,
			campaigns: [1, 2],
			slotMs: 15 * MINUTE,
			fromMs: Date.parse('2026-11-09T00:00:00Z'),
			toMs: Date.parse('2026-11-11T00:00:00Z'),
		};
		const query: StatsQuery = {
			...monthQuery,
			period_grouping_unit: 'hour',
			period_from: '2026-11-09T00:00:00Z',
			period_to: '2026-11-10T23:59:59Z',
		};
		const clean = new FakeStatsApi(data, { noCount: true });
		const cut = await pull(clean, query, { pageSize: 4, parallel: 4 });
		expect(cut.rows).toEqual(clean.rowsFor(query));
		expect(cut.result.periods).toBeGreaterThan(1);
		expect(cut.result.count).toBeUndefined();

		const early = new FakeStatsApi(data, { noCount: true, fromAsDate: true });
		const fallback = await pull(early, query, { pageSize: 4, parallel: 4 });
		expect(early.queries().length).toBeGreaterThan(1);
		expect(fallback.rows).toEqual(early.rowsFor(query));
		expect(fallback.result.periods).toBe(1);
	});

	test("falls back to the one cursor when the parts do not add up to the API's count", async () => {
		const api = monthOfDays({ countOffBy: 1 });
		const { rows, result } = await pull(api, monthQuery, { pageSize: 3, parallel: 4 });
		expect(api.queries().length).toBeGreaterThan(1);
		expect(rows).toEqual(api.rowsFor(monthQuery));
		expect(result.periods).toBe(1);
	});

	test('a part that fails fails the run, and no partial rows are handed on', async () => {
		const api = monthOfDays({ refuse: (body) => body.period_from !== monthQuery.period_from });
		const onRows = jest.fn();
		const fake = api.context();
		const error = (await fetchStats
			.call(fake.ctx, monthQuery, { pageSize: 3, parallel: 4, onRows })
			.catch((e: unknown) => e)) as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toMatch(
			/^The Ad Cabinet API refused the request with 400: refused for the test\./,
		);
		expect(onRows).not.toHaveBeenCalled();
	});
});
