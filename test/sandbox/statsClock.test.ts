import { apiClient } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

const TODAY = { period_from: '2026-03-10', period_to: '2026-03-10', period_grouping_unit: 'day' };

describe('the clock and the open period', () => {
	const sandbox = useSandbox({ platform: 'ext', adCount: 150, now: '2026-03-10T12:00:00Z' });
	const base = apiClient(sandbox, 'base');
	const page = (json: unknown) => base.post('/api/v1/stats/page', { json });

	afterEach(() => sandbox().clock.set('2026-03-10T12:00:00Z'));

	test('the period containing now is partial and grows as the clock advances', async () => {
		const before = (await page(TODAY)).body.rows[0];
		sandbox().clock.advance(2 * 60 * 60_000);
		const after = (await page(TODAY)).body.rows[0];
		expect(after.period_date).toBe(before.period_date);
		expect(after.views).toBeGreaterThan(before.views);
		expect(Number(after.exchanged_spent)).toBeGreaterThan(Number(before.exchanged_spent));
	});

	test('only completed 5-minute slots count: less than 5 minutes later nothing changed', async () => {
		const before = (await page(TODAY)).body.rows[0];
		sandbox().clock.advance(4 * 60_000);
		expect((await page(TODAY)).body.rows[0]).toEqual(before);
		sandbox().clock.advance(60_000);
		expect((await page(TODAY)).body.rows[0].views).toBeGreaterThan(before.views);
	});

	test('nothing exists after now', async () => {
		const hours = (
			await page({
				period_from: '2026-03-10T00:00:00Z',
				period_to: '2026-03-11T00:00:00Z',
				period_grouping_unit: 'hour',
			})
		).body.rows;
		expect(hours.at(-1).period_date).toBe('2026-03-10T11:00:00Z');
		const tomorrow = await page({
			period_from: '2026-03-11',
			period_to: '2026-03-12',
			period_grouping_unit: 'day',
		});
		expect(tomorrow.body).toMatchObject({ rows: [], count: 0, cursor: null });
	});

	test('setting the clock back hides what happened after the new now', async () => {
		const full = (await page(TODAY)).body.rows[0];
		sandbox().clock.set('2026-03-10T06:00:00Z');
		const earlier = (await page(TODAY)).body.rows[0];
		expect(earlier.views).toBeLessThan(full.views);
		expect(sandbox().data.statsRows(TODAY)[0]).toEqual(earlier);
	});

	test("a closed day's numbers no longer change", async () => {
		const yesterday = {
			period_from: '2026-03-09',
			period_to: '2026-03-09',
			period_grouping_unit: 'day',
		};
		const before = (await page(yesterday)).body.rows;
		sandbox().clock.advance(24 * 60 * 60_000);
		expect((await page(yesterday)).body.rows).toEqual(before);
	});

	test('a real clock ticks with wall time', async () => {
		const { Sandbox } = await import('../../sandbox/index');
		const ticking = await Sandbox.start({
			platform: 'ext',
			clock: 'real',
			now: '2026-01-01T00:00:00Z',
			adCount: 1,
		});
		try {
			const start = ticking.clock.now().getTime();
			await new Promise((resolve) => setTimeout(resolve, 30));
			expect(ticking.clock.now().getTime()).toBeGreaterThanOrEqual(start + 25);
			ticking.clock.set('2027-01-01T00:00:00Z');
			expect(ticking.clock.now().getTime()).toBeGreaterThanOrEqual(
				Date.parse('2027-01-01T00:00:00Z'),
			);
		} finally {
			await ticking.stop();
		}
	});

	test('the default clock is the current time rounded down to the minute', async () => {
		const { Sandbox } = await import('../../sandbox/index');
		const before = Date.now();
		const fresh = await Sandbox.start({ platform: 'ext', adCount: 1 });
		try {
			const now = fresh.clock.now().getTime();
			expect(now % 60_000).toBe(0);
			expect(now).toBeLessThanOrEqual(Date.now());
			expect(now).toBeGreaterThan(before - 60_000);
		} finally {
			await fresh.stop();
		}
	});
});
