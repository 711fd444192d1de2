import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { capturedLogs, pollOnce, runNode, testCredential } from '../../harness';
import { credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';
import { minimalCreate } from '../support/adFixtures';

const TOKEN = 'tok-SECRET-7b3f9e1c4d2a8f60';
const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
	'base64',
);

interface Scenario {
	name: string;
	type: string;
	parameters: INodeParameters;
	input?: INodeExecutionData[];
	continueOnFail?: boolean;
	faults?: () => void;
}

const stats = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'statistic',
	operation: 'getAll',
	period: 'last7Days',
	periodGroupingUnit: 'day',
	grouping: ['campaign'],
	currency: 'EUR',
	returnAll: false,
	limit: 20,
	filters: {},
	options: {},
	...extra,
});

describe('the access token never appears in outputs, errors or logs', () => {
	const sandbox = useSandbox({ token: TOKEN });
	const seen: string[] = [];
	const keep = (value: unknown) =>
		seen.push(
			String(
				JSON.stringify(value, (_k, v: unknown) =>
					v instanceof Error ? { ...v, message: v.message, stack: v.stack } : v,
				),
			),
		);

	const scenarios: Scenario[] = [
		{ name: 'stats rows', type: 'adCabinetStats', parameters: stats() },
		{
			name: 'stats with faults on every request (permanent)',
			type: 'adCabinetStats',
			parameters: stats(),
			faults: () => sandbox().faults.set({ rate: 1, kinds: ['503'] }),
		},
		{
			name: 'stats with Continue On Fail',
			type: 'adCabinetStats',
			parameters: stats(),
			continueOnFail: true,
			faults: () => sandbox().faults.set({ rate: 1, kinds: ['500'] }),
		},
		{
			name: 'stats bad input',
			type: 'adCabinetStats',
			parameters: stats({ options: { pageSize: 900 } }),
		},
		{
			name: 'legacy report',
			type: 'adCabinetStats',
			parameters: {
				resource: 'legacyReport',
				operation: 'get',
				dateFrom: '2026-11-01',
				dateTo: '2026-11-03',
				groupTime: 'day',
				groupings: ['date'],
				filters: {},
			},
		},
		{
			name: 'objects with a reset then a 429',
			type: 'adCabinetStats',
			parameters: { resource: 'advertisedObject', operation: 'getAll', returnAll: true },
			faults: () => {
				sandbox().faults.onNth(1, 'reset');
				sandbox().faults.onNth(2, '429');
			},
		},
		{
			name: 'ad list',
			type: 'adCabinetAds',
			parameters: { resource: 'ad', operation: 'getAll', returnAll: false, limit: 5, filters: {} },
		},
		{
			name: 'ad create refused by the API',
			type: 'adCabinetAds',
			parameters: minimalCreate({ campaignId: 2301 }),
		},
		{
			name: 'bot validation with a rejected bot',
			type: 'adCabinetAds',
			parameters: {
				resource: 'ad',
				operation: 'validateBots',
				accountId: 'ACC07021',
				bots: 'shop_helper_bot, tiny_notes_bot',
				failOnRejected: true,
			},
			continueOnFail: true,
		},
		{
			name: 'kktu',
			type: 'adCabinetKktu',
			parameters: {
				resource: 'category',
				operation: 'getAll',
				returnAll: true,
				onlySelectable: true,
				filters: {},
			},
		},
		{
			name: 'pixel create on a cabinet without permission',
			type: 'adCabinetPixelEvents',
			parameters: {
				resource: 'pixelEvent',
				operation: 'create',
				accountId: 'ACC08112',
				title: 'Lead',
				type: 'custom',
			},
		},
		{
			name: 'pixel create with an unsupported type, Continue On Fail',
			type: 'adCabinetPixelEvents',
			parameters: {
				resource: 'pixelEvent',
				operation: 'create',
				accountId: 'ACC07021',
				title: 'Lead',
				type: 'nonsense',
			},
			continueOnFail: true,
		},
		{
			name: 'pixel delete of an unknown event',
			type: 'adCabinetPixelEvents',
			parameters: {
				resource: 'pixelEvent',
				operation: 'delete',
				accountId: 'ACC07021',
				eventId: { __rl: true, mode: 'id', value: '999999' },
			},
		},
		{
			name: 'audiences outside Uzbekistan',
			type: 'adCabinetAudiences',
			parameters: {
				resource: 'audience',
				operation: 'getAll',
				accountId: 'ACC07021',
				returnAll: true,
			},
		},
		{
			name: 'media upload',
			type: 'adCabinetMedia',
			parameters: {
				resource: 'media',
				operation: 'upload',
				accountId: 'ACC06163',
				binaryPropertyName: 'data',
			},
			input: [
				{
					json: {},
					binary: {
						data: { data: PNG.toString('base64'), mimeType: 'image/png', fileName: 'a.png' },
					},
				},
			],
		},
		{
			name: 'media upload refused by the API',
			type: 'adCabinetMedia',
			parameters: {
				resource: 'media',
				operation: 'upload',
				accountId: 'ACC06163',
				binaryPropertyName: 'data',
			},
			continueOnFail: true,
			input: [
				{
					json: {},
					binary: {
						data: {
							data: Buffer.from('not an image').toString('base64'),
							mimeType: 'application/octet-stream',
							fileName: 'a.bin',
						},
					},
				},
			],
		},
	];

	test.each(scenarios.map((s) => [s.name, s] as const))('%s', async (_name, scenario) => {
		scenario.faults?.();
		const result = await runNode({
			type: scenario.type,
			parameters: scenario.parameters,
			credentials: credentialsFor(sandbox()),
			input: scenario.input,
			continueOnFail: scenario.continueOnFail,
		});
		keep(result.items);
		keep(result.error);
		keep({ message: result.error?.message, description: result.error?.description });
		keep(result.workflow.run.data.resultData);
		expect(JSON.stringify(result.items)).not.toContain(TOKEN);
	});

	test('trigger polls, including a failing one', async () => {
		const parameters: INodeParameters = {
			periodGroupingUnit: 'day',
			grouping: ['campaign'],
			emit: 'completed',
			startFrom: 'date',
			startDate: '2026-11-01',
			currency: 'EUR',
			numericValues: true,
			filters: {},
			options: {},
		};
		const ok = await pollOnce({
			type: 'adCabinetStatsTrigger',
			parameters,
			credentials: credentialsFor(sandbox()),
			staticData: {},
		});
		sandbox().faults.set({ rate: 1, kinds: ['502'] });
		const failed = await pollOnce({
			type: 'adCabinetStatsTrigger',
			parameters,
			credentials: credentialsFor(sandbox()),
			staticData: {},
		});
		expect(failed.error).toBeDefined();
		for (const value of [
			ok.items,
			ok.staticData,
			failed.error,
			failed.error?.message,
			(failed.error as { description?: string })?.description,
		])
			keep(value);
	});

	test('the credential test, passing and failing', async () => {
		keep(await testCredential('adCabinetApi', credentialsFor(sandbox())));
		const data = credentialsFor(sandbox());
		data.baseUrl = `${String(data.baseUrl)}/nowhere`;
		keep(await testCredential('adCabinetApi', data));
	});

	test('nothing kept above, nor any captured log line, contains the token', () => {
		expect(seen.length).toBeGreaterThan(scenarios.length * 3);
		expect(capturedLogs.length).toBeGreaterThan(0);
		const leaks = [...seen, ...capturedLogs].filter(
			(text) => text.includes(TOKEN) || text.includes(TOKEN.slice(4)),
		);
		expect(leaks).toEqual([]);
	});
});
