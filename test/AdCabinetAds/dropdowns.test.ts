import { listSearch, loadOptions } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { cabinetIdIn, PLATFORMS } from '../../sandbox';
import { useSandbox } from '../support/useSandbox';
import { EVENT_FIELD } from '../support/adFixtures';

describe.each(PLATFORMS)(
	'Ad Cabinet Ads → dropdowns list the sandbox data (%s form)',
	(platform) => {
		const sandbox = useSandbox({ platform });
		const UZ = cabinetIdIn(platform, '100001');
		const DE = cabinetIdIn(platform, '100002');
		const EVENT = EVENT_FIELD[platform];
		const create = { resource: 'ad', operation: 'create', accountId: UZ };

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

		test("Pixel Event lists the cabinet's events by the form's event id and shows it", async () => {
			const options = await loadOptions(
				'adCabinetAds',
				'getPixelEvents',
				create,
				credentialsFor(sandbox()),
			);
			const events = sandbox().data.pixelEventsOf(UZ);
			expect(options.length).toBeGreaterThan(0);
			expect(options.map((o) => o.value)).toEqual(events.map((e) => e[EVENT]));
			for (const [i, option] of options.entries()) {
				expect(option.name).toBe(`${events[i].title} (${events[i][EVENT]})`);
				expect(option.name).not.toContain('undefined');
			}
			const other = await loadOptions(
				'adCabinetAds',
				'getPixelEvents',
				{ ...create, accountId: DE },
				credentialsFor(sandbox()),
			);
			expect(other.map((o) => o.value)).toEqual(
				sandbox()
					.data.pixelEventsOf(DE)
					.map((e) => e[EVENT]),
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
			const segment = platform === 'telegram' ? 'telegram' : 'ext';
			expect(apiRequests(sandbox()).map((r) => r.path)).toEqual([
				`/api/advertisement/${segment}/${UZ}/audiences/`,
			]);
			const noCabinet = await loadOptions(
				'adCabinetAds',
				'getAudiences',
				{ ...create, accountId: '' },
				credentialsFor(sandbox()),
			);
			expect(noCabinet).toEqual([]);
		});
	},
);
