import { NodeApiError, NodeOperationError, type IDataObject } from 'n8n-workflow';
import {
	fetchStats,
	fetchStatsWindow,
	type StatsFetch,
	type StatsPage,
} from '../../../../nodes/shared/stats/fetch';
import type { StatsQuery } from '../../../../nodes/shared/stats/query';
import { fakeContext, fullResponse, httpError } from '../../../support/fakeContext';

// Retry waits are answered at once.
jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

interface Dataset {
	unit: 'hour' | 'day';
	/** The offset the API's periods start in and its period_date values are written in. */
	offsetMinutes: number;
	campaigns: number[];
	/** Data exists in slots of this length from fromMs (inclusive) to toMs (exclusive). */
	slotMs: number;
	fromMs: number;
	toMs: number;
}

interface Quirks {
	/** A server that reads period_from as a date only (so a part comes back with rows before it). */
	fromAsDate?: boolean;
	/** A count that differs from the rows the query really has. */
	countOffBy?: number;
	/** An answer without `count`. */
	noCount?: boolean;
	/** period_date written without an offset. */
	noOffset?: boolean;
	/** Refuses the first request of a query for which this is true. */
	refuse?: (body: IDataObject) => boolean;
}

const mod = (a: number, b: number) => ((a % b) + b) % b;

function formatIn(ms: number, offsetMinutes: number, withOffset = true): string {
	const wall = new Date(ms + offsetMinutes * MINUTE).toISOString().slice(0, 19);
	if (!withOffset) return wall;
	if (offsetMinutes === 0) return `${wall}Z`;
	const abs = Math.abs(offsetMinutes);
	const sign = offsetMinutes < 0 ? '-' : '+';
	return `${wall}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * A small statistics API: data in slots, aggregated into periods of the unit in the API's
 * offset. A period is in a query's answer when one of its slots starts in [period_from,
 * period_to], so a query that starts or ends inside a period gets only part of it (as the API
 * does). It pages by cursor and keeps the fine-unit rule of at most 2 days per request.
 */
class FakeStatsApi {
	readonly bodies: IDataObject[] = [];
	inFlight = 0;
	mostInFlight = 0;
	private readonly cursors = new Map<
		string,
		{ rows: IDataObject[]; offset: number; limit: number }
	>();
	private cursorCount = 0;

	constructor(
		private readonly data: Dataset,
		private readonly quirks: Quirks = {},
	) {}

	/** Every row of a query, in its order, as one answer without paging. */
	rowsFor(query: IDataObject): IDataObject[] {
		const { unit, offsetMinutes, campaigns, slotMs } = this.data;
		let from = Date.parse(String(query.period_from));
		const to = Date.parse(String(query.period_to));
		if (this.quirks.fromAsDate) from = Math.floor(from / DAY) * DAY;
		const step = unit === 'hour' ? HOUR : DAY;
		const sums = new Map<number, number>();
		for (let slot = this.data.fromMs; slot < this.data.toMs; slot += slotMs) {
			if (slot < from || slot > to) continue;
			const period = slot - mod(slot + offsetMinutes * MINUTE, step);
			// Each slot weighs differently, so a period cut short has a different total.
			sums.set(period, (sums.get(period) ?? 0) + 1 + ((slot / slotMs) % 7));
		}
		const periods = [...sums.keys()].sort((a, b) => (query.order_by === '-period' ? b - a : a - b));
		return periods.flatMap((period) =>
			campaigns.map((campaign) => ({
				period_date: formatIn(period, offsetMinutes, !this.quirks.noOffset),
				campaign_id: campaign,
				views: (sums.get(period) as number) * campaign,
			})),
		);
	}

	page(body: IDataObject): StatsPage {
		this.bodies.push(body);
		let state;
		if (typeof body.cursor === 'string') {
			state = this.cursors.get(body.cursor);
			if (!state) throw httpError(400, { detail: 'unknown cursor' });
		} else {
			if (this.quirks.refuse?.(body)) throw httpError(400, { detail: 'refused for the test' });
			const span = Date.parse(String(body.period_to)) - Date.parse(String(body.period_from));
			if (this.data.unit === 'hour' && span > 2 * DAY)
				throw httpError(400, { detail: 'at most 2 days' });
			state = { rows: this.rowsFor(body), offset: 0, limit: Number(body.limit ?? 500) };
		}
		const rows = state.rows.slice(state.offset, state.offset + state.limit);
		const offset = state.offset + rows.length;
		let cursor: string | null = null;
		if (offset < state.rows.length) {
			cursor = `c${++this.cursorCount}`;
			this.cursors.set(cursor, { ...state, offset });
		}
		return {
			columns: [{ name: 'period_date' }, { name: 'campaign_id' }, { name: 'views' }],
			rows,
			...(this.quirks.noCount ? {} : { count: state.rows.length + (this.quirks.countOffBy ?? 0) }),
			cursor,
		};
	}

	/** A context whose request helper asks this API, one event-loop turn per answer. */
	context() {
		return fakeContext(async (options) => {
			const body = JSON.parse(String(options.body)) as IDataObject;
			this.inFlight++;
			this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
			try {
				await new Promise((resolve) => setImmediate(resolve));
				return fullResponse(this.page(body));
			} finally {
				this.inFlight--;
			}
		});
	}

	/** The first requests of each query (not a cursor continuation). */
	queries(): IDataObject[] {
		return this.bodies.filter((body) => body.cursor === undefined);
	}
}

/** Runs fetchStats and collects what it hands on. */
async function pull(
	api: FakeStatsApi,
	query: StatsQuery,
	options: Omit<StatsFetch, 'onRows'> = {},
) {
	const fake = api.context();
	const rows: IDataObject[] = [];
	const pages: StatsPage[] = [];
	const result = await fetchStats.call(fake.ctx, query, {
		...options,
		onRows: (out, page) => {
			rows.push(...out);
			pages.push(page);
		},
	});
	return { rows, pages, result, fake };
}

const NOV_1 = Date.parse('2026-11-01T00:00:00+03:00');

/** 30 days of daily periods in +03:00, three campaigns: 90 rows. */
function monthOfDays(quirks: Quirks = {}): FakeStatsApi {
	return new FakeStatsApi(
		{
			unit: 'day',
			offsetMinutes: 180,
			campaigns: [1, 2, 3],
			slotMs: 6 * HOUR,
			fromMs: NOV_1,
			toMs: NOV_1 + 30 * DAY,
		},
		quirks,
	);
}

const monthQuery: StatsQuery = {
	period_from: '2026-11-01T00:00:00+03:00',
	period_to: '2026-11-30T23:59:59+03:00',
	period_grouping_unit: 'day',
	grouping: ['campaign'],
	currency_code: 'EUR',
	order_by: 'period',
};

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

describe("fetchStatsWindow: the trigger's window", () => {
	const NOW = new Date('2026-11-10T12:00:00.000Z');
	const windowFrom = Date.parse('2026-11-06T00:00:00.000Z');

	/** Hours in +05:30 (so they start at half past in UTC), two campaigns. */
	function hoursApi(): FakeStatsApi {
		return new FakeStatsApi({
			unit: 'hour',
			offsetMinutes: 330,
			campaigns: [4, 9],
			slotMs: 5 * MINUTE,
			fromMs: windowFrom - DAY,
			toMs: NOW.getTime(),
		});
	}

	const hourQuery: StatsQuery = {
		period_from: '',
		period_to: '',
		period_grouping_unit: 'hour',
		grouping: ['campaign'],
		order_by: 'period',
	};

	test("a fine unit is fetched in pieces of at most 2 days, each cut where one of the API's periods starts", async () => {
		const api = hoursApi();
		const fake = api.context();
		const rows = await fetchStatsWindow.call(
			fake.ctx,
			hourQuery,
			{ fromMs: windowFrom, toMs: NOW.getTime(), now: NOW },
			{ parallel: 1 },
		);
		expect(api.queries().map((body) => [body.period_from, body.period_to])).toEqual([
			['2026-11-06T00:00:00.000Z', '2026-11-07T23:59:59.999Z'],
			// The hour that held the first piece's end (23:30 UTC is 05:00 at +05:30) goes whole into the next piece.
			['2026-11-07T23:30:00.000Z', '2026-11-09T23:29:59.999Z'],
			['2026-11-09T23:30:00.000Z', '2026-11-10T12:00:00.000Z'],
		]);
		// The same rows as one request for the whole window would give: no period split, none twice.
		const whole = api.rowsFor({
			...hourQuery,
			period_from: new Date(windowFrom).toISOString(),
			period_to: NOW.toISOString(),
		});
		expect(rows).toEqual(whole);
		expect(
			new Set(rows.map((row) => `${String(row.period_date)}/${String(row.campaign_id)}`)).size,
		).toBe(rows.length);
	});

	test('the pieces may be pulled in parallel parts too, with the same rows', async () => {
		const api = hoursApi();
		const rows = await fetchStatsWindow.call(
			api.context().ctx,
			hourQuery,
			{ fromMs: windowFrom, toMs: NOW.getTime(), now: NOW },
			{ pageSize: 20 },
		);
		const whole = api.rowsFor({
			...hourQuery,
			period_from: new Date(windowFrom).toISOString(),
			period_to: NOW.toISOString(),
		});
		expect(rows).toEqual(whole);
	});

	test('a unit of a day or longer is fetched in one query for the whole window', async () => {
		const api = monthOfDays();
		const fromMs = NOV_1;
		const toMs = NOV_1 + 20 * DAY;
		const rows = await fetchStatsWindow.call(
			api.context().ctx,
			{ ...monthQuery },
			{ fromMs, toMs, now: new Date(toMs) },
			{ parallel: 1 },
		);
		expect(api.queries()).toHaveLength(1);
		expect(api.queries()[0]).toMatchObject({
			period_from: new Date(fromMs).toISOString(),
			period_to: new Date(toMs).toISOString(),
		});
		expect(rows).toHaveLength(3 * 21);
	});

	test('a window reaching further back than the fine unit allows is refused before anything is sent', async () => {
		const api = hoursApi();
		const fake = api.context();
		const error = await fetchStatsWindow
			.call(
				fake.ctx,
				hourQuery,
				{ fromMs: NOW.getTime() - 6 * DAY, toMs: NOW.getTime(), now: NOW },
				{ itemIndex: 3 },
			)
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toMatch(
			/^Period From: with the unit "hour" data exists only for the last 5 days/,
		);
		expect((error as NodeOperationError).context.itemIndex).toBe(3);
		expect(fake.request).not.toHaveBeenCalled();
	});

	// Known defect, reported: without an offset in period_date no clock is learned, so the pieces
	// are cut every 2 days wherever that falls, and the period holding each cut comes back twice,
	// as two partial rows (here 05:00 on Nov 8 and on Nov 10).
	test.failing('period dates without an offset: still no period twice', async () => {
		const api = new FakeStatsApi(
			{
				unit: 'hour',
				offsetMinutes: 330,
				campaigns: [4],
				slotMs: 5 * MINUTE,
				fromMs: windowFrom - DAY,
				toMs: NOW.getTime(),
			},
			{ noOffset: true },
		);
		const rows = await fetchStatsWindow.call(
			api.context().ctx,
			hourQuery,
			{ fromMs: windowFrom, toMs: NOW.getTime(), now: NOW },
			{ parallel: 1 },
		);
		const periods = rows.map((row) => String(row.period_date));
		expect(periods.filter((period, i) => periods.indexOf(period) !== i)).toEqual([]);
	});

	test('an empty window sends nothing', async () => {
		const api = hoursApi();
		const fake = api.context();
		await expect(
			fetchStatsWindow.call(fake.ctx, hourQuery, {
				fromMs: NOW.getTime(),
				toMs: NOW.getTime(),
				now: NOW,
			}),
		).resolves.toEqual([]);
		expect(fake.request).not.toHaveBeenCalled();
	});
});
