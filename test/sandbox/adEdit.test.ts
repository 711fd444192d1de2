import { apiClient, TEST_NOW } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

/** These tests run the spec's form (platform 'ext'). */
const PLATFORM = 'ext';
const EVENT_ID_KEY = 'ext_event_id';

const EVENT = `${PLATFORM}_event_id`;
const path = (id: number | string) => `/api/advertisement/${PLATFORM}/${id}`;

describe('edit ads', () => {
	const sandbox = useSandbox({ platform: 'ext', now: TEST_NOW, adCount: 80 });
	const base = apiClient(sandbox, 'base');
	const adIn = (accountId: string, status = 'active') => {
		const ad = sandbox().data.ads.find((a) => a.accountId === accountId && a.status === status);
		if (!ad) throw new Error(`no ${status} ad in ${accountId}`);
		return ad;
	};

	async function expect400(id: number, json: unknown, field: string, text: string) {
		const response = await base.put(path(id), { json });
		expect(response.status).toBe(400);
		expect(response.body.errors).toHaveProperty([field]);
		expect(response.body.detail).toContain(field);
		expect(response.body.detail).toContain(text);
	}

	test('a partial edit changes only the fields sent and answers 200 with the detail', async () => {
		const ad = adIn('100002');
		const before = (await base.get(path(ad.id))).body;
		const response = await base.put(path(ad.id), { json: { title: 'Renamed', cpm: 3.75 } });
		expect(response.status).toBe(200);
		expect(response.body).toEqual({ ...before, title: 'Renamed', cpm: 3.75 });
		expect((await base.get(path(ad.id))).body).toEqual(response.body);
	});

	test('fields the edit endpoint does not list are refused, even ones create accepts', async () => {
		const ad = adIn('100002');
		await expect400(ad.id, { budget: 500 }, 'budget', 'cannot be changed');
		await expect400(ad.id, { campaign_id: 2202 }, 'campaign_id', 'cannot be changed');
		await expect400(ad.id, { ad_type: 'target_users' }, 'ad_type', 'cannot be changed');
		await expect400(ad.id, { langs: ['en'] }, 'langs', 'cannot be changed');
		await expect400(ad.id, { nickname: 'x' }, 'nickname', 'unknown field');
		expect((await base.get(path(ad.id))).body.budget).toBe(ad.fields.budget);
	});

	test('types and rules are those of create', async () => {
		const ad = adIn('100002');
		await expect400(ad.id, { cpm: 'cheap' }, 'cpm', 'must be a number');
		await expect400(ad.id, { daily_budget: 0 }, 'daily_budget', 'greater than 0');
		await expect400(ad.id, { schedule: { sun: [25] } }, 'schedule.sun', '0 to 23');
		await expect400(ad.id, { views_per_user: 0 }, 'views_per_user', 'at least 1');
		await expect400(ad.id, { button_type: 'buy_now' }, 'button_type', 'open_website');
	});

	test('schedule, schedule_timezone and media_token may be null on edit', async () => {
		const ad = adIn('100002');
		const response = await base.put(path(ad.id), {
			json: { schedule: null, schedule_timezone: null, media_token: null },
		});
		expect(response.status).toBe(200);
		expect(response.body).toMatchObject({ schedule: null, schedule_timezone: null, media: null });
	});

	test('kktu_ids on edit: one third-level id', async () => {
		const ad = adIn('100001');
		const [level1] = sandbox().data.kktuIdsAtLevel(1);
		const [leafA, leafB] = sandbox().data.kktuIdsAtLevel(3);
		await expect400(ad.id, { kktu_ids: [leafA, leafB] }, 'kktu_ids', 'exactly one');
		await expect400(ad.id, { kktu_ids: [level1] }, 'kktu_ids', 'level-1');
		await expect400(ad.id, { kktu_ids: [] }, 'kktu_ids', 'automatic labelling');
		const ok = await base.put(path(ad.id), { json: { kktu_ids: [leafB] } });
		expect(ok.status).toBe(200);
		expect(ok.body.kktu_ids).toEqual([leafB]);
		const code = sandbox().data.kktuNode(leafB)?.code;
		const listed = await base.get('/api/v2/advertisement/', {
			query: { advertisement_titles: ad.fields.title },
		});
		expect(listed.body.data[0].kktu_codes).toEqual([code]);
	});

	test(`${EVENT} on edit: one value, the cabinet's own; null unlinks`, async () => {
		const ad = adIn('100003');
		const [event] = sandbox().data.pixelEventsOf('100003');
		await expect400(ad.id, { [EVENT]: [event[EVENT_ID_KEY]] }, EVENT, 'only one');
		await expect400(
			ad.id,
			{ [EVENT]: sandbox().data.pixelEventsOf('100002')[0][EVENT_ID_KEY] },
			EVENT,
			'does not exist',
		);
		const linked = await base.put(path(ad.id), { json: { [EVENT]: event[EVENT_ID_KEY] } });
		expect(linked.body.event).toEqual({ [EVENT]: event[EVENT_ID_KEY], name: event.title });
		const unlinked = await base.put(path(ad.id), { json: { [EVENT]: null } });
		expect(unlinked.body.event).toEqual({ [EVENT]: null, name: null });
	});

	test('dates are checked against the stored ones', async () => {
		const ad = adIn('100002');
		expect(
			(
				await base.put(path(ad.id), {
					json: { start_date: '2026-05-01T00:00:00Z', end_date: '2026-06-01T00:00:00Z' },
				})
			).status,
		).toBe(200);
		await expect400(ad.id, { end_date: '2026-04-01T00:00:00Z' }, 'end_date', 'before end_date');
		await expect400(ad.id, { start_date: '2026-07-01T00:00:00Z' }, 'start_date', 'before end_date');
	});

	test('unknown, non-numeric and deleted ads', async () => {
		expect((await base.put(path(12345678), { json: { title: 'x' } })).status).toBe(404);
		expect((await base.put(path('x1'), { json: { title: 'x' } })).status).toBe(404);
		const deleted = sandbox().data.ads.find((a) => a.status === 'deleted');
		expect(deleted).toBeDefined();
		const response = await base.put(path(deleted?.id ?? 0), { json: { title: 'x' } });
		expect(response.status).toBe(400);
		expect(response.body.detail).toContain('deleted');
	});

	test('an edited title shows in statistics rows', async () => {
		const ad = sandbox().data.ads.find(
			(a) => a.status === 'active' && a.runFrom < Date.parse('2026-03-01') && a.runUntil === null,
		);
		expect(ad).toBeDefined();
		const id = ad?.id ?? 0;
		await base.put(path(id), { json: { title: 'Stats title check' } });
		const rows = sandbox().data.statsRows({
			period_from: '2026-03-09',
			period_to: '2026-03-09',
			period_grouping_unit: 'day',
			grouping: ['ad'],
		});
		expect(rows.find((r) => r.ad_id === id)?.ad_title).toBe('Stats title check');
		const page = await base.post('/api/v1/stats/page', {
			json: {
				period_from: '2026-03-09',
				period_to: '2026-03-09',
				period_grouping_unit: 'day',
				grouping: ['ad'],
			},
		});
		expect(page.body.rows).toEqual(rows);
	});
});
