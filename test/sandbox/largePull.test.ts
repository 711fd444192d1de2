import { apiClient, TEST_NOW } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

describe('a 100,000-row pull (the benchmark workload)', () => {
	const sandbox = useSandbox({ platform: 'ext', now: TEST_NOW });
	const base = apiClient(sandbox, 'base');

	test('grouping by ad over ~4 months pages through 100,000+ rows, each exactly once', async () => {
		const body = {
			period_from: '2025-11-10',
			period_to: '2026-03-09',
			period_grouping_unit: 'day',
			grouping: ['ad'],
		};
		const first = await base.post('/api/v1/stats/page', { json: body });
		expect(first.status).toBe(200);
		const count: number = first.body.count;
		expect(count).toBeGreaterThanOrEqual(100_000);
		const seen = new Set<string>();
		const add = (rows: { period_date: string; ad_id: number }[]) => {
			for (const row of rows) seen.add(`${row.period_date}|${row.ad_id}`);
		};
		add(first.body.rows);
		let cursor: string | null = first.body.cursor;
		let pages = 1;
		const handlerBefore = sandbox().data.handlerTimeMs;
		while (cursor !== null) {
			const next = await base.post('/api/v1/stats/page', { json: { cursor } });
			expect(next.status).toBe(200);
			expect(next.body.rows.length).toBeLessThanOrEqual(500);
			add(next.body.rows);
			cursor = next.body.cursor;
			pages += 1;
		}
		expect(pages).toBe(Math.ceil(count / 500));
		expect(seen.size).toBe(count);
		expect(sandbox().data.handlerTimeMs).toBeGreaterThan(handlerBefore);
	});
});
