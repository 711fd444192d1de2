import { apiClient, TEST_NOW } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

/** These tests run the spec's form (platform 'ext'). */
const PLATFORM = 'ext';

const EVENT_KEYS = [
	'id',
	'pixel_id',
	`${PLATFORM}_event_id`,
	'title',
	'type',
	'status',
	'ads_count',
	'created_at',
	'last_triggered_at',
	'code_snippet',
];

describe('pixel tag events', () => {
	const sandbox = useSandbox({ platform: 'ext', now: TEST_NOW, adCount: 120 });
	const client = apiClient(sandbox, 'client');

	test('list: { items } with every event field; ads_count counts linked ads', async () => {
		const { status, body } = await client.get('/api/pixel_events/', {
			query: { account_id: '100002' },
		});
		expect(status).toBe(200);
		expect(body.items.length).toBe(4);
		for (const item of body.items) {
			expect(Object.keys(item)).toEqual(EVENT_KEYS);
			expect(['active', 'inactive']).toContain(item.status);
			expect(item.code_snippet).toContain(item[`${PLATFORM}_event_id`]);
			const linked = sandbox().data.ads.filter(
				(ad) => ad.accountId === '100002' && ad.fields.eventId === item[`${PLATFORM}_event_id`],
			);
			expect(item.ads_count).toBe(linked.length);
		}
		expect(body.items.some((i: { ads_count: number }) => i.ads_count > 0)).toBe(true);
	});

	test('list needs account_id (400) and permission (403)', async () => {
		const missing = await client.get('/api/pixel_events/');
		expect(missing.status).toBe(400);
		expect(missing.body.errors).toHaveProperty('account_id');
		expect(
			(await client.get('/api/pixel_events/', { query: { account_id: '100004' } })).status,
		).toBe(403);
	});

	test('types and base code', async () => {
		const types = await client.get('/api/pixel_events/types');
		expect(types.body).toEqual({
			items: [
				{ type: 'page_view', label: 'Page view' },
				{ type: 'purchase', label: 'Purchase' },
				{ type: 'custom', label: 'Custom event' },
			],
		});
		const code = await client.get('/api/pixel_events/100001/code_snippet');
		expect(code.status).toBe(200);
		expect(Object.keys(code.body)).toEqual(['id', `${PLATFORM}_pixel_id`, 'code_snippet']);
		expect(code.body.code_snippet).toContain(code.body[`${PLATFORM}_pixel_id`]);
		expect((await client.get('/api/pixel_events/100004/code_snippet')).status).toBe(403);
	});

	test('create: 201 with the event; 400 lists missing/invalid fields; 403; 422 lists valid types', async () => {
		const created = await client.post('/api/pixel_events/', {
			json: { account_id: '100002', title: 'Checkout', type: 'purchase' },
		});
		expect(created.status).toBe(201);
		expect(Object.keys(created.body)).toEqual(EVENT_KEYS);
		expect(created.body).toMatchObject({
			title: 'Checkout',
			type: 'purchase',
			status: 'active',
			ads_count: 0,
			last_triggered_at: null,
		});
		const listed = await client.get('/api/pixel_events/', { query: { account_id: '100002' } });
		expect(listed.body.items.map((i: { id: string }) => i.id)).toContain(created.body.id);

		const invalid = await client.post('/api/pixel_events/', {
			json: { account_id: 100002, type: 'custom' },
		});
		expect(invalid.status).toBe(400);
		expect(Object.keys(invalid.body.errors).sort()).toEqual(['account_id', 'title']);
		expect(invalid.body.detail).toContain('title: is required');
		const forbidden = await client.post('/api/pixel_events/', {
			json: { account_id: '100004', title: 'x', type: 'custom' },
		});
		expect(forbidden.status).toBe(403);
		const unsupported = await client.post('/api/pixel_events/', {
			json: { account_id: '100002', title: 'x', type: 'lead' },
		});
		expect(unsupported.status).toBe(422);
		expect(unsupported.body.detail).toContain('page_view, purchase, custom');
	});

	test('rename: 204 without a body; 400, 403, 404', async () => {
		const [event] = sandbox().data.pixelEventsOf('100003');
		const renamed = await client.patch(`/api/pixel_events/${event.id}`, {
			json: { account_id: '100003', title: 'Renamed event' },
		});
		expect(renamed.status).toBe(204);
		expect(renamed.text).toBe('');
		expect(sandbox().data.pixelEventsOf('100003')[0].title).toBe('Renamed event');
		const invalid = await client.patch(`/api/pixel_events/${event.id}`, {
			json: { account_id: '100003' },
		});
		expect(invalid.status).toBe(400);
		expect(invalid.body.errors).toHaveProperty('title');
		const forbidden = await client.patch(`/api/pixel_events/${event.id}`, {
			json: { account_id: '100004', title: 'x' },
		});
		expect(forbidden.status).toBe(403);
		const missing = await client.patch('/api/pixel_events/424242', {
			json: { account_id: '100003', title: 'x' },
		});
		expect(missing.status).toBe(404);
		const otherAccount = await client.patch(`/api/pixel_events/${event.id}`, {
			json: { account_id: '100002', title: 'x' },
		});
		expect(otherAccount.status).toBe(404);
	});

	test('delete: 204 without a body, a second delete 404; 403; unknown account 404', async () => {
		const created = await client.post('/api/pixel_events/', {
			json: { account_id: '100001', title: 'Temp', type: 'custom' },
		});
		const path = `/api/pixel_events/100001/events/${created.body.id}`;
		const deleted = await client.delete(path);
		expect(deleted.status).toBe(204);
		expect(deleted.text).toBe('');
		expect(deleted.headers.get('content-length')).toBe('0');
		expect(
			sandbox()
				.data.pixelEventsOf('100001')
				.map((e) => e.id),
		).not.toContain(created.body.id);
		expect((await client.delete(path)).status).toBe(404);
		const [foreign] = sandbox().data.pixelEventsOf('100004');
		expect((await client.delete(`/api/pixel_events/100004/events/${foreign.id}`)).status).toBe(403);
		const unknownAccount = await client.delete(`/api/pixel_events/777/events/${foreign.id}`);
		expect(unknownAccount.status).toBe(404);
		expect(unknownAccount.body.detail).toContain('777');
	});

	test('deleting a linked event unlinks it from ads', async () => {
		const linkedAd = sandbox().data.ads.find((ad) => ad.fields.eventId !== null);
		expect(linkedAd).toBeDefined();
		const event = sandbox().data.pixelEventByPlatformId(
			linkedAd?.accountId ?? '',
			linkedAd?.fields.eventId ?? '',
		);
		expect(
			(await client.delete(`/api/pixel_events/${event?.account_id}/events/${event?.id}`)).status,
		).toBe(204);
		expect(linkedAd?.fields.eventId).toBeNull();
	});
});
