import { runNode } from '../../harness';
import { listSearch, loadOptions } from '../../harness/methods';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { TEST_NOW } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

/** Cabinet ID as a picker: From List (the real service's cabinet names) or By ID. */
describe('the Cabinet ID picker', () => {
	const sandbox = useSandbox({ platform: 'telegram', rateLimit: 'off', now: TEST_NOW });

	test.each(['adCabinetMedia', 'adCabinetPixelEvents', 'adCabinetAudiences', 'adCabinetAds'])(
		'%s lists every cabinet by name and ID, and finds one by a part of its name or its ID',
		async (type) => {
			const all = await listSearch(type, 'searchCabinets', {}, credentialsFor(sandbox()));
			expect(all.results.map((r) => r.value)).toEqual(['ACC06163', 'ACC07021', 'ACC07355']);
			expect(all.results[0].name).toMatch(/ \(ACC06163\)$/);
			const name = String(all.results[1].name).split(' (')[0];
			const byName = await listSearch(
				type,
				'searchCabinets',
				{},
				credentialsFor(sandbox()),
				name.slice(1, 6).toLowerCase(),
			);
			expect(byName.results.map((r) => r.value)).toContain('ACC07021');
			const byId = await listSearch(type, 'searchCabinets', {}, credentialsFor(sandbox()), '7355');
			expect(byId.results.map((r) => r.value)).toEqual(['ACC07355']);
			expect(apiRequests(sandbox()).every((r) => r.path === '/api/accounts/telegram/names')).toBe(
				true,
			);
		},
	);

	test('with the credential in the Generic form, From List says it cannot list cabinets and points at By ID; nothing is sent', async () => {
		sandbox().clearLog();
		await expect(
			listSearch(
				'adCabinetMedia',
				'searchCabinets',
				{},
				{ ...credentialsFor(sandbox()), platform: 'ext' },
			),
		).rejects.toThrow(
			'Platform (Ad Cabinet API credential): Cabinet lists exist only on the Telegram (Adstat) API; this credential\'s Platform is "Generic", whose API has no such endpoint. If your service is Telegram (Adstat), set Platform to it in the credential; otherwise choose "By ID" and type the cabinet ID. Nothing was sent to the API.',
		);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	test('a cabinet picked from the list reaches the request; a saved version 1 node with a typed ID keeps working', async () => {
		const picked = await runNode({
			type: 'adCabinetPixelEvents',
			parameters: {
				resource: 'pixelEvent',
				operation: 'getAll',
				accountId: { __rl: true, mode: 'list', value: 'ACC07021' },
			},
			credentials: credentialsFor(sandbox()),
		});
		expect(picked.error).toBeUndefined();
		expect(apiRequests(sandbox()).at(-1)?.query).toMatchObject({ account_id: 'ACC07021' });
		const saved = await runNode({
			type: 'adCabinetPixelEvents',
			typeVersion: 1,
			parameters: { resource: 'pixelEvent', operation: 'getAll', accountId: 'ACC07021' },
			credentials: credentialsFor(sandbox()),
		});
		expect(saved.error).toBeUndefined();
		expect(saved.items.map((item) => item.json)).toEqual(picked.items.map((item) => item.json));
	});

	test('an empty pick is refused before sending, naming the field', async () => {
		const { error } = await runNode({
			type: 'adCabinetMedia',
			parameters: {
				resource: 'media',
				operation: 'upload',
				accountId: { __rl: true, mode: 'list', value: '' },
				source: 'url',
				fileUrl: 'https://example.com/a.png',
			},
			credentials: credentialsFor(sandbox()),
		});
		expect(error?.message).toMatch(
			/^Cabinet ID: is required: pick a cabinet from the list, or give its ID, such as ACC0000 .*\. Nothing was sent/,
		);
	});
});

/** The statistics' cabinet filter (Stats 1.2, Stats Trigger 1.1): a multi-select fed by the same cabinet names. */
describe('the cabinet filter of Stats and the Stats Trigger', () => {
	const sandbox = useSandbox({ platform: 'telegram', rateLimit: 'off', now: TEST_NOW });

	test.each(['adCabinetStats', 'adCabinetStatsTrigger'])(
		'%s lists every cabinet the token sees by name and ID, worth its ID, as the picker does',
		async (type) => {
			const options = await loadOptions(type, 'getCabinets', {}, credentialsFor(sandbox()));
			const picker = await listSearch(
				type === 'adCabinetStats' ? 'adCabinetMedia' : 'adCabinetAds',
				'searchCabinets',
				{},
				credentialsFor(sandbox()),
			);
			expect(options).toEqual(picker.results.map(({ name, value }) => ({ name, value })));
			expect(options.map((option) => option.value)).toEqual(['ACC06163', 'ACC07021', 'ACC07355']);
			// The names are the sandbox's own, each with its ID.
			const names = sandbox()
				.data.cabinets.filter((cabinet) => cabinet.permitted)
				.map((cabinet) => cabinet.name);
			expect(options.map((option) => option.name)).toEqual(
				names.map((name, index) => `${name} (${String(options[index].value)})`),
			);
			expect(apiRequests(sandbox()).map((r) => `${r.method} ${r.path}`)).toEqual([
				'GET /api/accounts/telegram/names',
				'GET /api/accounts/telegram/names',
			]);
		},
	);

	test('with the credential in the Generic form, the list says it exists only on the Telegram (Adstat) API and to give IDs with an expression; nothing is sent', async () => {
		await expect(
			loadOptions(
				'adCabinetStats',
				'getCabinets',
				{},
				{ ...credentialsFor(sandbox()), platform: 'ext' },
			),
		).rejects.toThrow(
			'Platform (Ad Cabinet API credential): Cabinet lists exist only on the Telegram (Adstat) API; this credential\'s Platform is "Generic", whose API has no such endpoint. If your service is Telegram (Adstat), set Platform to it in the credential; otherwise give the cabinet IDs with an expression: a list such as {{ ["100001"] }}, or IDs separated by commas. Nothing was sent to the API.',
		);
		await expect(
			loadOptions(
				'adCabinetStatsTrigger',
				'getCabinets',
				{},
				{ ...credentialsFor(sandbox()), platform: 'ext' },
			),
		).rejects.toThrow('Cabinet lists exist only on the Telegram (Adstat) API');
		expect(apiRequests(sandbox())).toHaveLength(0);
	});
});
