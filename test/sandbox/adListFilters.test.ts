import { apiWrites } from '../../harness/sandbox';
import { PLATFORMS } from '../../sandbox';
import { apiClient, TEST_NOW } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

const LIST = '/api/v2/advertisement/';

describe.each(PLATFORMS)('ad list filters and the write log (%s form)', (platform) => {
	const sandbox = useSandbox({ platform, now: TEST_NOW });
	const base = apiClient(sandbox, 'base');
	const ad = {
		campaign_id: 2201,
		title: 'Filter check, winter',
		text: 'Warm coats for the season',
		promote_url: 'https://t.me/berlin_startups',
		cpm: 2.5,
		budget: 150,
	};

	test('a created ad is listed under its title and campaign name; deleted ads only with show_deleted', async () => {
		const created = await base.post(`/api/advertisement/${platform}/`, { json: ad });
		expect(created.status).toBe(201);
		const byTitle = await base.get(LIST, { query: { advertisement_titles: ad.title } });
		const ids = (byTitle.body.data as { id: number; campaign_id: number }[]).map((i) => i.id);
		const newest = Math.max(...sandbox().data.ads.map((a) => a.id));
		expect(ids).toContain(newest);
		const both = await base.get(LIST, {
			query: { advertisement_titles: ad.title, campaign_names: 'Berlin Black Friday' },
		});
		expect((both.body.data as { id: number }[]).map((i) => i.id)).toEqual([newest]);
		const other = await base.get(LIST, {
			query: { advertisement_titles: ad.title, campaign_names: 'Kazan Events' },
		});
		expect(other.body.data).toEqual([]);

		const stored = sandbox().data.ads.find((a) => a.id === newest);
		if (!stored) throw new Error('created ad not stored');
		stored.status = 'deleted';
		const hidden = await base.get(LIST, { query: { advertisement_titles: ad.title } });
		expect((hidden.body.data as { id: number }[]).map((i) => i.id)).not.toContain(newest);
		const shown = await base.get(LIST, {
			query: { advertisement_titles: ad.title, show_deleted: 'true' },
		});
		expect((shown.body.data as { id: number }[]).map((i) => i.id)).toContain(newest);
	});

	test('offset and limit page a filtered list', async () => {
		const query = { campaign_names: 'Berlin Black Friday', limit: 500 };
		const all = (await base.get(LIST, { query })).body.data as { id: number }[];
		expect(all.length).toBeGreaterThan(3);
		const page = await base.get(LIST, { query: { ...query, offset: 1, limit: 2 } });
		expect((page.body.data as { id: number }[]).map((i) => i.id)).toEqual(
			all.slice(1, 3).map((i) => i.id),
		);
	});

	test('the request log holds every write and no read among them', async () => {
		await base.get(LIST, { query: { limit: 1 } });
		await base.post(`/api/advertisement/${platform}/`, { json: { ...ad, title: 'Log check' } });
		const writes = apiWrites(sandbox());
		expect(writes.map((w) => [w.method, w.path])).toEqual([
			['POST', `/api/advertisement/${platform}/`],
		]);
		expect(writes[0].body).toMatchObject({ title: 'Log check' });
	});
});
