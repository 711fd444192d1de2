import { apiClient, rawFetch, TEST_NOW } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

describe.each(['telegram', 'ext'] as const)(
	'POST /__sandbox/ads/{ad_id}/status (%s form)',
	(platform) => {
		const sandbox = useSandbox({ platform, now: TEST_NOW, adCount: 30 });
		const base = apiClient(sandbox, 'base');
		const control = (path: string, json: unknown) =>
			rawFetch(`http://127.0.0.1:${sandbox().port}/__sandbox/${path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(json),
			});
		const listed = async (id: number) => {
			const response = await base.get('/api/v2/advertisement/', {
				query: { show_deleted: 'true', limit: 500 },
			});
			return (response.body.data as Record<string, unknown>[]).find((item) => item.id === id);
		};
		const detail = async (id: number) =>
			(await base.get(`/api/advertisement/${platform}/${id}`)).body as Record<string, unknown>;

		test('declined with reasons: the list and the detail show the status, the time of the change and the reasons', async () => {
			const ad = sandbox().data.ads.find((a) => a.status === 'active');
			if (!ad) throw new Error('no active ad seeded');
			sandbox().clock.set(new Date('2026-03-10T13:00:00Z'));
			const reasons = [{ reason: 'The text promises guaranteed income' }];
			const answer = await control(`ads/${ad.id}/status`, {
				status: 'declined',
				decline_reason: reasons,
			});
			expect(answer.status).toBe(200);
			expect(answer.body).toMatchObject({ ad_id: ad.id, status: 'declined' });
			expect(await listed(ad.id)).toMatchObject({
				status: 'declined',
				status_updated_dt: '2026-03-10T13:00:00+00:00',
			});
			expect(await detail(ad.id)).toMatchObject({
				status: 'declined',
				decline_reason: reasons,
				status_updated_dt: '2026-03-10T13:00:00+00:00',
			});

			// Out of moderation again: the reasons go with the declined status.
			sandbox().clock.set(new Date('2026-03-10T14:00:00Z'));
			await control(`ads/${ad.id}/status`, { status: 'in_review' });
			expect(await detail(ad.id)).toMatchObject({
				status: 'in_review',
				decline_reason: [],
				status_updated_dt: '2026-03-10T14:00:00+00:00',
			});
		});

		test('deleted: the ad leaves the default list and stays in the list with show_deleted', async () => {
			const ad = sandbox().data.ads.find((a) => a.status === 'active');
			if (!ad) throw new Error('no active ad seeded');
			expect((await control(`ads/${ad.id}/status`, { status: 'deleted' })).status).toBe(200);
			const visible = (await base.get('/api/v2/advertisement/', { query: { limit: 500 } })).body
				.data as Record<string, unknown>[];
			expect(visible.map((item) => item.id)).not.toContain(ad.id);
			expect(await listed(ad.id)).toMatchObject({ status: 'deleted' });
		});

		test.each([
			[{ status: 'paused' }, 400, 'status'],
			[{}, 400, 'status'],
			[{ status: 'declined', decline_reason: 'spam' }, 400, 'decline_reason'],
			[{ status: 'active', decline_reason: [{ reason: 'x' }] }, 400, 'decline_reason'],
		])('%j is refused with %i naming %s, and nothing changes', async (body, status, field) => {
			const ad = sandbox().data.ads[0];
			const before = { status: ad.status, at: ad.statusUpdatedAt };
			const answer = await control(`ads/${ad.id}/status`, body);
			expect(answer.status).toBe(status);
			expect(answer.text).toContain(field);
			expect({ status: ad.status, at: ad.statusUpdatedAt }).toEqual(before);
		});

		test('an ad that does not exist answers 404', async () => {
			const answer = await control('ads/999999999/status', { status: 'active' });
			expect(answer.status).toBe(404);
		});
	},
);
