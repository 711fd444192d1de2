import {
	NodeHelpers,
	type IDataObject,
	type INode,
	type INodeListSearchItems,
	type INodeParameters,
	type INodeProperties,
	type INodeType,
} from 'n8n-workflow';
import { nodeTypes, PACKAGE_NAME, runNode } from '../../harness';
import { listSearch } from '../../harness/methods';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { locator, minimalCreate } from '../support/adFixtures';
import { TEST_NOW } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

const CREATE = { resource: 'ad', operation: 'create' };
const BERLIN = 'ACC07021';
/** The seeded campaigns the sandbox's token may see, by cabinet. */
const SEEDED = {
	ACC06163: [2101, 2102, 2103],
	[BERLIN]: [2201, 2202, 2203, 2204],
	ACC07355: [2301, 2302, 2303],
};
const ALL = Object.values(SEEDED).flat();

const ids = (results: INodeListSearchItems[]) => results.map((r) => Number(r.value));

/** The Campaign ID parameters an Ads Create node of this version shows. */
function campaignIdShown(typeVersion: number): INodeProperties[] {
	const { description } = nodeTypes().getByNameAndVersion(
		`${PACKAGE_NAME}.adCabinetAds`,
	) as INodeType;
	const node = { typeVersion } as INode;
	return description.properties.filter(
		(p) => p.name === 'campaignId' && NodeHelpers.displayParameter(CREATE, p, node, description),
	);
}

describe('Ads → Create: the Campaign ID picker (node version 1.2)', () => {
	const sandbox = useSandbox({ platform: 'telegram', rateLimit: 'off', now: TEST_NOW });
	const search = (parameters: INodeParameters = {}, filter?: string, token?: string) =>
		listSearch(
			'adCabinetAds',
			'searchCampaigns',
			{ ...CREATE, ...parameters },
			credentialsFor(sandbox()),
			filter,
			token,
			1.2,
		);
	const create = (parameters: INodeParameters, typeVersion = 1.2) =>
		runNode({
			type: 'adCabinetAds',
			typeVersion,
			parameters: minimalCreate(parameters),
			credentials: credentialsFor(sandbox()),
		});
	const sentBody = () =>
		apiRequests(sandbox()).find((r) => r.method === 'POST')?.body as IDataObject | undefined;

	test('version 1.2 shows From List and By ID; versions 1 and 1.1 keep the number field', () => {
		const [picker, ...more] = campaignIdShown(1.2);
		expect(more).toEqual([]);
		expect(picker.type).toBe('resourceLocator');
		expect(picker.required).toBe(true);
		expect(picker.modes?.map((mode) => [mode.name, mode.typeOptions?.searchListMethod])).toEqual([
			['list', 'searchCampaigns'],
			['id', undefined],
		]);
		expect(picker.description).toContain('Campaign → Get Many');
		for (const version of [1, 1.1]) {
			const shown = campaignIdShown(version);
			expect(shown.map((p) => [p.type, p.default, p.required])).toEqual([['number', '', true]]);
		}
	});

	test('By ID takes whole numbers of at least 1 only', () => {
		const byId = campaignIdShown(1.2)[0].modes?.find((mode) => mode.name === 'id');
		const rule = byId?.validation?.find((v) => typeof v === 'object' && v.type === 'regex') as
			{ properties: { regex: string; errorMessage: string } } | undefined;
		const regex = new RegExp(String(rule?.properties.regex));
		expect(['2201', ' 7 ', '1'].map((v) => regex.test(v))).toEqual([true, true, true]);
		expect(['0', '-3', '2.5', 'abc', '', '022'].map((v) => regex.test(v))).toEqual([
			false,
			false,
			false,
			false,
			false,
			false,
		]);
		expect(rule?.properties.errorMessage).toBe('Campaign ID must be a whole number of at least 1');
	});

	test('From List: every campaign with its cabinet, from one request of the campaign list', async () => {
		const { results, paginationToken } = await search();
		expect(ids(results)).toEqual(ALL);
		expect(results.find((r) => r.value === '2201')?.name).toBe(
			'Berlin Black Friday (2201, Berlin Growth GmbH)',
		);
		expect(results.every((r) => r.url === undefined)).toBe(true);
		expect(paginationToken).toBeUndefined();
		expect(apiRequests(sandbox()).map((r) => [r.method, r.path, r.query])).toEqual([
			['GET', '/api/campaigns/', { period: 'all', offset: '0', limit: '500' }],
		]);
	});

	test("with a Cabinet ID chosen, only that cabinet's campaigns, without the cabinet in the name", async () => {
		const picked = await search({ accountId: { __rl: true, mode: 'list', value: BERLIN } });
		expect(ids(picked.results)).toEqual(SEEDED[BERLIN]);
		expect(picked.results[0].name).toBe('Berlin Black Friday (2201)');
		const typed = await search({ accountId: { __rl: true, mode: 'id', value: ' ACC07355 ' } });
		expect(ids(typed.results)).toEqual(SEEDED.ACC07355);
		// No cabinet filter reaches the API, which has none: the list is read and the others left out.
		expect(apiRequests(sandbox()).map((r) => r.query)).toEqual([
			{ period: 'all', offset: '0', limit: '500' },
			{ period: 'all', offset: '0', limit: '500' },
		]);
	});

	test("search by name uses the API's name filter, also within a chosen cabinet", async () => {
		const found = await search({}, ' berlin ');
		expect(ids(found.results)).toEqual([2201]);
		expect(apiRequests(sandbox()).at(-1)?.query).toEqual({
			period: 'all',
			campaign_name: 'berlin',
			offset: '0',
			limit: '500',
		});
		const inOther = await search(
			{ accountId: { __rl: true, mode: 'list', value: 'ACC06163' } },
			'berlin',
		);
		expect(inOther.results).toEqual([]);
		expect(inOther.paginationToken).toBeUndefined();
	});

	test('a campaign picked from the list or typed By ID is sent as the integer campaign_id', async () => {
		const picked = await create({ campaignId: locator('2203', 'list') });
		expect(picked.error).toBeUndefined();
		expect(sentBody()?.campaign_id).toBe(2203);
		sandbox().clearLog();
		const typed = await create({ campaignId: locator(' 2204 ') });
		expect(typed.error).toBeUndefined();
		expect(sentBody()?.campaign_id).toBe(2204);
		sandbox().clearLog();
		const mapped = await create({ campaignId: locator('={{ 2201 }}') });
		expect(mapped.error).toBeUndefined();
		expect(sentBody()?.campaign_id).toBe(2201);
	});

	test.each(['abc', '0', '-5', '22.5', ''])(
		"By ID %j typed in: n8n refuses the run with the locator's rule before any request",
		async (value) => {
			await expect(create({ campaignId: locator(value) })).rejects.toThrow(
				"The 'Node' node has issues:",
			);
			await expect(create({ campaignId: locator(value) })).rejects.toThrow(
				'- Campaign ID must be a whole number of at least 1',
			);
			expect(apiRequests(sandbox())).toHaveLength(0);
		},
	);

	test.each([
		['={{ "abc" }}', '"abc"'],
		['={{ 0 }}', '0'],
		['={{ "-5" }}', '"-5"'],
		['={{ 22.5 }}', '22.5'],
		['={{ "" }}', '""'],
	])(
		'By ID %s from an expression is refused before any request, naming Campaign ID, the rule and the value',
		async (value, shown) => {
			const { error } = await create({ campaignId: locator(value) });
			expect(error?.message).toBe(
				`Campaign ID: must be a whole number of at least 1 (got ${shown}). Nothing was sent to the API.`,
			);
			expect(apiRequests(sandbox())).toHaveLength(0);
		},
	);

	test.each([1, 1.1])(
		'a saved version %s node with a typed Campaign ID sends it as before',
		async (version) => {
			const { error } = await create({ campaignId: 2202 }, version);
			expect(error).toBeUndefined();
			expect(sentBody()?.campaign_id).toBe(2202);
			sandbox().clearLog();
			const zero = await create({ campaignId: 0 }, version);
			expect(zero.error?.message).toBe(
				'Campaign ID: must be a whole number of at least 1 (got 0). Nothing was sent to the API.',
			);
			expect(apiRequests(sandbox())).toHaveLength(0);
		},
	);
});

describe('the Campaign ID picker with the credential in the Generic form', () => {
	const sandbox = useSandbox({ platform: 'ext', rateLimit: 'off', now: TEST_NOW });

	test('From List says the campaign list exists only on the Telegram (Adstat) API and points at By ID; nothing is sent', async () => {
		await expect(
			listSearch(
				'adCabinetAds',
				'searchCampaigns',
				CREATE,
				{ ...credentialsFor(sandbox()), platform: 'ext' },
				undefined,
				undefined,
				1.2,
			),
		).rejects.toThrow(
			'Platform (Ad Cabinet API credential): Campaign lists exist only on the Telegram (Adstat) API; this credential\'s Platform is "Generic", whose API has no such endpoint. If your service is Telegram (Adstat), set Platform to it in the credential; otherwise choose "By ID" and type the campaign ID. Nothing was sent to the API.',
		);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	test('By ID creates the ad as before', async () => {
		const { error } = await runNode({
			type: 'adCabinetAds',
			typeVersion: 1.2,
			parameters: minimalCreate({ campaignId: locator('2201') }),
			credentials: { ...credentialsFor(sandbox()), platform: 'ext' },
		});
		expect(error).toBeUndefined();
		const sent = apiRequests(sandbox()).find((r) => r.method === 'POST');
		expect([sent?.path, (sent?.body as IDataObject).campaign_id]).toEqual([
			'/api/advertisement/ext/',
			2201,
		]);
	});
});

describe('the Campaign ID picker on a long campaign list', () => {
	const sandbox = useSandbox({ platform: 'telegram', rateLimit: 'off', now: TEST_NOW });
	const search = (parameters: INodeParameters, token?: string) =>
		listSearch(
			'adCabinetAds',
			'searchCampaigns',
			{ ...CREATE, ...parameters },
			credentialsFor(sandbox()),
			undefined,
			token,
			1.2,
		);
	const cabinets = Object.keys(SEEDED);
	// 1,500 more campaigns, taking turns between the three cabinets: 500 more each.
	const extra = Array.from({ length: 1500 }, (_, i) => ({
		id: 5000 + i,
		name: `Bulk ${i}`,
		account_id: cabinets[i % 3],
		description: '',
	}));

	beforeAll(() => {
		sandbox().data.campaigns.push(...extra);
	});

	/** Every page the picker gives as the editor asks for them, following paginationToken. */
	async function allPages(parameters: INodeParameters) {
		const pages: Array<{ count: number; token?: string }> = [];
		const values: number[] = [];
		let token: string | undefined;
		do {
			const page = await search(parameters, token);
			values.push(...ids(page.results));
			token = page.paginationToken;
			pages.push({ count: page.results.length, token });
		} while (token !== undefined && pages.length < 10);
		return { pages, values };
	}

	test('500 at a time, each page going on where the last ended, until the last', async () => {
		const { pages, values } = await allPages({});
		expect(pages).toEqual([
			{ count: 500, token: '500' },
			{ count: 500, token: '1000' },
			{ count: 500, token: '1500' },
			{ count: 10, token: undefined },
		]);
		expect(values).toEqual([...ALL, ...extra.map((c) => c.id)]);
		expect(apiRequests(sandbox()).map((r) => r.query.offset)).toEqual(['0', '500', '1000', '1500']);
	});

	test("a chosen cabinet's 504 campaigns: 500, then the rest from where the first stopped", async () => {
		const { pages, values } = await allPages({
			accountId: { __rl: true, mode: 'list', value: BERLIN },
		});
		const berlin = [
			...SEEDED[BERLIN],
			...extra.filter((c) => c.account_id === BERLIN).map((c) => c.id),
		];
		expect(values).toEqual(berlin);
		expect(pages.map((page) => page.count)).toEqual([500, 4]);
		expect(pages.at(-1)?.token).toBeUndefined();
		// The 500th Berlin campaign is at offset 1,496 of the list: the next call starts after it.
		expect(pages[0].token).toBe('1497');
	});
});
