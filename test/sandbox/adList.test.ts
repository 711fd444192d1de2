import { apiClient, TEST_NOW } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

const PATH = '/api/v2/advertisement/';
const ITEM_TYPES: Record<string, string> = {
	account_name: 'string',
	ad_text: 'string',
	ad_type: 'string',
	advertisement_title: 'string',
	balance: 'number',
	campaign_id: 'number',
	campaign_name: 'string',
	clicks: 'number',
	cpc: 'number',
	cpm: 'number',
	cps: 'number',
	created_dt: 'string',
	ctr: 'number',
	cvr: 'number',
	goals: 'number',
	id: 'number',
	impressions: 'number',
	object: 'string',
	spent: 'number',
	status: 'string',
	status_updated_dt: 'string',
};

describe('ad list', () => {
	const sandbox = useSandbox({ platform: 'ext', now: TEST_NOW, adCount: 700 });
	const base = apiClient(sandbox, 'base');
	const list = async (query: Record<string, string | number | (string | number)[]> = {}) => {
		const response = await base.get(PATH, { query });
		expect(response.status).toBe(200);
		return response.body.data as Record<string, unknown>[];
	};
	const visible = () =>
		sandbox()
			.data.ads.filter((ad) => ad.status !== 'deleted')
			.map((ad) => ad.id);

	test('items carry every list item field with its type', async () => {
		const items = await list({ limit: 20 });
		for (const item of items) {
			expect(Object.keys(item).sort()).toEqual(
				[...Object.keys(ITEM_TYPES), 'action_type', 'kktu_codes', 'opened', 'target_topics'].sort(),
			);
			for (const [key, type] of Object.entries(ITEM_TYPES)) expect(typeof item[key]).toBe(type);
			expect(item.created_dt).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$/);
			expect(item.status_updated_dt).toMatch(
				/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/,
			);
			expect(item.kktu_codes).toEqual([expect.stringMatching(/^\d+\.\d+\.\d+$/)]);
			expect(['active', 'stopped']).toContain(item.status);
		}
	});

	test('default: offset 0, limit 50, ordered by id, deleted ads hidden', async () => {
		const items = await list();
		expect(items.map((i) => i.id)).toEqual(visible().slice(0, 50));
	});

	test('offset and limit page through the list; limit caps at 500', async () => {
		expect((await list({ offset: 50, limit: 30 })).map((i) => i.id)).toEqual(
			visible().slice(50, 80),
		);
		expect(await list({ limit: 500 })).toHaveLength(500);
		for (const limit of ['501', '0', 'ten']) {
			const response = await base.get(PATH, { query: { limit } });
			expect(response.status).toBe(400);
			expect(response.body.errors).toHaveProperty('limit');
			expect(response.body.detail).toContain('500');
		}
		const negative = await base.get(PATH, { query: { offset: -1 } });
		expect(negative.status).toBe(400);
		expect(negative.body.errors).toHaveProperty('offset');
	});

	test('show_deleted includes deleted ads (true/1), excludes them by default (false/0)', async () => {
		const all = sandbox().data.ads.map((ad) => ad.id);
		expect(all.length).toBeGreaterThan(visible().length);
		for (const value of ['true', '1']) {
			expect((await list({ show_deleted: value, limit: 500, offset: 0 })).map((i) => i.id)).toEqual(
				all.slice(0, 500),
			);
		}
		for (const value of ['false', '0']) {
			expect((await list({ show_deleted: value, limit: 500 })).map((i) => i.id)).toEqual(
				visible().slice(0, 500),
			);
		}
		const bad = await base.get(PATH, { query: { show_deleted: 'yes' } });
		expect(bad.status).toBe(400);
		expect(bad.body.errors).toHaveProperty('show_deleted');
	});

	test('period filters by creation time relative to the clock (UTC)', async () => {
		const now = sandbox().clock.now().getTime();
		const today = Math.floor(now / 86_400_000) * 86_400_000;
		const ads = sandbox().data.ads.filter((ad) => ad.status !== 'deleted');
		const ids = (from: number, to: number) =>
			ads.filter((ad) => ad.createdAt >= from && ad.createdAt <= to).map((ad) => ad.id);
		const expectedToday = ids(today, now);
		const expectedYesterday = ids(today - 86_400_000, today - 1);
		expect(expectedToday.length).toBeGreaterThan(0);
		expect(expectedYesterday.length).toBeGreaterThan(0);
		expect((await list({ period: 'today', limit: 500 })).map((i) => i.id)).toEqual(expectedToday);
		expect((await list({ period: 'yesterday', limit: 500 })).map((i) => i.id)).toEqual(
			expectedYesterday,
		);
		expect((await list({ period: 'starts_month', limit: 500 })).map((i) => i.id)).toEqual(
			ids(Date.UTC(2026, 2, 1), now),
		);
		const bad = await base.get(PATH, { query: { period: 'last_week' } });
		expect(bad.status).toBe(400);
		expect(bad.body.detail).toContain('period');
	});

	test('advertisement_titles and campaign_names: repeated or comma-separated, exact match', async () => {
		const [a, b] = sandbox().data.ads;
		const repeated = await list({ advertisement_titles: [a.fields.title, b.fields.title] });
		expect(repeated.map((i) => i.id)).toEqual([a.id, b.id]);
		const comma = await list({ advertisement_titles: `${a.fields.title},${b.fields.title}` });
		expect(comma.map((i) => i.id)).toEqual([a.id, b.id]);
		expect(await list({ advertisement_titles: a.fields.title.slice(0, 5) })).toEqual([]);
		const byCampaign = await list({
			campaign_names: ['Berlin Black Friday', 'Kazan Events'],
			limit: 500,
		});
		expect(byCampaign.length).toBeGreaterThan(0);
		expect(new Set(byCampaign.map((i) => i.campaign_id))).toEqual(new Set([2201, 2303]));
	});

	test('lifetime metrics are consistent with each other', async () => {
		for (const item of await list({ limit: 30 })) {
			const impressions = item.impressions as number;
			expect(item.clicks as number).toBeLessThanOrEqual(impressions);
			if (impressions > 0)
				expect(item.cpm).toBeCloseTo(((item.spent as number) / impressions) * 1000, 1);
			expect(item.balance).toBeGreaterThanOrEqual(0);
		}
	});

	test('unknown query parameters are refused', async () => {
		const response = await base.get(PATH, { query: { page: 2 } });
		expect(response.status).toBe(400);
		expect(response.body.errors).toHaveProperty('page');
	});
});
