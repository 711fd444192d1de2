import { listSearch, loadOptions } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';
import { EVENT } from '../support/adFixtures';

describe('Ad Cabinet Ads → dropdowns list the sandbox data', () => {
	const sandbox = useSandbox();
	const create = { resource: 'ad', operation: 'create', accountId: '100001' };

	test('KKTU lists only third-level categories and is searchable', async () => {
		const all = await listSearch('adCabinetAds', 'searchKktu', create, credentialsFor(sandbox()));
		const leaves = sandbox().data.kktuIdsAtLevel(3);
		expect(all.results.map((r) => r.value).sort()).toEqual([...leaves].sort());
		const hotels = await listSearch(
			'adCabinetAds',
			'searchKktu',
			create,
			credentialsFor(sandbox()),
			'hotels',
		);
		expect(hotels.results.map((r) => r.name)).toEqual([
			'5.2.1 Travel / Hotels / Hotels: goods',
			'5.2.2 Travel / Hotels / Hotels: services',
			'5.2.3 Travel / Hotels / Hotels: promotions',
		]);
		expect(apiRequests(sandbox()).every((r) => r.path === '/api/kktu')).toBe(true);
	});

	test("Pixel Event lists the cabinet's events by ext_event_id and shows it", async () => {
		const options = await loadOptions(
			'adCabinetAds',
			'getPixelEvents',
			create,
			credentialsFor(sandbox()),
		);
		const events = sandbox().data.pixelEventsOf('100001');
		expect(options.map((o) => o.value)).toEqual(events.map((e) => e[EVENT as 'ext_event_id']));
		for (const [i, option] of options.entries()) {
			expect(option.name).toBe(`${events[i].title} (${events[i][EVENT as 'ext_event_id']})`);
		}
		const other = await loadOptions(
			'adCabinetAds',
			'getPixelEvents',
			{ ...create, accountId: '100002' },
			credentialsFor(sandbox()),
		);
		expect(other.map((o) => o.value)).toEqual(
			sandbox()
				.data.pixelEventsOf('100002')
				.map((e) => e[EVENT as 'ext_event_id']),
		);
	});

	test("Audiences and Excluded Audiences list the cabinet's audiences", async () => {
		const options = await loadOptions(
			'adCabinetAds',
			'getAudiences',
			create,
			credentialsFor(sandbox()),
		);
		expect(options).toEqual([
			{ name: 'Loyal customers Tashkent', value: 55001 },
			{ name: 'App installers', value: 55002 },
			{ name: 'Newsletter subscribers', value: 55003 },
		]);
		const noCabinet = await loadOptions(
			'adCabinetAds',
			'getAudiences',
			{ ...create, accountId: '' },
			credentialsFor(sandbox()),
		);
		expect(noCabinet).toEqual([]);
	});
});
