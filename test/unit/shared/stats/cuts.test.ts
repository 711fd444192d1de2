import type { IDataObject } from 'n8n-workflow';
import { viewOf } from '../../../../nodes/shared/auth';
import { CursorChain, type Run, type StatsPage } from '../../../../nodes/shared/stats/cursor';
import {
	partsOf,
	periodReader,
	planCuts,
	startOrder,
	takeRows,
	type Part,
} from '../../../../nodes/shared/stats/cuts';
import type { StatsQuery } from '../../../../nodes/shared/stats/query';
import { RequestGate } from '../../../../nodes/shared/transport/gate';
import { NEWEST_FIRST } from '../../../../nodes/shared/vocabulary';
import { credentials, fakeContext, fullResponse } from '../../../support/fakeContext';

/** March in days of a server whose days start at midnight +03:00. */
const MARCH: StatsQuery = {
	period_from: '2026-03-01T00:00:00+03:00',
	period_to: '2026-03-31T23:59:59+03:00',
	period_grouping_unit: 'day',
	limit: 2,
};

const day = (n: number) => `2026-03-${String(n).padStart(2, '0')}T00:00:00+03:00`;
const at = (n: number) => Date.parse(day(n));

/** The first page: two days of one row each, out of `count` rows. */
function firstPage(days: number[], count = 62): StatsPage {
	return { rows: days.map((n) => ({ period_date: day(n), views: n })), count, cursor: 'c1' };
}

function run(): Run {
	const fake = fakeContext(() => fullResponse({ rows: [], cursor: null }));
	return {
		ctx: fake.ctx,
		credentials: viewOf(credentials()),
		options: { onRows: () => undefined },
		gate: new RequestGate(2),
		result: { rowsReceived: 0, pages: 0, parallel: 2, periods: 1, pacedRequests: 0 },
		endsAt: Date.now() + 60_000,
	};
}

describe('planCuts: where the rest of the period is cut', () => {
	test("only at starts of the API's own days, after the days the first page reached, about evenly", () => {
		const plan = planCuts(MARCH, firstPage([1, 2]), 2, 2);
		expect(plan?.cuts.map((ms) => plan.clock.format(ms))).toEqual([
			'2026-03-09T00:00:00.000+03:00',
			'2026-03-17T00:00:00.000+03:00',
			'2026-03-24T00:00:00.000+03:00',
		]);
	});

	test('newest first: the cuts come in the order the rows do, at or before the last day reached', () => {
		const plan = planCuts({ ...MARCH, order_by: NEWEST_FIRST }, firstPage([31, 30]), 2, 2);
		const cuts = plan?.cuts ?? [];
		expect(cuts.length).toBeGreaterThan(1);
		expect([...cuts].sort((a, b) => b - a)).toEqual(cuts);
		expect(cuts[0]).toBeLessThanOrEqual(at(30));
		for (const cut of cuts) expect(plan?.clock.floor(cut)).toBe(cut);
	});

	test('no cut when it would not pay: few rows left, or a single request in flight', () => {
		expect(planCuts(MARCH, firstPage([1, 2], 4), 2, 2)).toBeUndefined();
		expect(planCuts(MARCH, firstPage([1, 2]), 2, 0)).toBeUndefined();
	});

	test('no cut when the dates do not tell where days start (no offset written)', () => {
		const page: StatsPage = { rows: [{ period_date: '2026-03-01 00:00' }], count: 62 };
		expect(planCuts(MARCH, page, 2, 2)).toBeUndefined();
		expect(planCuts(MARCH, { rows: [], count: 62 }, 2, 2)).toBeUndefined();
	});
});

describe('partsOf: each part is a query of its own days', () => {
	test('the first part continues the whole query; the others ask for their days up to the last instant before the next part', () => {
		const r = run();
		const plan = planCuts(MARCH, firstPage([1, 2]), 2, 2);
		if (!plan) throw new Error('a plan was expected');
		const head = new CursorChain(r, MARCH, 2);
		const parts = partsOf(MARCH, plan, head, r, 2);
		expect(parts).toHaveLength(4);
		expect(parts[0].chain).toBe(head);
		expect(parts.map((part) => [part.lo, part.hi])).toEqual([
			[-Infinity, at(9)],
			[at(9), at(17)],
			[at(17), at(24)],
			[at(24), Infinity],
		]);
	});

	test('the requests the parts send carry their own period and the page size', async () => {
		const bodies: IDataObject[] = [];
		const fake = fakeContext((options) => {
			bodies.push(JSON.parse(String(options.body)) as IDataObject);
			return fullResponse({ rows: [], cursor: null });
		});
		const r = { ...run(), ctx: fake.ctx };
		const plan = planCuts(MARCH, firstPage([1, 2]), 2, 2);
		if (!plan) throw new Error('a plan was expected');
		const parts = partsOf(MARCH, plan, new CursorChain(r, MARCH, 2), r, 2);
		for (const part of parts.slice(1)) await part.chain.next();
		expect(bodies.map((body) => [body.period_from, body.period_to, body.limit])).toEqual([
			['2026-03-09T00:00:00.000+03:00', '2026-03-16T23:59:59.999+03:00', 2],
			['2026-03-17T00:00:00.000+03:00', '2026-03-23T23:59:59.999+03:00', 2],
			['2026-03-24T00:00:00.000+03:00', MARCH.period_to, 2],
		]);
	});
});

describe('startOrder: the part that runs on, then the longest parts first', () => {
	const part = (lo: number, hi: number): Part => ({ lo, hi, chain: {} as CursorChain, rows: [] });

	test('the first part leads; the others follow by their days, longest first, ties in row order', () => {
		const parts = [
			part(-Infinity, at(3)),
			part(at(3), at(4)),
			part(at(4), at(8)),
			part(at(8), at(9)),
			part(at(9), at(11)),
			part(at(11), Infinity),
		];
		// The last part runs to the end of the period asked for: March 11 to 31 is the longest.
		expect(startOrder(MARCH, parts)).toEqual([0, 5, 2, 4, 1, 3]);
	});

	test('newest first: the edges are the other way round and the length is the same', () => {
		const parts = [part(at(29), Infinity), part(at(28), at(29)), part(-Infinity, at(28))];
		expect(startOrder({ ...MARCH, order_by: NEWEST_FIRST }, parts)).toEqual([0, 2, 1]);
	});

	test('no parts, no order', () => {
		expect(startOrder(MARCH, [])).toEqual([]);
	});
});

describe("takeRows: a part keeps only its own days' rows", () => {
	const part = (lo: number, hi: number): Part => ({
		lo,
		hi,
		chain: {} as CursorChain,
		rows: [],
	});
	const rows = (...days: number[]) => days.map((n) => ({ period_date: day(n), views: n }));

	test("the whole query's cursor keeps its rows until it passes the part, and keeps the rest aside", () => {
		const head = part(-Infinity, at(9));
		expect(takeRows(head, rows(7, 8, 9, 10), true, false, periodReader())).toBe('done');
		expect(head.rows.map((row) => row.views)).toEqual([7, 8]);
		expect(head.beyond?.map((row) => row.views)).toEqual([9, 10]);
		expect([head.first, head.last]).toEqual([at(7), at(8)]);
	});

	test('a part of its own reads on past its end, and wants more while it has not', () => {
		const middle = part(at(9), at(17));
		expect(takeRows(middle, rows(9, 10), false, false, periodReader())).toBe('more');
		expect(middle.rows).toHaveLength(2);
	});

	test('a row that starts before the part (a day cut in two) or has no date is misaligned', () => {
		expect(takeRows(part(at(9), at(17)), rows(8), false, false, periodReader())).toBe('misaligned');
		expect(
			takeRows(part(at(9), at(17)), [{ period_date: 'soon' }], false, false, periodReader()),
		).toBe('misaligned');
	});

	test('periodReader reads each period_date once for the rows of one period', () => {
		const read = periodReader();
		expect(read({ period_date: day(3) })).toBe(at(3));
		expect(read({ period_date: day(3) })).toBe(at(3));
		expect(Number.isNaN(read({ period_date: 7 }))).toBe(true);
	});
});
