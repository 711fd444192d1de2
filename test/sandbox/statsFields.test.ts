import { apiClient, TEST_NOW } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

// Literal copies of the columns and the fields by grouping, independent of the sandbox's constants.
const COMMON = [
	'period_date',
	'original_spent',
	'original_currency',
	'exchanged_spent',
	'exchange_currency',
	'views',
	'clicks',
	'video_opens',
	'actions',
	'ctr',
	'cvr',
	'cpm',
	'cpc',
	'cpa',
	'platform_id',
];
const BY_GROUPING: Record<string, string[]> = {
	cabinet: ['platform_cabinet_name', 'platform_cabinet_id'],
	campaign: ['platform_cabinet_name', 'campaign_name', 'campaign_id'],
	ad_object: ['ad_object'],
	ad: [
		'ad_title',
		'ad_text',
		'promote_url',
		'website_name',
		'media_type',
		'target_type',
		'target_topics',
		'views_limit_per_user',
		'website_button_type',
		'action_type',
		'ad_id',
		'platform_ad_id',
		'ad_status',
		'ad_cpm',
		'ad_budget',
		'exclude_crypto',
		'only_crypto',
		'additional_information',
		'target_langs',
		'target_countries',
		'target_locations',
		'target_channels',
		'target_user_channels',
		'target_search',
		'target_bots',
	],
};
const COLUMNS: [string, string][] = [
	['period_date', 'datetime'],
	['original_spent', 'money'],
	['original_currency', 'string'],
	['exchanged_spent', 'money'],
	['exchange_currency', 'string'],
	['views', 'number'],
	['clicks', 'number'],
	['actions', 'number'],
	['video_opens', 'number'],
	['ctr', 'number'],
	['cpc', 'number'],
	['cpm', 'number'],
	['cpa', 'number'],
	['cvr', 'number'],
	['campaign_id', 'number'],
	['platform_id', 'number'],
	['ad_object', 'string'],
	['ad_id', 'number'],
	['platform_ad_id', 'number'],
	['platform_cabinet_id', 'string'],
	['ad_title', 'string'],
	['ad_text', 'string'],
	['ad_status', 'string'],
	['ad_cpm', 'money'],
	['ad_budget', 'money'],
	['promote_url', 'string'],
	['target_type', 'string'],
	['website_name', 'string'],
	['media_type', 'string'],
	['views_limit_per_user', 'number'],
	['website_button_type', 'string'],
	['action_type', 'string'],
	['exclude_crypto', 'boolean'],
	['only_crypto', 'boolean'],
	['target_langs', 'array'],
	['additional_information', 'string'],
	['target_countries', 'array'],
	['target_locations', 'array'],
	['target_channels', 'array'],
	['target_user_channels', 'array'],
	['target_topics', 'array'],
	['target_search', 'array'],
	['target_bots', 'array'],
	['platform_cabinet_name', 'string'],
	['campaign_name', 'string'],
];

const BODY = {
	period_from: '2026-03-01',
	period_to: '2026-03-03',
	period_grouping_unit: 'day',
	limit: 500,
};

function expectedKeys(grouping: string[]): string[] {
	return [...new Set([...COMMON, ...grouping.flatMap((g) => BY_GROUPING[g])])].sort();
}

describe('statistics rows and columns', () => {
	const sandbox = useSandbox({ platform: 'ext', now: TEST_NOW, adCount: 300 });
	const base = apiClient(sandbox, 'base');

	test('columns list every column in order with its type, whatever the grouping', async () => {
		for (const grouping of [[], ['ad']]) {
			const { status, body } = await base.post('/api/v1/stats/page', {
				json: { ...BODY, grouping },
			});
			expect(status).toBe(200);
			expect(body.columns.map((c: { key: string; type: string }) => [c.key, c.type])).toEqual(
				COLUMNS,
			);
		}
	});

	test.each([
		['no grouping', []],
		['cabinet', ['cabinet']],
		['campaign', ['campaign']],
		['ad_object', ['ad_object']],
		['ad', ['ad']],
		['campaign + ad_object', ['campaign', 'ad_object']],
		['every grouping', ['cabinet', 'campaign', 'ad_object', 'ad']],
	])('%s: rows have the common fields plus those the groupings add', async (_label, grouping) => {
		const { status, body } = await base.post('/api/v1/stats/page', { json: { ...BODY, grouping } });
		expect(status).toBe(200);
		expect(body.rows.length).toBeGreaterThan(0);
		for (const row of body.rows) expect(Object.keys(row).sort()).toEqual(expectedKeys(grouping));
	});

	test('no grouping: one row per day, ISO period starts, views > 0, platform_id 10', async () => {
		const { body } = await base.post('/api/v1/stats/page', { json: BODY });
		expect(body.rows.map((r: { period_date: string }) => r.period_date)).toEqual([
			'2026-03-01T00:00:00Z',
			'2026-03-02T00:00:00Z',
			'2026-03-03T00:00:00Z',
		]);
		expect(body.count).toBe(3);
		expect(body.cursor).toBeNull();
		for (const row of body.rows) {
			expect(row.views).toBeGreaterThan(0);
			expect(row.platform_id).toBe(10);
		}
	});

	test('money and ratios are decimal strings with two places; counts are numbers', async () => {
		const { body } = await base.post('/api/v1/stats/page', { json: { ...BODY, grouping: ['ad'] } });
		for (const row of body.rows.slice(0, 50)) {
			for (const key of ['original_spent', 'exchanged_spent', 'ad_cpm', 'ad_budget'])
				expect(row[key]).toMatch(/^\d+\.\d{2}$/);
			for (const key of ['ctr', 'cpc', 'cpm', 'cpa', 'cvr'])
				expect(row[key]).toMatch(/^(0|\d+\.\d{2})$/);
			for (const key of ['views', 'clicks', 'actions', 'video_opens'])
				expect(Number.isInteger(row[key])).toBe(true);
			expect(row.ctr).toBe(((row.clicks / row.views) * 100).toFixed(2));
			expect(row.clicks).toBeLessThanOrEqual(row.views);
			expect(typeof row.platform_cabinet_id === 'undefined').toBe(true);
		}
	});

	test('a zero denominator gives "0"', async () => {
		const rows = sandbox().data.statsRows({
			...BODY,
			period_grouping_unit: 'hour',
			period_from: '2026-03-09T00:00:00Z',
			period_to: '2026-03-09T23:59:59Z',
			grouping: ['ad'],
		});
		const noActions = rows.find((r) => r.actions === 0);
		expect(noActions).toBeDefined();
		expect(noActions?.cpa).toBe('0');
		const noClicks = rows.find((r) => r.clicks === 0);
		expect(noClicks?.cvr).toBe('0');
		expect(noClicks?.cpc).toBe('0');
	});

	test('rows within a period are ordered by the grouping keys', async () => {
		const body = { ...BODY, grouping: ['cabinet', 'ad'] };
		const rows = sandbox().data.statsRows(body);
		const firstDay = rows.filter((r) => r.period_date === '2026-03-01T00:00:00Z');
		const keys = firstDay.map((r) => [r.platform_cabinet_id as string, r.ad_id as number] as const);
		const sorted = [...keys].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
		expect(keys).toEqual(sorted);
		expect(new Set(keys.map((k) => k[0]))).toEqual(new Set(['100001', '100002', '100003']));
		const page = await base.post('/api/v1/stats/page', { json: body });
		expect(page.body.rows).toEqual(rows.slice(0, 500));
	});

	test('weeks start on Monday, months on the 1st, years on 1 January (UTC)', async () => {
		const unitStarts = async (unit: string) => {
			const { body } = await base.post('/api/v1/stats/page', {
				json: { period_from: '2025-12-25', period_to: '2026-02-03', period_grouping_unit: unit },
			});
			return body.rows.map((r: { period_date: string }) => r.period_date);
		};
		const weeks = await unitStarts('week');
		expect(weeks[0]).toBe('2025-12-22T00:00:00Z');
		for (const week of weeks) expect(new Date(week).getUTCDay()).toBe(1);
		expect(await unitStarts('month')).toEqual([
			'2025-12-01T00:00:00Z',
			'2026-01-01T00:00:00Z',
			'2026-02-01T00:00:00Z',
		]);
		expect(await unitStarts('year')).toEqual(['2025-01-01T00:00:00Z', '2026-01-01T00:00:00Z']);
	});

	test('a period clipped by the window sums only the requested days', async () => {
		const month = sandbox().data.statsRows({
			period_from: '2026-02-10',
			period_to: '2026-02-12',
			period_grouping_unit: 'month',
		});
		const days = sandbox().data.statsRows({
			period_from: '2026-02-10',
			period_to: '2026-02-12',
			period_grouping_unit: 'day',
		});
		expect(month).toHaveLength(1);
		expect(month[0].period_date).toBe('2026-02-01T00:00:00Z');
		expect(month[0].views).toBe(days.reduce((sum, r) => sum + (r.views as number), 0));
	});
});
