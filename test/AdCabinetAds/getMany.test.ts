import type { INodeParameters } from 'n8n-workflow';
import { listSearch, runNode } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';

const NOW = '2026-11-20T12:00:00.000Z';

describe('Ad Cabinet Ads → Get Many and Get', () => {
	const sandbox = useSandbox({ now: NOW });
	const run = (parameters: INodeParameters) =>
		runNode({ type: 'adCabinetAds', parameters, credentials: credentialsFor(sandbox()) });
	/** The ads the list endpoint serves without filters, written from the sandbox's records. */
	const visibleIds = () =>
		sandbox()
			.data.ads.filter(
				(ad) => ad.status !== 'deleted' && sandbox().data.cabinet(ad.accountId)?.permitted,
			)
			.map((ad) => ad.id)
			.sort((a, b) => a - b);

	test('Return All pages by offset in 500s: every ad once, as the list endpoint serves it', async () => {
		expect(sandbox().data.ads.length).toBeGreaterThanOrEqual(1200);
		const { items, error } = await run({
			resource: 'ad',
			operation: 'getAll',
			returnAll: true,
			filters: {},
		});
		expect(error).toBeUndefined();
		const ids = items.map((item) => item.json.id as number);
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids).toEqual(visibleIds());
		expect(ids.length).toBeGreaterThan(1000);
		expect(items[0].json).toEqual(sandbox().data.adListItem(ids[0]));
		const log = apiRequests(sandbox());
		expect(log.map((r) => [r.method, r.path, r.query])).toEqual([
			['GET', '/api/v2/advertisement/', { offset: '0', limit: '500' }],
			['GET', '/api/v2/advertisement/', { offset: '500', limit: '500' }],
			['GET', '/api/v2/advertisement/', { offset: '1000', limit: '500' }],
		]);
	});

	test('Limit 50 (the default) is one request of 50; Limit 700 asks for 500, then 200', async () => {
		const fifty = await run({ resource: 'ad', operation: 'getAll', filters: {} });
		expect(fifty.items.map((item) => item.json.id)).toEqual(visibleIds().slice(0, 50));
		expect(apiRequests(sandbox()).map((r) => r.query)).toEqual([{ offset: '0', limit: '50' }]);
		sandbox().clearLog();
		const many = await run({
			resource: 'ad',
			operation: 'getAll',
			returnAll: false,
			limit: 700,
			filters: {},
		});
		expect(many.items.map((item) => item.json.id)).toEqual(visibleIds().slice(0, 700));
		expect(apiRequests(sandbox()).map((r) => r.query)).toEqual([
			{ offset: '0', limit: '500' },
			{ offset: '500', limit: '200' },
		]);
	});

	test('filters are sent as the API documents them: period, show_deleted, titles and campaign names repeated', async () => {
		const data = sandbox().data;
		const [first, second] = data.ads.filter((ad) => ad.campaignId === 2201);
		const titles = [first.fields.title, second.fields.title];
		const { items, error } = await run({
			resource: 'ad',
			operation: 'getAll',
			returnAll: true,
			filters: {
				period: 'all',
				showDeleted: true,
				advertisementTitles: titles,
				campaignNames: ['Berlin Black Friday'],
			},
		});
		expect(error).toBeUndefined();
		const [request] = apiRequests(sandbox());
		expect(request.query).toEqual({
			period: 'all',
			show_deleted: 'true',
			advertisement_titles: titles,
			campaign_names: 'Berlin Black Friday',
			offset: '0',
			limit: '500',
		});
		expect(items.map((item) => item.json.id)).toEqual([first.id, second.id]);
		expect(items.every((item) => item.json.campaign_name === 'Berlin Black Friday')).toBe(true);
	});

	test('period today returns only the ads created today', async () => {
		const { items } = await run({
			resource: 'ad',
			operation: 'getAll',
			returnAll: true,
			filters: { period: 'today' },
		});
		const today = NOW.slice(0, 10);
		const expected = sandbox()
			.data.ads.filter(
				(ad) =>
					new Date(ad.createdAt).toISOString().slice(0, 10) === today &&
					ad.status !== 'deleted' &&
					sandbox().data.cabinet(ad.accountId)?.permitted,
			)
			.map((ad) => ad.id);
		expect(expected.length).toBeGreaterThan(0);
		expect(items.map((item) => item.json.id)).toEqual(expected);
		expect(apiRequests(sandbox())[0].query.period).toBe('today');
	});

	test('Get by ID returns the ad detail; the locator lists the ads by title', async () => {
		const id = visibleIds()[3];
		const { items, error } = await run({
			resource: 'ad',
			operation: 'get',
			adId: { __rl: true, mode: 'id', value: String(id) },
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual([sandbox().data.adDetail(id)]);
		expect(apiRequests(sandbox()).map((r) => r.path)).toEqual([
			`/api/advertisement/telegram/${id}`,
		]);

		const title = sandbox().data.ad(id)?.fields.title as string;
		const found = await listSearch(
			'adCabinetAds',
			'searchAds',
			{ resource: 'ad', operation: 'get' },
			credentialsFor(sandbox()),
			title,
		);
		expect(found.results).toContainEqual(
			expect.objectContaining({ value: String(id), name: expect.stringContaining(title) }),
		);
		expect(
			found.results.every((result) => result.name.toLowerCase().includes(title.toLowerCase())),
		).toBe(true);

		const firstPage = await listSearch('adCabinetAds', 'searchAds', {}, credentialsFor(sandbox()));
		expect(firstPage.results.map((r) => Number(r.value))).toEqual(visibleIds().slice(0, 500));
		expect(firstPage.paginationToken).toBe('500');
		const lastPage = await listSearch(
			'adCabinetAds',
			'searchAds',
			{},
			credentialsFor(sandbox()),
			undefined,
			'1000',
		);
		expect(lastPage.results.map((r) => Number(r.value))).toEqual(visibleIds().slice(1000));
		expect(lastPage.paginationToken).toBeUndefined();
	});

	test('Get: an unknown ad is a 404 explained; a non-numeric ID is refused before any request', async () => {
		const missing = await run({
			resource: 'ad',
			operation: 'get',
			adId: { __rl: true, mode: 'id', value: '99999999' },
		});
		expect(missing.error?.httpCode).toBe('404');
		expect(missing.error?.message).toContain('Ad 99999999 was not found');
		sandbox().clearLog();
		// A typed 'abc' is stopped by the locator's own check in the editor; one from an expression reaches the node.
		const bad = await run({
			resource: 'ad',
			operation: 'get',
			adId: { __rl: true, mode: 'id', value: '={{ "abc" }}' },
		});
		expect(bad.error?.message).toMatch(/^Ad: must be a whole-number ad ID/);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});
});
