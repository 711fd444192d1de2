import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { pollOnce, runNode } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { cabinetIdIn, PLATFORMS } from '../../sandbox';
import { sharedClock } from '../support/triggerClock';
import { useSandbox } from '../support/useSandbox';

const NOW = '2026-11-17T09:00:00Z';

/**
 * Every node against the sandbox in both forms of the API, the form chosen by the credential's
 * platform. The node suites run the real form; these reads show the spec's form still works for
 * the nodes whose requests name no platform, and that ids come back in each form's own shape.
 */
describe.each(PLATFORMS)('every node in the %s form', (platform) => {
	const sandbox = useSandbox({ platform, now: NOW, adCount: 200 });
	const clock = sharedClock(sandbox);
	afterEach(() => clock.stop());
	const cabinets = ['100001', '100002', '100003'].map((id) => cabinetIdIn(platform, id));
	const run = async (type: string, parameters: INodeParameters) => {
		const result = await runNode({ type, parameters, credentials: credentialsFor(sandbox()) });
		expect(result.error).toBeUndefined();
		return result.items.map((item) => item.json);
	};
	const segment = platform === 'telegram' ? 'telegram' : 'ext';

	test('Stats: statistics rows name the cabinets by the form ids', async () => {
		const rows = await run('adCabinetStats', {
			resource: 'statistic',
			operation: 'getAll',
			period: 'custom',
			periodFrom: '2026-11-01T00:00:00Z',
			periodTo: '2026-11-02T23:59:59Z',
			periodGroupingUnit: 'day',
			grouping: ['cabinet'],
			currency: 'EUR',
			returnAll: true,
			filters: {},
			options: {},
		});
		expect(new Set(rows.map((row) => row.platform_cabinet_id))).toEqual(new Set(cabinets));
		expect(apiRequests(sandbox()).every((r) => r.path === '/api/v1/stats/page')).toBe(true);
	});

	test("Ads: Get Many lists ads of the form's cabinets, Get reads one by the form's path", async () => {
		const ads = await run('adCabinetAds', {
			resource: 'ad',
			operation: 'getAll',
			returnAll: false,
			limit: 5,
		});
		expect(ads).toHaveLength(5);
		const detail = await run('adCabinetAds', {
			resource: 'ad',
			operation: 'get',
			adId: { __rl: true, mode: 'id', value: String(ads[0].id) },
		});
		expect(cabinets).toContain(detail[0].account_id);
		expect(apiRequests(sandbox()).at(-1)?.path).toBe(
			`/api/advertisement/${segment}/${String(ads[0].id)}`,
		);
	});

	test('KKTU: the category tree', async () => {
		const categories = await run('adCabinetKktu', {
			resource: 'category',
			operation: 'getAll',
			returnAll: true,
		});
		expect(categories.length).toBeGreaterThan(10);
	});

	test('Pixel Events, Audiences and Media: the cabinet-bound reads and the upload', async () => {
		const [uz] = cabinets;
		const events = await run('adCabinetPixelEvents', {
			resource: 'pixelEvent',
			operation: 'getAll',
			accountId: uz,
		});
		expect(events.length).toBeGreaterThan(0);
		const audiences = await run('adCabinetAudiences', {
			resource: 'audience',
			operation: 'getAll',
			accountId: uz,
		});
		expect(audiences.length).toBeGreaterThan(0);
		const png = Buffer.from(
			'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
			'base64',
		);
		const upload = await runNode({
			type: 'adCabinetMedia',
			parameters: {
				resource: 'media',
				operation: 'upload',
				accountId: uz,
				binaryPropertyName: 'data',
			},
			credentials: credentialsFor(sandbox()),
			input: [
				{
					json: {},
					binary: {
						data: { data: png.toString('base64'), mimeType: 'image/png', fileName: 'a.png' },
					},
				},
			],
		});
		expect(upload.error).toBeUndefined();
		expect(upload.items[0].json.media_token).toEqual(expect.any(String));
		expect(apiRequests(sandbox()).map((r) => r.path)).toEqual([
			'/api/pixel_events/',
			`/api/advertisement/${segment}/${uz}/audiences/`,
			`/api/v1/advertising/${segment}/upload_media`,
		]);
	});

	test("Stats Trigger: Fetch Test Event returns the latest rows with the form's cabinet ids", async () => {
		clock.start(NOW);
		const { items, error } = await pollOnce({
			type: 'adCabinetStatsTrigger',
			parameters: {
				periodGroupingUnit: 'day',
				grouping: ['cabinet'],
				emit: 'completed',
				startFrom: 'now',
				currency: 'EUR',
				numericValues: false,
				filters: {},
				options: {},
			},
			credentials: credentialsFor(sandbox()),
			staticData: {},
			mode: 'manual',
		});
		expect(error).toBeUndefined();
		const rows = (items ?? []).map((item) => item.json as IDataObject);
		expect(rows.length).toBeGreaterThan(0);
		for (const row of rows) expect(cabinets).toContain(row.platform_cabinet_id);
	});
});
