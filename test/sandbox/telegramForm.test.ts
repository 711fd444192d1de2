import { fillPath, PLATFORM_NAMES, Sandbox, type Platform } from '../../sandbox';
import { apiClient, rawFetch, TEST_NOW } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

const TG = PLATFORM_NAMES.telegram;
const EXT = PLATFORM_NAMES.ext;
/** Berlin Growth GmbH: no automatic labelling. */
const DE_AD = {
	campaign_id: 2201,
	title: 'Autumn launch',
	text: 'Meet the new collection',
	promote_url: 'https://t.me/berlin_startups',
	cpm: 2.5,
	budget: 150,
};
const SPEC_TO_REAL_IDS: Record<string, string> = {
	'100001': 'ACC06163',
	'100002': 'ACC07021',
	'100003': 'ACC07355',
	'100004': 'ACC08112',
};

function phones(count: number): string[] {
	return Array.from({ length: count }, (_, i) => `998${String(900000000 + i)}`);
}

/** Every key of a JSON value, nested ones included. */
function allKeys(value: unknown, out: string[] = []): string[] {
	if (Array.isArray(value)) for (const item of value) allKeys(item, out);
	else if (typeof value === 'object' && value !== null)
		for (const [key, inner] of Object.entries(value)) {
			out.push(key);
			allKeys(inner, out);
		}
	return out;
}

const legacyBody = (date_from: string, date_to: string) => ({
	date: { date_from, date_to },
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
});

describe("telegram form: the real service's names, ids and formats", () => {
	const sandbox = useSandbox({
		platform: 'telegram',
		rateLimit: 'off',
		now: TEST_NOW,
		adCount: 120,
	});
	const base = apiClient(sandbox, 'base');
	const client = apiClient(sandbox, 'client');

	test('is the default form of the programmatic start, with real cabinet ids', async () => {
		const started = await Sandbox.start({ now: TEST_NOW, adCount: 1 });
		try {
			expect(started.platform).toBe('telegram');
			expect(started.data.cabinets.map((c) => c.account_id)).toEqual(
				Object.values(SPEC_TO_REAL_IDS),
			);
		} finally {
			await started.stop();
		}
	});

	test('each documented path answers in its own form only', async () => {
		const paths = (names: typeof TG) => ({
			detail: fillPath(names.paths.ad, { ad_id: 10001 }),
			report: names.paths.legacyReport,
			upload: names.paths.uploadMedia,
			audiences: fillPath(names.paths.audienceList, { account_id: 'ACC06163' }),
		});
		const real = paths(TG);
		expect(real).toEqual({
			detail: '/api/advertisement/telegram/10001',
			report: '/api/report/tgview',
			upload: '/api/v1/advertising/telegram/upload_media',
			audiences: '/api/advertisement/telegram/ACC06163/audiences/',
		});
		expect((await base.get(real.detail)).status).toBe(200);
		expect(
			(
				await base.post(real.report, {
					json: legacyBody('2026-03-01T00:00:00Z', '2026-03-01T00:00:00Z'),
				})
			).status,
		).toBe(200);
		expect((await client.get(real.audiences)).status).toBe(200);
		expect(
			(await client.post(real.upload, { query: { account_id: 'ACC07021' }, form: new FormData() }))
				.status,
		).toBe(400);
		const spec = paths(EXT);
		expect((await base.get(spec.detail)).status).toBe(404);
		expect((await base.post(spec.report, { json: {} })).status).toBe(404);
		expect((await client.get(spec.audiences)).status).toBe(404);
		expect((await client.post(spec.upload, { query: { account_id: 'ACC07021' } })).status).toBe(
			404,
		);
		expect((await base.post(EXT.paths.adCreate, { json: DE_AD })).status).toBe(404);
	});

	test('ad detail: telegram_id, tg_account_type and event.tg_event_id, no ext_ name anywhere', async () => {
		const linked = sandbox().data.ads.find(
			(ad) => ad.fields.eventId !== null && ad.status !== 'deleted',
		);
		const detail = (await base.get(fillPath(TG.paths.ad, { ad_id: linked?.id as number }))).body;
		expect(detail).toMatchObject({
			telegram_id: expect.any(Number),
			tg_account_type: expect.any(Number),
			account_id: expect.stringMatching(/^ACC\d{5}$/),
			event: { tg_event_id: linked?.fields.eventId, name: expect.any(String) },
		});
		expect(allKeys(detail).filter((key) => key.startsWith('ext_'))).toEqual([]);
	});

	test("pixel events: tg_event_id, snippets calling tgp('event', id), tg_pixel_id in the base code", async () => {
		const list = await client.get('/api/pixel_events/', { query: { account_id: 'ACC07021' } });
		expect(list.status).toBe(200);
		expect(list.body.items).toHaveLength(4);
		for (const item of list.body.items) {
			expect(Object.keys(item)).toEqual([
				'id',
				'pixel_id',
				'tg_event_id',
				'title',
				'type',
				'status',
				'ads_count',
				'created_at',
				'last_triggered_at',
				'code_snippet',
			]);
			expect(item.code_snippet).toBe(`<script>tgp('event', '${item.tg_event_id}');</script>`);
		}
		const code = await client.get('/api/pixel_events/ACC07021/code_snippet');
		expect(Object.keys(code.body)).toEqual(['id', 'tg_pixel_id', 'code_snippet']);
		expect(code.body.code_snippet).toContain(`tgp('init', '${code.body.tg_pixel_id}')`);
		const created = await client.post('/api/pixel_events/', {
			json: { account_id: 'ACC07021', title: 'Lead', type: 'custom' },
		});
		expect(created.status).toBe(201);
		expect(created.body.tg_event_id).toEqual(expect.any(String));
		expect(created.body).not.toHaveProperty('ext_event_id');
		// The spec form's cabinet id is unknown here.
		expect(
			(await client.get('/api/pixel_events/', { query: { account_id: '100002' } })).status,
		).toBe(403);
	});

	test('ad create and edit take tg_event_id; ext_event_id is an unknown field', async () => {
		const [event] = sandbox().data.pixelEventsOf('ACC07021');
		const eventId = event.tg_event_id as string;
		const created = await base.post(TG.paths.adCreate, {
			json: { ...DE_AD, tg_event_id: eventId },
		});
		expect(created.status).toBe(201);
		expect(created.body.event).toEqual({ tg_event_id: eventId, name: event.title });
		expect(created.body.account_id).toBe('ACC07021');
		const wrongName = await base.post(TG.paths.adCreate, {
			json: { ...DE_AD, ext_event_id: eventId },
		});
		expect(wrongName.status).toBe(400);
		expect(wrongName.body.errors.ext_event_id[0]).toContain('unknown field');
		const edited = await base.put(fillPath(TG.paths.ad, { ad_id: created.body.ad_id }), {
			json: { tg_event_id: null },
		});
		expect(edited.body.event).toEqual({ tg_event_id: null, name: null });
	});

	test('audiences: listed and created as { tg_id, title }', async () => {
		const listed = await client.get(fillPath(TG.paths.audienceList, { account_id: 'ACC06163' }));
		expect(listed.body).toEqual([
			{ tg_id: 55001, title: 'Loyal customers Tashkent' },
			{ tg_id: 55002, title: 'App installers' },
			{ tg_id: 55003, title: 'Newsletter subscribers' },
		]);
		const form = new FormData();
		form.append('title', 'Buyers');
		form.append('audience', new Blob([phones(1000).join('\n')], { type: 'text/csv' }), 'a.csv');
		const created = await client.post(
			fillPath(TG.paths.audienceCreate, { account_id: 'ACC06163' }),
			{ form },
		);
		expect(created.status).toBe(201);
		expect(created.body).toEqual({ tg_id: expect.any(Number), title: 'Buyers' });
	});

	test('cabinet ids look like ACC06163 in statistics rows and their filter', async () => {
		const body = {
			period_from: '2026-03-01T00:00:00Z',
			period_to: '2026-03-01T23:59:59Z',
			period_grouping_unit: 'day',
			grouping: ['cabinet'],
		};
		const all = await base.post('/api/v1/stats/page', { json: body });
		expect(
			all.body.rows.map((row: { platform_cabinet_id: string }) => row.platform_cabinet_id),
		).toEqual(['ACC06163', 'ACC07021', 'ACC07355']);
		const one = await base.post('/api/v1/stats/page', {
			json: { ...body, platform_cabinet_ids: ['ACC07021'] },
		});
		expect(one.body.rows).toEqual([all.body.rows[1]]);
	});

	test('schedule_timezone is in seconds: seeded ads, create and edit; hours are refused', async () => {
		const served = new Set<unknown>();
		for (const ad of sandbox().data.ads.slice(0, 40)) {
			served.add((await base.get(fillPath(TG.paths.ad, { ad_id: ad.id }))).body.schedule_timezone);
		}
		// Uzbekistan +05:00, Germany +01:00, Russia +03:00.
		expect([...served].sort()).toEqual([10_800, 18_000, 3_600]);
		const created = await base.post(TG.paths.adCreate, {
			json: { ...DE_AD, use_selected_timezone: true, schedule_timezone: 10_800 },
		});
		expect(created.status).toBe(201);
		expect(created.body.schedule_timezone).toBe(10_800);
		const hours = await base.post(TG.paths.adCreate, { json: { ...DE_AD, schedule_timezone: 3 } });
		expect(hours.status).toBe(400);
		expect(hours.body.errors.schedule_timezone[0]).toContain('in seconds, a multiple of 900');
		for (const [value, status] of [
			[-43_200, 201],
			[50_400, 201],
			[19_800, 201], // +05:30
			[54_000, 400],
			[-46_800, 400],
			[3_700, 400],
		]) {
			expect([
				value,
				(await base.post(TG.paths.adCreate, { json: { ...DE_AD, schedule_timezone: value } }))
					.status,
			]).toEqual([value, status]);
		}
		const edit = (json: unknown) =>
			base.put(fillPath(TG.paths.ad, { ad_id: created.body.ad_id }), { json });
		expect((await edit({ schedule_timezone: 20_700 })).body.schedule_timezone).toBe(20_700); // +05:45
		expect((await edit({ schedule_timezone: null })).body.schedule_timezone).toBeNull();
		expect((await edit({ schedule_timezone: 5 })).status).toBe(400);
	});

	test('legacy report: dates must be date-times; the days are the calendar dates written in them', async () => {
		const dateOnly = await base.post(TG.paths.legacyReport, {
			json: legacyBody('2026-03-01', '2026-03-03'),
		});
		expect(dateOnly.status).toBe(400);
		expect(dateOnly.body.errors['date.date_from'][0]).toContain('date-time');
		expect(dateOnly.body.errors['date.date_to'][0]).toContain('date-time');
		const moscow = await base.post(TG.paths.legacyReport, {
			json: legacyBody('2026-03-01T00:00:00+03:00', '2026-03-03T23:59:59+03:00'),
		});
		expect(moscow.status).toBe(200);
		const dates = [...new Set(moscow.body.results.map((row: { date: string }) => row.date))];
		expect(dates).toEqual(['2026-03-01', '2026-03-02', '2026-03-03']);
		const utc = await base.post(TG.paths.legacyReport, {
			json: legacyBody('2026-03-01T00:00:00.000Z', '2026-03-03T00:00:00.000Z'),
		});
		expect(utc.body).toEqual(moscow.body);
		expect(
			new Set(moscow.body.results.map((row: { account_uid: string }) => row.account_uid)),
		).toEqual(new Set(['ACC06163', 'ACC07021', 'ACC07355']));
	});
});

describe('the two forms serve the same seeded data, each under its own names', () => {
	let sandboxes: Record<Platform, Sandbox>;
	beforeAll(async () => {
		const [telegram, ext] = await Promise.all(
			(['telegram', 'ext'] as const).map((platform) =>
				Sandbox.start({ platform, now: TEST_NOW, adCount: 60, rateLimit: 'off' }),
			),
		);
		sandboxes = { telegram, ext };
	});
	afterAll(async () => {
		await Promise.all(Object.values(sandboxes).map((sandbox) => sandbox.stop()));
	});
	const get = (platform: Platform, path: string) =>
		rawFetch(`${sandboxes[platform].baseUrl}${path}`, {
			headers: { authorization: `Bearer ${sandboxes[platform].token}` },
		});

	test("every ad detail is the spec form's, renamed", async () => {
		for (let adId = 10001; adId <= 10060; adId++) {
			const real = (await get('telegram', fillPath(TG.paths.ad, { ad_id: adId }))).body;
			const spec = (await get('ext', fillPath(EXT.paths.ad, { ad_id: adId }))).body;
			const { ext_id, ext_account_type, event, account_id, ...rest } = spec;
			expect(real).toEqual({
				...rest,
				telegram_id: ext_id,
				tg_account_type: ext_account_type,
				account_id: SPEC_TO_REAL_IDS[account_id],
				event: { tg_event_id: event.ext_event_id, name: event.name },
			});
		}
	});

	test('statistics rows differ only in the cabinet id', async () => {
		const body = JSON.stringify({
			period_from: '2026-03-01T00:00:00Z',
			period_to: '2026-03-03T23:59:59Z',
			period_grouping_unit: 'day',
			grouping: ['cabinet', 'ad'],
			limit: 500,
		});
		const rows = async (platform: Platform) =>
			(
				await rawFetch(`${sandboxes[platform].baseUrl}/api/v1/stats/page`, {
					method: 'POST',
					headers: {
						authorization: `Bearer ${sandboxes[platform].token}`,
						'content-type': 'application/json',
					},
					body,
				})
			).body.rows as Record<string, unknown>[];
		const real = await rows('telegram');
		const spec = await rows('ext');
		expect(real.length).toBeGreaterThan(50);
		expect(real).toEqual(
			spec.map((row) => ({
				...row,
				platform_cabinet_id: SPEC_TO_REAL_IDS[row.platform_cabinet_id as string],
			})),
		);
	});

	test('the control API switches the form of a running sandbox, records and all', async () => {
		const sb = await Sandbox.start({ platform: 'ext', now: TEST_NOW, adCount: 20 });
		try {
			const control = (json: unknown) =>
				rawFetch(`http://127.0.0.1:${sb.port}/__sandbox/settings`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(json),
				});
			const events = () => sb.data.pixelEventsOf(sb.data.cabinets[1].account_id);
			expect(events()[0]).toHaveProperty('ext_event_id');
			const switched = await control({ platform: 'telegram', rateLimit: '10/60' });
			expect(switched.body).toMatchObject({ platform: 'telegram', rateLimit: '10/60' });
			expect(sb.platform).toBe('telegram');
			expect(sb.data.cabinets[1].account_id).toBe('ACC07021');
			expect(events()[0]).toHaveProperty('tg_event_id');
			expect(events()[0]).not.toHaveProperty('ext_event_id');
			const detail = await rawFetch(`${sb.baseUrl}/api/advertisement/telegram/10001`, {
				headers: { authorization: `Bearer ${sb.token}` },
			});
			expect(detail.body.telegram_id).toEqual(expect.any(Number));
			expect((await control({ platform: 'ext', rateLimit: 'off' })).body.platform).toBe('ext');
			expect(sb.data.cabinets[1].account_id).toBe('100002');
			expect((await control({ platform: 'tg' })).status).toBe(400);
		} finally {
			await sb.stop();
		}
	});
});
