import { EUR_RATES } from '../../sandbox/data/currencies';
import { apiClient, TEST_NOW } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

const DAY = { period_from: '2026-03-01', period_to: '2026-03-02', period_grouping_unit: 'day' };

describe('statistics validation, currency and filters', () => {
	const sandbox = useSandbox({ platform: 'ext', now: TEST_NOW, adCount: 200 });
	const base = apiClient(sandbox, 'base');
	const page = (json: unknown) => base.post('/api/v1/stats/page', { json });

	async function expect400(body: unknown, field: string, text?: string) {
		const response = await page(body);
		expect(response.status).toBe(400);
		expect(response.body.errors).toHaveProperty(field);
		expect(response.body.detail).toContain(field);
		if (text) expect(response.body.detail).toContain(text);
	}

	test('period_from, period_to and period_grouping_unit are required', async () => {
		await expect400(
			{ period_to: '2026-03-02', period_grouping_unit: 'day' },
			'period_from',
			'required',
		);
		await expect400(
			{ period_from: '2026-03-01', period_grouping_unit: 'day' },
			'period_to',
			'required',
		);
		await expect400(
			{ period_from: '2026-03-01', period_to: '2026-03-02' },
			'period_grouping_unit',
			'required',
		);
	});

	test('dates must be ISO 8601', async () => {
		await expect400({ ...DAY, period_from: '01.03.2026' }, 'period_from', 'ISO 8601');
		await expect400({ ...DAY, period_to: '2026-02-30' }, 'period_to', 'ISO 8601');
		await expect400({ ...DAY, period_to: 20260302 }, 'period_to');
		expect((await page({ ...DAY, period_from: '2026-03-01T00:00:00+03:00' })).status).toBe(200);
		expect((await page({ ...DAY, period_to: '2026-03-02T10:00:00.000Z' })).status).toBe(200);
	});

	test('period_from after period_to is refused', async () => {
		await expect400({ ...DAY, period_from: '2026-03-03' }, 'period_from', 'after period_to');
	});

	test('unknown unit, grouping value, currency, order and field are refused', async () => {
		await expect400(
			{ ...DAY, period_grouping_unit: 'quarter' },
			'period_grouping_unit',
			'5_minutes',
		);
		await expect400({ ...DAY, grouping: ['ad', 'country'] }, 'grouping', '"country"');
		await expect400({ ...DAY, grouping: 'ad' }, 'grouping', 'array');
		await expect400({ ...DAY, currency_code: 'GBP' }, 'currency_code', 'STAR');
		await expect400({ ...DAY, order_by: 'date' }, 'order_by', '-period');
		await expect400({ ...DAY, platform_cabinet_ids: [100001] }, 'platform_cabinet_ids', 'strings');
		await expect400({ ...DAY, offset: 10 }, 'offset', 'unknown field');
	});

	describe.each(['hour', '30_minutes', '5_minutes'])('sub-day unit %s', (unit) => {
		test('period_from more than 5 days back is refused', async () => {
			await expect400(
				{
					period_from: '2026-03-05T12:00:00Z',
					period_to: '2026-03-06T12:00:00Z',
					period_grouping_unit: unit,
				},
				'period_from',
				'last 5 days',
			);
		});

		test('a span over 2 days is refused', async () => {
			await expect400(
				{
					period_from: '2026-03-07T00:00:00Z',
					period_to: '2026-03-09T00:00:01Z',
					period_grouping_unit: unit,
				},
				'period_to',
				'2 days',
			);
		});

		test('exactly 2 days within the last 5 days is accepted', async () => {
			const response = await page({
				period_from: '2026-03-05T12:34:00Z',
				period_to: '2026-03-07T12:34:00Z',
				period_grouping_unit: unit,
			});
			expect(response.status).toBe(200);
			expect(response.body.count).toBeGreaterThan(0);
		});
	});

	test('day units are not limited to 5 days', async () => {
		expect(
			(
				await page({
					period_from: '2025-06-01',
					period_to: '2025-09-01',
					period_grouping_unit: 'day',
				})
			).status,
		).toBe(200);
	});

	test('sub-day periods split evenly: 12 five-minute rows sum to their hour', async () => {
		const window = { period_from: '2026-03-09T10:00:00Z', period_to: '2026-03-09T10:59:59Z' };
		const hour = sandbox().data.statsRows({ ...window, period_grouping_unit: 'hour' });
		const halves = sandbox().data.statsRows({ ...window, period_grouping_unit: '30_minutes' });
		const slots = sandbox().data.statsRows({ ...window, period_grouping_unit: '5_minutes' });
		expect(hour).toHaveLength(1);
		expect(halves.map((r) => r.period_date)).toEqual([
			'2026-03-09T10:00:00Z',
			'2026-03-09T10:30:00Z',
		]);
		expect(slots).toHaveLength(12);
		for (const key of ['views', 'clicks', 'actions', 'video_opens']) {
			const sum = (rows: Record<string, unknown>[]) =>
				rows.reduce((s, r) => s + (r[key] as number), 0);
			expect(sum(halves)).toBe(hour[0][key]);
			expect(sum(slots)).toBe(hour[0][key]);
		}
	});

	test('currency_code converts exchanged_spent with the fixed rates; original_* stay in the cabinet currency', async () => {
		const body = { ...DAY, grouping: ['cabinet'], platform_cabinet_ids: ['100003'] };
		const eur = (await page(body)).body.rows;
		const usd = (await page({ ...body, currency_code: 'USD' })).body.rows;
		expect(eur.length).toBeGreaterThan(0);
		eur.forEach((row: Record<string, string>, i: number) => {
			expect(row.original_currency).toBe('RUB');
			expect(row.exchange_currency).toBe('EUR');
			expect(usd[i].exchange_currency).toBe('USD');
			expect(usd[i].original_spent).toBe(row.original_spent);
			expect(Number(row.exchanged_spent)).toBeCloseTo(
				Number(row.original_spent) / EUR_RATES.RUB,
				1,
			);
			expect(Number(usd[i].exchanged_spent)).toBeCloseTo(
				(Number(row.original_spent) / EUR_RATES.RUB) * EUR_RATES.USD,
				1,
			);
		});
		const defaulted = (await page({ ...DAY })).body.rows[0];
		expect(defaulted.exchange_currency).toBe('EUR');
	});

	test('a row mixing cabinet currencies reports the exchange currency as original', async () => {
		const rows = (await page({ ...DAY, currency_code: 'TON' })).body.rows;
		for (const row of rows) {
			expect(row.original_currency).toBe('TON');
			expect(row.original_spent).toBe(row.exchanged_spent);
		}
	});

	test('platform_cabinet_ids and ad_objects filter rows', async () => {
		const data = sandbox().data;
		const all = data.statsRows({ ...DAY, grouping: ['cabinet', 'ad_object'] });
		const one = data.statsRows({
			...DAY,
			grouping: ['cabinet', 'ad_object'],
			platform_cabinet_ids: ['100002'],
		});
		expect(one.length).toBeGreaterThan(0);
		expect(one).toEqual(all.filter((r) => r.platform_cabinet_id === '100002'));
		const object = one[0].ad_object as string;
		const byObject = (await page({ ...DAY, grouping: ['ad_object'], ad_objects: [object] })).body
			.rows;
		expect(byObject.map((r: { ad_object: string }) => r.ad_object)).toEqual(
			byObject.map(() => object),
		);
		const none = (await page({ ...DAY, platform_cabinet_ids: ['100004'] })).body;
		expect(none).toMatchObject({ rows: [], count: 0, cursor: null });
	});
});
