import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { runAsTool, runNode } from '../../harness';
import { apiRequests, apiWrites, credentialsFor } from '../../harness/sandbox';
import { cabinetIdIn } from '../../sandbox';
import { AD_PATH, locator } from '../support/adFixtures';
import { useSandbox } from '../support/useSandbox';

/**
 * The MCP Server Trigger calls a tool node directly: n8n-core's tool invocation runs the node
 * type's `execute` with the call's arguments as the one input item, not the workflow engine. Every
 * operation must give there what it gives in a workflow, the ones that run from the node's
 * `customOperations` included, and every write guard must hold.
 */
const NOW = '2026-11-20T12:00:00.000Z';
const UZ = cabinetIdIn('telegram', '100001');
const DE = cabinetIdIn('telegram', '100002');
const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
	'base64',
);
const fromAI = (key: string, type = 'string') => `={{ $fromAI('${key}', '${key}', '${type}') }}`;

let images: Server;
let imageBase: string;
beforeAll(async () => {
	images = createServer((_req, res) =>
		res.writeHead(200, { 'content-type': 'image/png' }).end(PNG),
	);
	await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
	imageBase = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
});
afterAll(async () => {
	await new Promise((resolve) => images.close(resolve));
});

describe('our nodes called directly as tools (the MCP Server Trigger path)', () => {
	const sandbox = useSandbox({ platform: 'telegram', now: NOW });
	const credentials = () => credentialsFor(sandbox());

	/** Reads: the tool's answer equals the plain node's items, for the same values. */
	const READS: Array<[string, string, number, INodeParameters, IDataObject]> = [
		[
			'Stats → Statistic → Get Many (custom operation)',
			'adCabinetStats',
			1.2,
			{
				resource: 'statistic',
				operation: 'getAll',
				period: 'custom',
				periodFrom: fromAI('Period_From'),
				periodTo: fromAI('Period_To'),
				periodGroupingUnit: fromAI('Period_Grouping_Unit'),
				grouping: ['campaign'],
				currency: 'EUR',
				returnAll: true,
				simplify: true,
				filters: {},
				options: {},
			},
			{
				Period_From: '2026-11-01T00:00:00Z',
				Period_To: '2026-11-10T23:59:59Z',
				Period_Grouping_Unit: 'day',
			},
		],
		[
			'Ads → Cabinet → Get (custom operation)',
			'adCabinetAds',
			1.3,
			{ resource: 'cabinet', operation: 'get', cabinetId: locator(fromAI('Cabinet_ID')) },
			{ Cabinet_ID: DE },
		],
		[
			'Ads → Cabinet → Get Many (custom operation)',
			'adCabinetAds',
			1.3,
			{ resource: 'cabinet', operation: 'getAll', returnAll: true, simplify: true },
			{},
		],
		[
			'Ads → Campaign → Get Many (custom operation)',
			'adCabinetAds',
			1.3,
			{
				resource: 'campaign',
				operation: 'getAll',
				returnAll: true,
				simplify: true,
				period: fromAI('Period'),
			},
			{ Period: 'all' },
		],
		[
			'Ads → Balance → Get (custom operation)',
			'adCabinetAds',
			1.3,
			{ resource: 'balance', operation: 'get' },
			{},
		],
		[
			'Ads → Ad → Get Many (routing)',
			'adCabinetAds',
			1.3,
			{
				resource: 'ad',
				operation: 'getAll',
				returnAll: false,
				simplify: true,
				limit: fromAI('Limit', 'number'),
			},
			{ Limit: 5 },
		],
	];

	test.each(READS)(
		'%s: the same items as in a workflow',
		async (_label, type, typeVersion, parameters, args) => {
			const tool = await runAsTool({
				type,
				typeVersion,
				parameters,
				credentials: credentials(),
				calls: [args],
			});
			expect(tool.calls[0].error).toBeUndefined();
			const viaTool = tool.calls[0].result ?? [];
			expect(viaTool.length).toBeGreaterThan(0);
			// No request to the bare Base URL: the operation's own code sent every request.
			expect(apiRequests(sandbox()).every((request) => request.path !== '/')).toBe(true);
			const resolved = JSON.parse(
				JSON.stringify(parameters).replace(
					/"=\{\{ \$fromAI\('(\w+)'[^"]*\}\}"/g,
					(_m, key: string) => JSON.stringify(args[key]),
				),
			) as INodeParameters;
			const plain = await runNode({
				type,
				typeVersion,
				parameters: resolved,
				credentials: credentials(),
			});
			expect(plain.error).toBeUndefined();
			expect(viaTool).toEqual(plain.items.map((item) => item.json));
		},
	);

	test('Stats Get Many: the tool lists its $fromAI keys and returns the rows the sandbox has', async () => {
		const [, type, typeVersion, parameters, args] = READS[0];
		const { tool, calls } = await runAsTool({
			type,
			typeVersion,
			parameters,
			credentials: credentials(),
			calls: [args],
		});
		expect(tool.keys.sort()).toEqual(['Period_From', 'Period_Grouping_Unit', 'Period_To']);
		const expected = sandbox().data.statsRows({
			period_from: args.Period_From,
			period_to: args.Period_To,
			period_grouping_unit: 'day',
			grouping: ['campaign'],
			currency_code: 'EUR',
			order_by: 'period',
		});
		expect(calls[0].result).toHaveLength(expected.length);
		const keyOf = (row: Record<string, unknown>) =>
			`${String(row.period_date)} ${String(row.campaign_id)}`;
		expect(calls[0].result?.map(keyOf)).toEqual(expected.map(keyOf));
	});

	test('a bad argument returns the rule to the caller, and the fixed call then succeeds', async () => {
		const [, type, typeVersion, parameters] = READS[0];
		// Hourly figures: at most 2 days a request, within the last 5 days (of the real clock).
		const hour = 3600_000;
		const at = (msAgo: number) =>
			new Date(Math.floor((Date.now() - msAgo) / hour) * hour).toISOString().slice(0, 19);
		const { calls } = await runAsTool({
			type,
			typeVersion,
			parameters,
			credentials: credentials(),
			calls: [
				{ Period_From: at(96 * hour), Period_To: at(0), Period_Grouping_Unit: 'hour' },
				{ Period_From: at(24 * hour), Period_To: at(0), Period_Grouping_Unit: 'hour' },
			],
		});
		expect(calls[0].error).toMatch(/hour/i);
		expect(calls[0].error).toMatch(/nothing was sent/i);
		expect(calls[1].error).toBeUndefined();
		expect(Array.isArray(calls[1].result)).toBe(true);
		// One request, by the second call only.
		expect(apiRequests(sandbox())).toHaveLength(1);
	});

	test('Continue On Fail: the refusal comes back as the error item the plain node outputs', async () => {
		const [, type, typeVersion, parameters] = READS[0];
		const args = {
			Period_From: '2026-11-01T00:00:00Z',
			Period_To: '2026-11-01T00:00:00Z',
			Period_Grouping_Unit: 'fortnight',
		};
		const { calls } = await runAsTool({
			type,
			typeVersion,
			parameters,
			credentials: credentials(),
			calls: [args],
			continueOnFail: true,
		});
		expect(calls[0].error).toBeUndefined();
		expect(String(calls[0].result?.[0].error)).toContain('fortnight');
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	/**
	 * One call with Dry Run on, which must answer with the request it would send and send nothing,
	 * then the same call without it, which must succeed; returns both for the write's own checks.
	 */
	const dryThenReal = async (
		type: string,
		typeVersion: number,
		parameters: INodeParameters,
		args: IDataObject,
	) => {
		const call = async (params: INodeParameters) =>
			(
				await runAsTool({
					type,
					typeVersion,
					parameters: params,
					credentials: credentials(),
					calls: [args],
				})
			).calls[0];
		const dry = await call({ ...parameters, options: { dryRun: true } });
		expect(dry.error).toBeUndefined();
		expect(dry.result?.[0]).toMatchObject({ dryRun: true, method: 'POST' });
		expect(apiRequests(sandbox())).toHaveLength(0);
		const real = await call(parameters);
		expect(real.error).toBeUndefined();
		return { dry, real };
	};

	test('Audiences → Create (custom operation): Dry Run sends nothing, a real call sends exactly one write', async () => {
		// An audience needs at least 1,000 numbers.
		const numbers = Array.from({ length: 1000 }, (_, i) => `99893${String(i).padStart(7, '0')}`);
		const { dry } = await dryThenReal(
			'adCabinetAudiences',
			1.3,
			{
				resource: 'audience',
				operation: 'create',
				accountId: locator(UZ),
				title: fromAI('Title'),
				source: 'list',
				phoneNumbers: fromAI('Phone_Numbers'),
			},
			{ Title: 'Tool audience', Phone_Numbers: numbers.join(', ') },
		);
		expect(apiWrites(sandbox())).toHaveLength(1);
		expect(apiWrites(sandbox())[0].path).toBe(dry.result?.[0].path);
	});

	test('Media → Upload (custom operation) from a file address: Dry Run sends nothing, then one upload', async () => {
		await dryThenReal(
			'adCabinetMedia',
			1.2,
			{
				resource: 'media',
				operation: 'upload',
				accountId: locator(UZ),
				fileUrl: fromAI('File_URL'),
				allowPrivateNetwork: true,
			},
			{ File_URL: `${imageBase}/banner.png` },
		);
		expect(apiWrites(sandbox())).toHaveLength(1);
	});

	describe('Ads → Ad → Update with the bounds a workflow author sets', () => {
		const activeAd = () => {
			const ad = sandbox().data.ads.find((a) => a.status === 'active' && a.accountId === DE);
			if (!ad) throw new Error('no active ad');
			return { id: ad.id, cpm: Number(sandbox().data.adDetail(ad.id)?.cpm) };
		};
		const update = (dryRun: boolean, calls: IDataObject[]) =>
			runAsTool({
				type: 'adCabinetAds',
				typeVersion: 1.3,
				parameters: {
					resource: 'ad',
					operation: 'update',
					adId: locator(fromAI('Ad_ID')),
					updateFields: { cpm: fromAI('CPM', 'number') },
					options: {
						cpmMin: 0.5,
						cpmMax: 10,
						maxChangePercent: 50,
						skipUnchanged: true,
						...(dryRun ? { dryRun: true } : {}),
					},
				},
				credentials: credentials(),
				calls,
			});

		test('Preview sends no write; Apply sends its body once; Apply again sends nothing; a CPM outside a bound is refused unsent', async () => {
			const { id, cpm } = activeAd();
			const asked = Math.round(cpm * 110) / 100;
			const preview = await update(true, [{ Ad_ID: String(id), CPM: asked }]);
			expect(apiWrites(sandbox())).toHaveLength(0);
			const shown = preview.calls[0].result?.[0] as IDataObject;
			expect(shown).toMatchObject({
				dryRun: true,
				method: 'PUT',
				path: `${AD_PATH.telegram}${id}`,
				changes: { cpm: { from: cpm, to: asked } },
			});

			const apply = await update(false, [
				{ Ad_ID: String(id), CPM: asked },
				{ Ad_ID: String(id), CPM: asked },
				{ Ad_ID: String(id), CPM: 50 },
			]);
			const writes = apiWrites(sandbox());
			expect(writes).toHaveLength(1);
			expect(writes[0].body).toEqual(shown.body);
			expect(apply.calls[1].result).toEqual([{ skipped: true, reason: 'unchanged', ad_id: id }]);
			expect(apply.calls[2].error).toContain('CPM Max');
			expect(apply.calls[2].error).toContain('50');
			expect(apply.calls[2].error).toMatch(/nothing was sent/i);
		});
	});
});
