import { NodeApiError, type IDataObject } from 'n8n-workflow';
import { viewOf } from '../../../../nodes/shared/auth';
import {
	CursorChain,
	emit,
	sequential,
	type Run,
	type StatsFetch,
	type StatsPage,
} from '../../../../nodes/shared/stats/cursor';
import { RequestGate } from '../../../../nodes/shared/transport/gate';
import { credentials, fakeContext, fullResponse, type Answer } from '../../../support/fakeContext';

// Retry waits are answered at once.
jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

const QUERY = {
	period_from: '2026-03-01T00:00:00Z',
	period_to: '2026-03-31T23:59:59Z',
	period_grouping_unit: 'day',
	limit: 2,
};

function runWith(answer: Answer, options: Partial<StatsFetch> = {}) {
	const fake = fakeContext(answer);
	const received: IDataObject[][] = [];
	const run: Run = {
		ctx: fake.ctx,
		credentials: viewOf(credentials()),
		options: { onRows: (rows) => received.push(rows), itemIndex: 1, ...options },
		gate: new RequestGate(1),
		result: { rowsReceived: 0, pages: 0, parallel: 1, periods: 1, pacedRequests: 0 },
		endsAt: Date.now() + 60_000,
	};
	const bodies = () => fake.sent().map((sent) => JSON.parse(String(sent.body)) as IDataObject);
	return { fake, run, received, bodies };
}

/** Pages of two rows each, `total` rows in all, each page but the last with the next cursor. */
function pagesOf(total: number): Answer {
	return (_options, call) => {
		const first = (call - 1) * 2;
		const rows = [first, first + 1]
			.filter((n) => n < total)
			.map((n) => ({ period_date: `2026-03-${String(n + 1).padStart(2, '0')}`, views: n }));
		const last = first + 2 >= total;
		return fullResponse({ count: total, rows, cursor: last ? null : `c${call}` });
	};
}

async function stopped(promise: Promise<unknown>): Promise<NodeApiError> {
	const error = await promise.then(
		() => undefined,
		(e: unknown) => e,
	);
	expect(error).toBeInstanceOf(NodeApiError);
	return error as NodeApiError;
}

describe('CursorChain: one query followed page by page', () => {
	test('the first request carries the query to the statistics page path, each next one only the cursor', async () => {
		const { fake, run, received, bodies } = runWith(pagesOf(5));
		await sequential(run, new CursorChain(run, QUERY, 2));
		expect(fake.sent().map((sent) => [sent.method, sent.url])).toEqual(
			Array(3).fill(['POST', 'https://api.example.test/api/v1/stats/page']),
		);
		expect(bodies()).toEqual([QUERY, { cursor: 'c1' }, { cursor: 'c2' }]);
		expect(received.map((rows) => rows.map((row) => row.views))).toEqual([[0, 1], [2, 3], [4]]);
		expect(run.result).toMatchObject({ pages: 3, rowsReceived: 5 });
	});

	test('a null cursor ends the chain: nothing more is asked', async () => {
		const { fake, run } = runWith(pagesOf(2));
		const chain = new CursorChain(run, QUERY, 2);
		expect((await chain.next())?.rows).toHaveLength(2);
		expect(chain.done).toBe(true);
		expect(await chain.next()).toBeUndefined();
		expect(fake.request).toHaveBeenCalledTimes(1);
	});

	test('an empty page that still has a cursor stops the pull with an error that says reading again is safe', async () => {
		const { run } = runWith(() => fullResponse({ count: 4, rows: [], cursor: 'again' }));
		const error = await stopped(sequential(run, new CursorChain(run, QUERY, 2)));
		expect(error.message).toBe(
			'The statistics API answered an empty page that still had a next-page cursor, so paging stopped rather than follow it without end. Try again later or narrow the period. It only reads data, so running it again is safe.',
		);
		expect(error.context.itemIndex).toBe(1);
	});

	test('more pages than the first count needs (plus 5 to spare) stop the pull', async () => {
		// The count says 2 rows, but every page has a new cursor.
		const { fake, run } = runWith((_options, call) =>
			fullResponse({ count: 2, rows: [{ period_date: 'p', views: call }], cursor: `c${call}` }),
		);
		const error = await stopped(sequential(run, new CursorChain(run, QUERY, 2)));
		expect(error.message).toBe(
			'The statistics API kept answering with a next-page cursor after 6 pages, more than its count of 2 rows needs at 2 a page (plus 5 pages to spare), so paging stopped. Try again later or narrow the period. It only reads data, so running it again is safe.',
		);
		expect(fake.request).toHaveBeenCalledTimes(6);
	});
});

describe('emit: rows handed on up to the limit', () => {
	test('Limit cuts the rows that reach the node and says when no more are wanted', () => {
		const { run, received } = runWith(pagesOf(0), { maxRows: 3 });
		const page = (n: number): IDataObject[] => [{ views: n }, { views: n + 1 }];
		expect(emit(run, page(0))).toBe(true);
		expect(emit(run, page(2))).toBe(false);
		expect(emit(run, page(4))).toBe(false);
		expect(received).toEqual([[{ views: 0 }, { views: 1 }], [{ views: 2 }]]);
		expect(run.result.rowsReceived).toBe(3);
	});

	test('sequential stops asking once the limit is reached', async () => {
		const { fake, run, received } = runWith(pagesOf(10), { maxRows: 3 });
		await sequential(run, new CursorChain(run, QUERY, 2));
		expect(fake.request).toHaveBeenCalledTimes(2);
		expect(received.flat()).toHaveLength(3);
	});

	test('a page is passed on with its rows as the API answered them', () => {
		const { run } = runWith(pagesOf(0));
		const seen: StatsPage[] = [];
		run.options.onRows = (_rows, page) => seen.push(page);
		const page: StatsPage = { rows: [{ views: 1 }], cursor: 'c9', count: 1 };
		emit(run, page.rows, page);
		expect(seen).toEqual([page]);
	});
});
