import { limitHint, pacingHint } from '../../../../nodes/shared/stats/hints';

describe('limitHint: says when Limit cut rows the API still had', () => {
	test('names the count when the API gave one', () => {
		const hint = limitHint(50, 50, 120, { delivered: 50, received: 50, cursor: null }, 0, 1);
		expect(hint?.message).toBe(
			'Limit stopped the output at 50 of the 120 rows the API has for this query. Turn on Return All, or raise Limit, to get every row.',
		);
		expect(hint?.location).toBe('outputPane');
	});

	test('a cursor left, or rows received past the cut, mean more rows; the item is named when there are several', () => {
		expect(
			limitHint(10, 10, undefined, { delivered: 10, received: 10, cursor: 'c2' }, 2, 3)?.message,
		).toBe(
			'Limit stopped the output at 10 rows; the API has more for this query (input item 2). Turn on Return All, or raise Limit, to get every row.',
		);
		expect(limitHint(10, 10, undefined, { delivered: 10, received: 40 }, 0, 1)).toBeDefined();
	});

	test('no hint when the output is complete, below Limit, or Return All is on', () => {
		expect(
			limitHint(50, 50, 50, { delivered: 50, received: 50, cursor: null }, 0, 1),
		).toBeUndefined();
		expect(
			limitHint(50, 20, 120, { delivered: 20, received: 20, cursor: 'c' }, 0, 1),
		).toBeUndefined();
		expect(
			limitHint(Infinity, 500, 900, { delivered: 500, received: 500, cursor: 'c' }, 0, 1),
		).toBeUndefined();
		expect(limitHint(50, 50, 120, undefined, 0, 1)).toBeUndefined();
	});
});

describe('pacingHint: a pull slowed by the rate limit says how long and why', () => {
	const limit = { requests: 10, windowMs: 60_000 };

	test('states the limit, the pages, the time in words and how many waited', () => {
		expect(pacingHint({ pages: 25, pacedRequests: 15 }, 130_000, limit)?.message).toBe(
			'The API allows 10 requests per 60 s for each address (Rate Limit in the credential), so these 25 pages took 2 min 10 s; 15 of them waited for their turn. A shorter period, or fewer runs sharing the account, makes it faster.',
		);
		expect(pacingHint({ pages: 12, pacedRequests: 2 }, 45_000, limit)?.message).toContain(
			'took 45 s',
		);
	});

	test('no hint without pacing, without a wait, or for a pull under 10 seconds', () => {
		expect(pacingHint({ pages: 25, pacedRequests: 15 }, 130_000, undefined)).toBeUndefined();
		expect(pacingHint({ pages: 25, pacedRequests: 0 }, 130_000, limit)).toBeUndefined();
		expect(pacingHint({ pages: 3, pacedRequests: 1 }, 9_999, limit)).toBeUndefined();
	});
});
