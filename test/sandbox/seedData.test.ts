import { Sandbox } from '../../sandbox/index';

/** These tests run the spec's form (platform 'ext'). */
const PLATFORM = 'ext';

describe('seeded data', () => {
	let a: Sandbox;
	let b: Sandbox;
	let other: Sandbox;
	beforeAll(async () => {
		[a, b, other] = await Promise.all([
			Sandbox.start({ platform: 'ext', now: '2026-03-10T12:34:00Z', adCount: 300 }),
			Sandbox.start({ platform: 'ext', now: '2026-03-10T12:34:00Z', adCount: 300 }),
			Sandbox.start({ platform: 'ext', now: '2026-03-10T12:34:00Z', adCount: 300, seed: 2 }),
		]);
	});
	afterAll(() => Promise.all([a.stop(), b.stop(), other.stop()]));

	const body = {
		period_from: '2026-02-20',
		period_to: '2026-03-10',
		period_grouping_unit: 'day',
		grouping: ['ad'],
	};

	test('the same seed gives the same ads and statistics; another seed differs', () => {
		expect(b.data.adDetail(10001)).toEqual(a.data.adDetail(10001));
		expect(b.data.statsRows(body)).toEqual(a.data.statsRows(body));
		expect(other.data.adDetail(10001)).not.toEqual(a.data.adDetail(10001));
		expect(other.data.statsRows(body)).not.toEqual(a.data.statsRows(body));
	});

	test('cabinets: Uzbekistan with automatic labelling, German EUR without, a RUB one, one without permission', () => {
		const cabinets = a.data.cabinets;
		expect(
			cabinets.find((c) => c.geolocation === 'UZ' && c.automaticLabelling && c.permitted),
		).toBeDefined();
		expect(
			cabinets.find((c) => c.geolocation === 'DE' && c.currency === 'EUR' && !c.automaticLabelling),
		).toBeDefined();
		expect(cabinets.find((c) => c.currency === 'RUB' && c.permitted)).toBeDefined();
		expect(cabinets.filter((c) => !c.permitted)).toHaveLength(1);
		for (const c of cabinets) expect(typeof c.account_id).toBe('string');
		const permitted = new Set(cabinets.filter((c) => c.permitted).map((c) => c.account_id));
		for (const ad of a.data.ads) expect(permitted.has(ad.accountId)).toBe(true);
		for (const id of permitted)
			expect(a.data.campaigns.filter((c) => c.account_id === id).length).toBeGreaterThanOrEqual(3);
	});

	test('ads use every ad type and status, and carry realistic values', () => {
		const ads = a.data.ads;
		expect(new Set(ads.map((ad) => ad.fields.ad_type))).toEqual(
			new Set(['target_channels', 'target_users', 'target_search', 'target_bots']),
		);
		expect(new Set(ads.map((ad) => ad.status))).toEqual(new Set(['active', 'stopped', 'deleted']));
		for (const ad of ads) {
			expect(ad.fields.kktu_ids).toHaveLength(1);
			expect(a.data.kktuLevel(ad.fields.kktu_ids[0])).toBe(3);
			expect(ad.fields.target_bots === null).toBe(ad.fields.ad_type !== 'target_bots');
			expect(ad.fields.target_search === null).toBe(ad.fields.ad_type !== 'target_search');
			if (ad.fields.eventId !== null)
				expect(a.data.pixelEventByPlatformId(ad.accountId, ad.fields.eventId)).toBeDefined();
			expect(ad.createdAt).toBeLessThanOrEqual(Date.parse('2026-03-10T12:34:00Z'));
			if (ad.runUntil !== null) expect(ad.runUntil).toBeGreaterThan(ad.runFrom);
		}
		const detail = a.data.adDetail(ads.find((ad) => ad.fields.eventId !== null)?.id ?? 0) as {
			event: Record<string, unknown>;
		};
		expect(detail.event[`${PLATFORM}_event_id`]).toEqual(expect.any(String));
		expect(detail.event.name).toEqual(expect.any(String));
	});

	test('statistics exist only inside an ad’s delivery window', () => {
		const stopped = a.data.ads.find(
			(ad) =>
				ad.status === 'stopped' && ad.runUntil !== null && ad.runUntil < Date.parse('2026-02-01'),
		);
		expect(stopped).toBeDefined();
		const rows = a.data.statsRows({
			period_from: '2025-01-01',
			period_to: '2026-03-10',
			period_grouping_unit: 'month',
			grouping: ['ad'],
		});
		const own = rows.filter((r) => r.ad_id === stopped?.id);
		expect(own.length).toBeGreaterThan(0);
		for (const row of own) {
			expect(Date.parse(row.period_date as string)).toBeLessThan(stopped?.runUntil ?? 0);
			expect(Date.parse(row.period_date as string)).toBeGreaterThanOrEqual(
				Date.UTC(
					new Date(stopped?.runFrom ?? 0).getUTCFullYear(),
					new Date(stopped?.runFrom ?? 0).getUTCMonth(),
					1,
				),
			);
		}
	});

	test('2500 ads are supported', async () => {
		const large = await Sandbox.start({
			platform: 'ext',
			now: '2026-03-10T12:34:00Z',
			adCount: 2500,
		});
		try {
			expect(large.data.ads).toHaveLength(2500);
			const rows = large.data.statsRows({
				period_from: '2026-03-09',
				period_to: '2026-03-09',
				period_grouping_unit: 'day',
				grouping: ['ad'],
			});
			expect(rows.length).toBeGreaterThan(1500);
		} finally {
			await large.stop();
		}
	});
});
