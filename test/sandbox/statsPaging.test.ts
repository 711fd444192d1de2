import { apiClient, TEST_NOW } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

const BODY = {
	period_from: '2026-02-01',
	period_to: '2026-02-07',
	period_grouping_unit: 'day',
	grouping: ['ad'],
};

describe('statistics paging: cursor to null, next pages by cursor alone, limit at most 500', () => {
	const sandbox = useSandbox({ platform: 'ext', now: TEST_NOW, adCount: 300 });
	const base = apiClient(sandbox, 'base');
	const page = (json: unknown) => base.post('/api/v1/stats/page', { json });

	test('cursor-only next bodies walk every row exactly once; the last cursor is null', async () => {
		const truth = sandbox().data.statsRows(BODY);
		expect(truth.length).toBeGreaterThan(1000);
		const first = await page({ ...BODY, limit: 300 });
		expect(first.status).toBe(200);
		expect(first.body.count).toBe(truth.length);
		const rows = [...first.body.rows];
		let cursor: string | null = first.body.cursor;
		let pages = 1;
		while (cursor !== null) {
			expect(JSON.parse(Buffer.from(cursor, 'base64').toString('utf8'))).toBeInstanceOf(Object);
			const next = await page({ cursor });
			expect(next.status).toBe(200);
			expect(next.body.count).toBe(truth.length);
			rows.push(...next.body.rows);
			cursor = next.body.cursor;
			pages += 1;
		}
		expect(pages).toBe(Math.ceil(truth.length / 300));
		expect(rows).toEqual(truth);
		const ids = rows.map((r) => `${r.period_date}|${r.ad_id}`);
		expect(new Set(ids).size).toBe(ids.length);
	});

	test('limit defaults to 500 and may not exceed 500 or go below 1', async () => {
		const first = await page(BODY);
		expect(first.body.rows).toHaveLength(500);
		expect(first.body.cursor).not.toBeNull();
		const max = await page({ ...BODY, limit: 500 });
		expect(max.body.rows).toHaveLength(500);
		for (const limit of [501, 0, -1, 2.5, '100']) {
			const response = await page({ ...BODY, limit });
			expect(response.status).toBe(400);
			expect(response.body.errors).toHaveProperty('limit');
			expect(response.body.detail).toContain('limit');
		}
	});

	test('the other parameters may repeat the cursor query, but not differ from it', async () => {
		const first = await page({ ...BODY, limit: 100 });
		const same = await page({ ...BODY, limit: 100, cursor: first.body.cursor });
		expect(same.status).toBe(200);
		expect(same.body.rows[0]).toEqual(sandbox().data.statsRows(BODY)[100]);
		const different = await page({
			...BODY,
			period_to: '2026-02-06',
			limit: 100,
			cursor: first.body.cursor,
		});
		expect(different.status).toBe(400);
		expect(different.body.errors).toHaveProperty('period_to');
		expect(different.body.detail).toContain('cursor');
	});

	test('an invalid cursor is a 400 naming cursor', async () => {
		for (const cursor of ['not-a-cursor', Buffer.from('{"v":1}').toString('base64'), 42]) {
			const response = await page({ cursor });
			expect(response.status).toBe(400);
			expect(response.body.errors).toHaveProperty('cursor');
		}
	});

	test('-period sorts periods descending; rows within a period keep the key order', async () => {
		const asc = sandbox().data.statsRows({ ...BODY, order_by: 'period' });
		const desc = sandbox().data.statsRows({ ...BODY, order_by: '-period' });
		const dates = desc.map((r) => r.period_date as string);
		expect(dates[0]).toBe('2026-02-07T00:00:00Z');
		expect([...dates].sort().reverse()).toEqual(dates);
		const lastDayAsc = asc.filter((r) => r.period_date === '2026-02-07T00:00:00Z');
		expect(desc.slice(0, lastDayAsc.length)).toEqual(lastDayAsc);
		const response = await page({ ...BODY, order_by: '-period', limit: 5 });
		expect(response.body.rows).toEqual(desc.slice(0, 5));
	});

	test('a cursor keeps serving the instant of its first page, even when the clock moves', async () => {
		const sb = sandbox();
		const body = {
			period_from: '2026-03-10',
			period_to: '2026-03-10',
			period_grouping_unit: 'day',
			grouping: ['ad'],
			limit: 50,
		};
		const first = await page(body);
		const before = sb.data.statsRows(body);
		sb.clock.advance(60 * 60_000);
		try {
			const second = await page({ cursor: first.body.cursor });
			expect(second.body.count).toBe(first.body.count);
			expect(second.body.rows).toEqual(before.slice(50, 100));
			const fresh = await page(body);
			expect(fresh.body.rows[0].views).toBeGreaterThan(first.body.rows[0].views);
		} finally {
			sb.clock.set('2026-03-10T12:34:00Z');
		}
	});
});
