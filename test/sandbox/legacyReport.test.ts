import { apiClient, TEST_NOW } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

/** These tests run the spec's form (platform 'ext'). */
const PLATFORM = 'ext';

const PATH = `/api/report/${PLATFORM}view`;
const BODY = {
	date: { date_from: '2026-03-01', date_to: '2026-03-03' },
	platform: [10],
	partner: [2],
	campaign: [],
	group_time: 1,
	groupings: [{ name: 'date', type: 1 }, { name: 'campaign' }, { name: 'account', type: 1 }],
	object: [],
	sub_client: [],
	type_cab: null,
	currency: 'RUB',
	account_uids: [],
};

const FIELD_TYPES: Record<string, string> = {
	account_name: 'string',
	account_uid: 'string',
	ad_id: 'number',
	ad_text: 'string',
	ad_type: 'string',
	campaign_plat: 'string',
	clicks: 'number',
	cpc: 'number',
	cpm: 'number',
	ctr: 'number',
	cvr: 'number',
	date: 'string',
	goals: 'number',
	impressions: 'number',
	object: 'string',
	price_target: 'number',
	promote_url: 'string',
	spent: 'number',
	unit: 'number',
	website_name: 'string',
};
const LISTS = [
	'target_bots',
	'target_channels',
	'target_countries',
	'target_langs',
	'target_search',
	'target_topics',
	'target_user_channels',
	'target_user_locations',
];
const NULLABLE = ['action_type', 'button_type', 'opened'];

describe('legacy report and advertised objects', () => {
	const sandbox = useSandbox({ platform: 'ext', now: TEST_NOW, adCount: 150 });
	const base = apiClient(sandbox, 'base');

	test('by ad and account: every result field with its type, numbers not strings', async () => {
		const { status, body } = await base.post(PATH, { json: BODY });
		expect(status).toBe(200);
		expect(Object.keys(body)).toEqual(['results']);
		expect(body.results.length).toBeGreaterThan(100);
		for (const row of body.results) {
			expect(Object.keys(row).sort()).toEqual(
				[...Object.keys(FIELD_TYPES), ...LISTS, ...NULLABLE].sort(),
			);
			for (const [key, type] of Object.entries(FIELD_TYPES)) expect(typeof row[key]).toBe(type);
			for (const key of LISTS) expect(Array.isArray(row[key])).toBe(true);
			expect(['target_channels', 'target_users', 'target_search', 'target_bots']).toContain(
				row.ad_type,
			);
			expect(row.date).toMatch(/^2026-03-0[1-3]$/);
			expect(row.impressions).toBeGreaterThan(0);
		}
	});

	test('spent is in RUB, from the same data as the statistics endpoint', async () => {
		const { body } = await base.post(PATH, {
			json: { ...BODY, groupings: [{ name: 'date', type: 1 }] },
		});
		const stats = sandbox().data.statsRows({
			period_from: '2026-03-01',
			period_to: '2026-03-03',
			period_grouping_unit: 'day',
			currency_code: 'RUB',
		});
		expect(body.results.map((r: { date: string }) => r.date)).toEqual([
			'2026-03-01',
			'2026-03-02',
			'2026-03-03',
		]);
		body.results.forEach((row: Record<string, number>, i: number) => {
			expect(row.impressions).toBe(stats[i].views);
			expect(row.clicks).toBe(stats[i].clicks);
			expect(row.goals).toBe(stats[i].actions);
			expect(row.spent).toBe(Number(stats[i].exchanged_spent));
		});
	});

	test('group_time 2 groups by month, 3 by ISO week, 4 by year', async () => {
		const dates = async (group_time: number) =>
			(
				await base.post(PATH, {
					json: {
						...BODY,
						date: { date_from: '2025-12-20', date_to: '2026-01-10' },
						group_time,
						groupings: [],
					},
				})
			).body.results.map((r: { date: string }) => r.date);
		expect(await dates(2)).toEqual(['2025-12-01', '2026-01-01']);
		expect(await dates(3)).toEqual(['2025-12-15', '2025-12-22', '2025-12-29', '2026-01-05']);
		expect(await dates(4)).toEqual(['2025-01-01', '2026-01-01']);
	});

	test('filters: campaign ids, objects and account_uids', async () => {
		const rows = (json: unknown) =>
			base.post(PATH, { json }).then((r) => r.body.results as Record<string, unknown>[]);
		const byCampaign = await rows({ ...BODY, campaign: [2201] });
		expect(byCampaign.length).toBeGreaterThan(0);
		const campaignAds = new Set(
			sandbox()
				.data.ads.filter((ad) => ad.campaignId === 2201)
				.map((ad) => ad.id),
		);
		for (const row of byCampaign) expect(campaignAds.has(row.ad_id as number)).toBe(true);
		const byAccount = await rows({ ...BODY, account_uids: ['100003'] });
		expect(new Set(byAccount.map((r) => r.account_uid))).toEqual(new Set(['100003']));
		const object = byAccount[0].object as string;
		const byObject = await rows({ ...BODY, object: [object] });
		expect(new Set(byObject.map((r) => r.object))).toEqual(new Set([object]));
	});

	test.each([
		['platform', { platform: [11] }, '[10]'],
		['partner', { partner: [] }, '[2]'],
		['currency', { currency: 'EUR' }, 'RUB'],
		['type_cab', { type_cab: 1 }, 'null'],
		['group_time', { group_time: 5 }, 'year'],
		['date', { date: undefined }, 'date_from'],
		['date.date_to', { date: { date_from: '2026-03-01' } }, 'ISO 8601'],
		['groupings[0].name', { groupings: [{ name: 'country' }] }, 'sub_client'],
		['extra', { extra: true }, 'unknown field'],
	])('%s is validated', async (field, change, text) => {
		const { status, body } = await base.post(PATH, { json: { ...BODY, ...change } });
		expect(status).toBe(400);
		expect(body.errors).toHaveProperty([field]);
		expect(body.detail).toContain(text);
	});

	test('missing fixed fields are refused too', async () => {
		const rest: Record<string, unknown> = { ...BODY };
		for (const key of ['platform', 'partner', 'currency']) delete rest[key];
		const { status, body } = await base.post(PATH, { json: rest });
		expect(status).toBe(400);
		expect(Object.keys(body.errors).sort()).toEqual(['currency', 'partner', 'platform']);
	});

	test('legacyReportDisabled emulates the shutdown with 410', async () => {
		sandbox().data.legacyReportDisabled = true;
		try {
			const { status, body } = await base.post(PATH, { json: BODY });
			expect(status).toBe(410);
			expect(body).toEqual({
				detail: 'This report was disabled on 28.02.2026. Use /api/v1/stats/page.',
			});
		} finally {
			sandbox().data.legacyReportDisabled = false;
		}
	});

	test('GET /api/report/objects lists the distinct advertised objects as strings', async () => {
		const { status, body } = await base.get('/api/report/objects');
		expect(status).toBe(200);
		expect(body).toEqual(sandbox().data.objects);
		expect(new Set(body).size).toBe(body.length);
		expect(body).toEqual(
			expect.arrayContaining([
				'https://t.me/uzbek_tech_news',
				'https://www.example-shop.de',
				'https://t.me/pizza_order_bot',
			]),
		);
		const used = new Set(sandbox().data.ads.map((ad) => ad.adObject));
		for (const object of body) expect(used.has(object)).toBe(true);
	});
});
