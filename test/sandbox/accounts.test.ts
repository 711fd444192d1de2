import { Sandbox } from '../../sandbox';
import { apiClient, TEST_NOW } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

const DAY_MS = 86_400_000;
const NAME_KEYS = ['account_uid', 'name', 'balance', 'mode', 'is_audience_allowed'];
const CABINET_KEYS = [
	'account_id',
	'account_name',
	'status',
	'balance_total',
	'balance_available',
	'balance_active',
	'balance_spent',
	'objects',
	'legal_name',
	'category_key',
	'category_name',
];
const CAMPAIGN_KEYS = [
	'id',
	'name',
	'description',
	'account_id',
	'account_name',
	'status',
	'number_of_advertisements',
	'goals',
	'impressions',
	'budget',
	'cps',
	'cpm',
	'ctr',
	'cpc',
	'clicks',
	'spent',
];
const cents = (amount: number) => Math.round(amount * 100);

describe('cabinets, campaigns and balances (telegram form)', () => {
	const sandbox = useSandbox({ platform: 'telegram', rateLimit: 'off', now: TEST_NOW });
	const base = apiClient(sandbox, 'base');
	const cabinets = async () => (await base.get('/api/accounts/telegram/')).body.items;

	afterEach(() => sandbox().clock.set(TEST_NOW));

	test('names: every cabinet the user may see, with its free balance', async () => {
		const names = await base.get('/api/accounts/telegram/names');
		expect(names.status).toBe(200);
		expect(names.body.map((n: Record<string, unknown>) => Object.keys(n))).toEqual(
			Array(3).fill(NAME_KEYS),
		);
		expect(names.body.map((n: { account_uid: string }) => n.account_uid)).toEqual([
			'ACC06163',
			'ACC07021',
			'ACC07355',
		]);
		const list = await cabinets();
		expect(names.body.map((n: { balance: number }) => n.balance)).toEqual(
			list.map((c: { balance_available: number }) => c.balance_available),
		);
		expect(names.body.map((n: { is_audience_allowed: boolean }) => n.is_audience_allowed)).toEqual([
			true,
			false,
			false,
		]);
	});

	test('one cabinet by account_uid, as in the names list; unknown 404, without rights 403', async () => {
		const names = (await base.get('/api/accounts/telegram/names')).body;
		const one = await base.get('/api/accounts/telegram/ACC07021');
		expect(one.body).toEqual(names[1]);
		expect((await base.get('/api/accounts/telegram/ACC99999')).status).toBe(404);
		expect((await base.get('/api/accounts/telegram/ACC08112')).status).toBe(403);
		// The spec form's id is not a cabinet here.
		expect((await base.get('/api/accounts/telegram/100002')).status).toBe(404);
	});

	test("the detailed list: {items, count}, four balances, objects from the cabinet's ads", async () => {
		const response = await base.get('/api/accounts/telegram/');
		expect(response.body.count).toBe(3);
		for (const item of response.body.items) {
			expect(Object.keys(item)).toEqual(CABINET_KEYS);
			expect(item.status).toBe('active');
			expect(cents(item.balance_total)).toBe(
				cents(item.balance_available) + cents(item.balance_active),
			);
			expect(item.balance_spent).toBeGreaterThan(0);
			const objects = new Set(
				sandbox()
					.data.ads.filter((ad) => ad.accountId === item.account_id && ad.status !== 'deleted')
					.map((ad) => ad.adObject),
			);
			expect(item.objects).toEqual([...objects].sort());
		}
	});

	test('filters account_name and legal_name match any part, ignoring case; offset and limit page it', async () => {
		const names = async (query: Record<string, string | number>) =>
			(await base.get('/api/accounts/telegram/', { query })).body;
		expect(
			(await names({ account_name: 'BERLIN' })).items.map(
				(c: { account_id: string }) => c.account_id,
			),
		).toEqual(['ACC07021']);
		expect(
			(await names({ legal_name: 'ooo' })).items.map((c: { account_id: string }) => c.account_id),
		).toEqual(['ACC07355']);
		expect((await names({ account_name: 'nothing like it' })).count).toBe(0);
		const all = (await names({})).items.map((c: { account_id: string }) => c.account_id);
		const first = await names({ limit: 2 });
		const rest = await names({ offset: 2, limit: 2 });
		expect([first.count, rest.count]).toEqual([3, 3]);
		expect(
			[...first.items, ...rest.items].map((c: { account_id: string }) => c.account_id),
		).toEqual(all);
		const bad = await base.get('/api/accounts/telegram/', { query: { limit: 0 } });
		expect(bad.status).toBe(400);
		expect(bad.body.errors).toHaveProperty('limit');
	});

	test('at least one cabinet runs low at the start: Berlin has 35.00 EUR free, the others thousands', async () => {
		const free = Object.fromEntries(
			(await cabinets()).map((c: { account_id: string; balance_available: number }) => [
				c.account_id,
				c.balance_available,
			]),
		);
		expect(free).toEqual({ ACC06163: 1850, ACC07021: 35, ACC07355: 240_000 });
	});

	test('balances move with spend: a day later, spent rose and the total fell by the same amount', async () => {
		const before = await cabinets();
		sandbox().clock.advance(DAY_MS);
		const after = await cabinets();
		for (let i = 0; i < before.length; i++) {
			const spentMore = cents(after[i].balance_spent) - cents(before[i].balance_spent);
			expect(spentMore).toBeGreaterThan(0);
			expect(cents(before[i].balance_total) - cents(after[i].balance_total)).toBe(spentMore);
			expect(after[i].balance_available).toBeLessThanOrEqual(before[i].balance_available);
			expect(after[i].balance_active).toBeLessThan(before[i].balance_active);
		}
	});

	test("a new ad's budget moves from the free balance into running ads", async () => {
		const [, before] = await cabinets();
		const created = await base.post('/api/advertisement/telegram/', {
			json: {
				campaign_id: 2201,
				title: 'Low balance test',
				text: 'A small ad',
				promote_url: 'https://t.me/berlin_startups',
				cpm: 2,
				budget: 20,
			},
		});
		expect(created.status).toBe(201);
		const [, after] = await cabinets();
		expect(cents(after.balance_available)).toBe(cents(before.balance_available) - 2000);
		expect(cents(after.balance_active)).toBe(cents(before.balance_active) + 2000);
		expect(after.balance_total).toBe(before.balance_total);
	});

	test('the dashboard sums every cabinet in EUR: active, available and their total', async () => {
		const response = await base.get('/api/dashboard/balances');
		expect(response.status).toBe(200);
		const rates: Record<string, number> = { ACC06163: 1.08, ACC07021: 1, ACC07355: 98.5 };
		const list: { account_id: string; [key: string]: unknown }[] = await cabinets();
		const inEur = (key: string) =>
			list.reduce((sum, c) => sum + (c[key] as number) / rates[c.account_id], 0);
		expect(response.body.available).toEqual({ amount: expect.any(Number), currency: 'EUR' });
		expect(response.body.available.amount).toBeCloseTo(inEur('balance_available'), 1);
		expect(response.body.active.amount).toBeCloseTo(inEur('balance_active'), 0);
		expect(cents(response.body.total.amount)).toBe(
			cents(response.body.active.amount) + cents(response.body.available.amount),
		);
		expect(response.body.total.currency).toBe('EUR');
	});

	test('campaigns: {items, count}; each has ads, and its id appears in the last 7 days of statistics', async () => {
		const response = await base.get('/api/campaigns/');
		expect(response.status).toBe(200);
		expect(response.body.count).toBe(10);
		const items = response.body.items;
		expect(items.map((c: Record<string, unknown>) => Object.keys(c))).toEqual(
			Array(10).fill(CAMPAIGN_KEYS),
		);
		for (const item of items) {
			expect(item.number_of_advertisements).toBeGreaterThan(0);
			expect(item.account_id).toMatch(/^ACC\d{5}$/);
		}
		const stats = await base.post('/api/v1/stats/page', {
			json: {
				period_from: '2026-03-03T00:00:00Z',
				period_to: '2026-03-09T23:59:59Z',
				period_grouping_unit: 'day',
				grouping: ['campaign'],
				limit: 500,
			},
		});
		const inStats = new Set(stats.body.rows.map((row: { campaign_id: number }) => row.campaign_id));
		expect([...inStats].sort()).toEqual(items.map((c: { id: number }) => c.id));
	});

	test("period=yesterday: each campaign's figures are the statistics endpoint's for that day", async () => {
		const campaigns = (await base.get('/api/campaigns/', { query: { period: 'yesterday' } })).body
			.items;
		for (const campaign of campaigns.slice(0, 4)) {
			const currency =
				campaign.account_id === 'ACC06163'
					? 'USD'
					: campaign.account_id === 'ACC07021'
						? 'EUR'
						: 'RUB';
			const stats = await base.post('/api/v1/stats/page', {
				json: {
					period_from: '2026-03-09T00:00:00Z',
					period_to: '2026-03-09T23:59:59Z',
					period_grouping_unit: 'day',
					grouping: ['campaign'],
					currency_code: currency,
				},
			});
			const row = stats.body.rows.find(
				(r: { campaign_id: number }) => r.campaign_id === campaign.id,
			);
			expect([campaign.impressions, campaign.clicks, campaign.goals, campaign.spent]).toEqual([
				row.views,
				row.clicks,
				row.actions,
				Number(row.original_spent),
			]);
		}
		const all = (await base.get('/api/campaigns/')).body.items;
		expect(all[0].impressions).toBeGreaterThan(campaigns[0].impressions);
	});

	test('campaign_name matches any part ignoring case; is_active keeps one status; offset and limit page it', async () => {
		const list = async (query: Record<string, string | number>) =>
			(await base.get('/api/campaigns/', { query })).body;
		expect(
			(await list({ campaign_name: 'berlin' })).items.map((c: { id: number }) => c.id),
		).toEqual([2201]);
		const ads = sandbox().data.ads.filter((ad) => ad.campaignId === 2303 && ad.status === 'active');
		for (const ad of ads) ad.status = 'stopped';
		sandbox().data.adChanged();
		try {
			const inactive = await list({ is_active: 'false' });
			expect(inactive.items.map((c: { id: number; status: string }) => [c.id, c.status])).toEqual([
				[2303, 'not_active'],
			]);
			expect(inactive.count).toBe(1);
			expect((await list({ is_active: 'true' })).count).toBe(9);
		} finally {
			for (const ad of ads) ad.status = 'active';
			sandbox().data.adChanged();
		}
		const page = await list({ offset: 8, limit: 5 });
		expect([page.count, page.items.map((c: { id: number }) => c.id)]).toEqual([10, [2302, 2303]]);
		const bad = await base.get('/api/campaigns/', {
			query: { period: 'last_week', is_active: 'yes' },
		});
		expect(bad.status).toBe(400);
		expect(Object.keys(bad.body.errors).sort()).toEqual(['is_active', 'period']);
	});
});

describe('the ext form has no cabinet, campaign or balance endpoints', () => {
	test('all five answer 404', async () => {
		const sandbox = await Sandbox.start({ platform: 'ext', now: TEST_NOW, adCount: 5 });
		try {
			const base = apiClient(() => sandbox, 'base');
			for (const path of [
				'/api/accounts/telegram/names',
				'/api/accounts/telegram/100001',
				'/api/accounts/telegram/',
				'/api/campaigns/',
				'/api/dashboard/balances',
			]) {
				expect([path, (await base.get(path)).status]).toEqual([path, 404]);
			}
		} finally {
			await sandbox.stop();
		}
	});
});
