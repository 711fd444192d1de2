import { apiClient, TEST_NOW } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

/** These tests run the spec's form (platform 'ext'). */
const PLATFORM = 'ext';
const EVENT_ID_KEY = 'ext_event_id';

const CREATE = `/api/advertisement/${PLATFORM}/`;
const EVENT = `${PLATFORM}_event_id`;
/** Berlin Growth GmbH: no automatic labelling. */
const DE = {
	campaign_id: 2201,
	title: 'Autumn launch',
	text: 'Meet the new collection',
	promote_url: 'https://t.me/berlin_startups',
	cpm: 2.5,
	budget: 150,
};
/** Tashkent Digital: automatic labelling on. */
const UZ = { ...DE, campaign_id: 2101, promote_url: 'https://t.me/uzbek_tech_news' };

const DETAIL_KEYS = [
	'ad_id',
	`${PLATFORM}_id`,
	'account_id',
	'account_name',
	'campaign_id',
	'campaign_name',
	'title',
	'text',
	'promote_url',
	'promote_url_title',
	'promote_url_photo',
	'media',
	'cpm',
	'budget',
	'langs',
	'topics',
	'channels',
	'exclude_topics',
	'exclude_channels',
	'other_info',
	'decline_reason',
	'status',
	'status_updated_dt',
	'cannot_edit_fields',
	'ad_type',
	'countries',
	'user_locations',
	'audiences',
	'exclude_audiences',
	'is_audiences',
	'is_exclude_audiences',
	'website_name',
	'is_website',
	'views_per_user',
	'show_picture',
	'exclude_politic',
	'promote_url_picture_id',
	'all_topics_interested_users',
	'device',
	'target_user_channels',
	'exclude_target_user_channels',
	'button_type',
	'daily_budget',
	'after_moderation_status',
	'start_date',
	'end_date',
	'schedule',
	'use_selected_timezone',
	'schedule_timezone',
	'website_photo_url',
	`${PLATFORM}_account_type`,
	'currency',
	'only_crypto',
	'exclude_crypto',
	'kktu_ids',
	'target_search',
	'target_bots',
	'event',
];

describe('create and read ads', () => {
	const sandbox = useSandbox({ platform: 'ext', now: TEST_NOW, adCount: 60 });
	const base = apiClient(sandbox, 'base');
	const create = (json: unknown) => base.post(CREATE, { json });

	async function expect400(json: unknown, field: string, text: string) {
		const response = await create(json);
		expect(response.status).toBe(400);
		expect(response.body.errors).toHaveProperty([field]);
		expect(response.body.detail).toContain(field);
		expect(response.body.detail).toContain(text);
	}

	test('GET detail has every detail field; unknown and non-numeric ids are 404', async () => {
		const ad = sandbox().data.ads[0];
		const detail = await base.get(`/api/advertisement/${PLATFORM}/${ad.id}`);
		expect(detail.status).toBe(200);
		expect(Object.keys(detail.body)).toEqual(DETAIL_KEYS);
		expect(detail.body).toMatchObject({
			ad_id: ad.id,
			account_id: ad.accountId,
			campaign_id: ad.campaignId,
		});
		expect(typeof detail.body.account_id).toBe('string');
		expect(Object.keys(detail.body.event)).toEqual([EVENT, 'name']);
		expect(Object.keys(detail.body.schedule)).toEqual([
			'mon',
			'tue',
			'wed',
			'thu',
			'fri',
			'sat',
			'sun',
		]);
		expect((await base.get(`/api/advertisement/${PLATFORM}/99999999`)).status).toBe(404);
		expect((await base.get(`/api/advertisement/${PLATFORM}/99999999`)).body.detail).toContain(
			'99999999',
		);
		expect((await base.get(`/api/advertisement/${PLATFORM}/abc`)).status).toBe(404);
	});

	test('a valid create answers 201 with the detail; the ad is then readable and listed', async () => {
		const response = await create({
			...DE,
			langs: ['de'],
			daily_budget: 20,
			schedule: { mon: [9, 10], sat: [] },
		});
		expect(response.status).toBe(201);
		expect(Object.keys(response.body)).toEqual(DETAIL_KEYS);
		expect(response.body).toMatchObject({
			title: 'Autumn launch',
			campaign_id: 2201,
			account_id: '100002',
			currency: 'EUR',
			langs: ['de'],
			kktu_ids: [],
		});
		expect(response.body.schedule).toEqual({
			mon: [9, 10],
			tue: [],
			wed: [],
			thu: [],
			fri: [],
			sat: [],
			sun: [],
		});
		const id = response.body.ad_id;
		expect((await base.get(`/api/advertisement/${PLATFORM}/${id}`)).body).toEqual(response.body);
		const listed = await base.get('/api/v2/advertisement/', {
			query: { advertisement_titles: 'Autumn launch' },
		});
		expect(listed.body.data.map((i: { id: number }) => i.id)).toContain(id);
	});

	test('unknown fields and wrong JSON types are 400s naming the field', async () => {
		await expect400({ ...DE, colour: 'red' }, 'colour', 'unknown field');
		await expect400({ ...DE, cpm: '2.5' }, 'cpm', 'must be a number');
		await expect400({ ...DE, title: 5 }, 'title', 'must be a string');
		await expect400({ ...DE, langs: 'de' }, 'langs', 'array of strings');
		await expect400({ ...DE, topics: ['news'] }, 'topics', 'array of numbers');
		await expect400({ ...DE, show_picture: 'true' }, 'show_picture', 'boolean');
		await expect400({ ...DE, campaign_id: 2201.5 }, 'campaign_id', 'integer');
		await expect400({ ...DE, media_token: null }, 'media_token', 'must be a string');
		await expect400({ ...DE, schedule: [] }, 'schedule', 'mon..sun');
		expect(
			(await create({ ...DE, other_info: null, target_search: null, button_type: null })).status,
		).toBe(201);
	});

	test('required fields, enums and positive amounts', async () => {
		const noTitle: Record<string, unknown> = { ...DE };
		delete noTitle.title;
		await expect400(noTitle, 'title', 'required');
		await expect400({ ...DE, ad_type: 'target_planets' }, 'ad_type', 'target_bots');
		await expect400({ ...DE, ad_source: 'api' }, 'ad_source', 'web_api');
		await expect400({ ...DE, cpm: 0 }, 'cpm', 'greater than 0');
		await expect400({ ...DE, budget: -5 }, 'budget', 'greater than 0');
		await expect400({ ...DE, daily_budget: 0 }, 'daily_budget', 'greater than 0');
		await expect400({ ...DE, promote_url: 'berlin_startups' }, 'promote_url', 'URL');
	});

	test('the campaign must exist and belong to a permitted cabinet', async () => {
		await expect400({ ...DE, campaign_id: 9999 }, 'campaign_id', 'does not exist');
		const forbidden = await create({ ...DE, campaign_id: 2401 });
		expect(forbidden.status).toBe(403);
		expect(forbidden.body.detail).toContain('permission');
	});

	test('schedule: only mon..sun keys, integer hours 0-23', async () => {
		await expect400({ ...DE, schedule: { monday: [1] } }, 'schedule', '"monday"');
		await expect400({ ...DE, schedule: { mon: [24] } }, 'schedule.mon', '0 to 23');
		await expect400({ ...DE, schedule: { tue: [1.5] } }, 'schedule.tue', 'integer');
	});

	test('schedule_timezone is in seconds in this form too; hours are refused', async () => {
		const created = await create({ ...DE, use_selected_timezone: true, schedule_timezone: 10_800 });
		expect([created.status, created.body.schedule_timezone]).toEqual([201, 10_800]);
		await expect400({ ...DE, schedule_timezone: 3 }, 'schedule_timezone', 'in seconds');
	});

	test('start_date must be before end_date', async () => {
		await expect400(
			{ ...DE, start_date: '2026-04-10T00:00:00Z', end_date: '2026-04-01T00:00:00Z' },
			'end_date',
			'before end_date',
		);
		await expect400({ ...DE, start_date: 'next monday' }, 'start_date', 'ISO 8601');
		expect(
			(
				await create({
					...DE,
					start_date: '2026-04-01T00:00:00Z',
					end_date: '2026-04-10T00:00:00Z',
				})
			).status,
		).toBe(201);
	});

	test('kktu_ids: exactly one third-level id', async () => {
		const [level1] = sandbox().data.kktuIdsAtLevel(1);
		const [level2] = sandbox().data.kktuIdsAtLevel(2);
		const [leafA, leafB] = sandbox().data.kktuIdsAtLevel(3);
		await expect400({ ...DE, kktu_ids: [leafA, leafB] }, 'kktu_ids', 'exactly one');
		await expect400({ ...DE, kktu_ids: [level1] }, 'kktu_ids', 'level-1');
		await expect400({ ...DE, kktu_ids: [level2] }, 'kktu_ids', 'level-2');
		await expect400({ ...DE, kktu_ids: ['nope'] }, 'kktu_ids', 'unknown KKTU id');
		const ok = await create({ ...DE, kktu_ids: [leafA] });
		expect(ok.status).toBe(201);
		expect(ok.body.kktu_ids).toEqual([leafA]);
	});

	test('a cabinet with automatic labelling needs a KKTU id', async () => {
		await expect400(UZ, 'kktu_ids', 'automatic labelling');
		await expect400({ ...UZ, kktu_ids: [] }, 'kktu_ids', 'automatic labelling');
		const [leaf] = sandbox().data.kktuIdsAtLevel(3);
		expect((await create({ ...UZ, kktu_ids: [leaf] })).status).toBe(201);
	});

	test(`${EVENT}: one id of the cabinet's pixel events`, async () => {
		const [event] = sandbox().data.pixelEventsOf('100002');
		const [foreign] = sandbox().data.pixelEventsOf('100003');
		await expect400({ ...DE, [EVENT]: [event[EVENT_ID_KEY]] }, EVENT, 'only one');
		await expect400({ ...DE, [EVENT]: 'missing' }, EVENT, 'does not exist');
		await expect400({ ...DE, [EVENT]: foreign[EVENT_ID_KEY] }, EVENT, 'cabinet 100002');
		await expect400({ ...DE, [EVENT]: event.id }, EVENT, event[EVENT_ID_KEY] as string);
		const ok = await create({ ...DE, [EVENT]: event[EVENT_ID_KEY] });
		expect(ok.status).toBe(201);
		expect(ok.body.event).toEqual({ [EVENT]: event[EVENT_ID_KEY], name: event.title });
		expect((await create({ ...DE, [EVENT]: null })).body.event).toEqual({
			[EVENT]: null,
			name: null,
		});
	});

	test('ad_object is required for channel invite links', async () => {
		await expect400({ ...DE, promote_url: 'https://t.me/+AbCdEf123' }, 'ad_object', 'invite link');
		await expect400(
			{ ...DE, promote_url: 'https://t.me/joinchat/AAAAB' },
			'ad_object',
			'invite link',
		);
		const ok = await create({
			...DE,
			promote_url: 'https://t.me/+AbCdEf123',
			ad_object: 'https://t.me/new_private_channel',
		});
		expect(ok.status).toBe(201);
		expect((await base.get('/api/report/objects')).body).toContain(
			'https://t.me/new_private_channel',
		);
		expect((await create({ ...DE, promote_url: 'https://t.me/plus_channel' })).status).toBe(201);
	});

	test('target bots must pass bot validation (1000+ daily users)', async () => {
		const small = { id: 880004, url: 'https://t.me/tiny_notes_bot' };
		const big = { id: 880001, url: 'https://t.me/shop_helper_bot' };
		await expect400(
			{ ...DE, ad_type: 'target_bots', target_bots: [small] },
			'target_bots[0].url',
			'advertisement__target_bot_daily_users_limit_error',
		);
		await expect400({ ...DE, ad_type: 'target_bots' }, 'target_bots', 'required');
		await expect400(
			{ ...DE, ad_type: 'target_bots', target_bots: [{ id: 1, url: big.url }] },
			'target_bots[0].id',
			'does not match',
		);
		const ok = await create({ ...DE, ad_type: 'target_bots', target_bots: [big] });
		expect(ok.status).toBe(201);
		expect(ok.body.target_bots).toEqual([
			{ url: big.url, title: 'Shop Helper', photo_url: expect.stringContaining('shop_helper_bot') },
		]);
	});

	test('audiences exist only for the Uzbekistan cabinet and must be its own', async () => {
		await expect400({ ...DE, audiences: [55001] }, 'audiences', 'Uzbekistan');
		const [leaf] = sandbox().data.kktuIdsAtLevel(3);
		await expect400({ ...UZ, kktu_ids: [leaf], audiences: [55101] }, 'audiences', '55101');
		const ok = await create({
			...UZ,
			kktu_ids: [leaf],
			audiences: [55001],
			exclude_audiences: [55002],
		});
		expect(ok.body).toMatchObject({
			audiences: [55001],
			is_audiences: true,
			is_exclude_audiences: true,
		});
	});

	test('media_token must come from an upload', async () => {
		await expect400({ ...DE, media_token: 'made-up' }, 'media_token', 'upload');
	});

	test('a new ad starts delivering: its statistics appear once the clock moves on', async () => {
		const sb = sandbox();
		const created = await create({ ...DE, title: 'Fresh delivery' });
		const id = created.body.ad_id;
		const body = {
			period_from: '2026-03-10',
			period_to: '2026-03-10',
			period_grouping_unit: 'day',
			grouping: ['ad'],
		};
		const hasRow = () => sb.data.statsRows(body).some((r) => r.ad_id === id);
		expect(hasRow()).toBe(false);
		sb.clock.advance(3 * 60 * 60_000);
		try {
			expect(hasRow()).toBe(true);
			const page = await base.post('/api/v1/stats/page', { json: { ...body, limit: 500 } });
			expect(page.body.rows.find((r: { ad_id: number }) => r.ad_id === id)).toMatchObject({
				ad_title: 'Fresh delivery',
				ad_status: 'active',
			});
		} finally {
			sb.clock.set('2026-03-10T12:34:00Z');
		}
	});
});
