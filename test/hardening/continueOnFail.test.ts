import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { runNode } from '../../harness';
import { credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';
import { AD_CONTINUE_ON_FAIL } from '../support/continueOnFailAds';

export interface FailingSecondItem {
	name: string;
	type: string;
	parameters: INodeParameters;
	/** Two input items: the first succeeds, the second fails. */
	input: Array<IDataObject | INodeExecutionData>;
	error: RegExp;
}

const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
	'base64',
);
const binary = (
	bytes: Buffer | string,
	mimeType: string,
	fileName: string,
): INodeExecutionData => ({
	json: {},
	binary: { data: { data: Buffer.from(bytes).toString('base64'), mimeType, fileName } },
});
const csv = Array.from({ length: 1000 }, (_v, i) => `99890${String(1_000_000 + i).slice(-7)}`).join(
	'\n',
);

export const CASES: FailingSecondItem[] = [
	{
		name: 'Stats → Statistic → Get Many',
		type: 'adCabinetStats',
		parameters: {
			resource: 'statistic',
			operation: 'getAll',
			period: 'last7Days',
			periodGroupingUnit: '={{ $json.unit }}',
			grouping: [],
			currency: 'EUR',
			returnAll: false,
			limit: 3,
			filters: {},
			options: {},
		},
		input: [{ unit: 'day' }, { unit: 'fortnight' }],
		error: /^Period Grouping Unit: must be one of/,
	},
	{
		name: 'Stats → Legacy Report → Get',
		type: 'adCabinetStats',
		parameters: {
			resource: 'legacyReport',
			operation: 'get',
			dateFrom: '2026-11-01',
			dateTo: '={{ $json.to }}',
			groupTime: 'day',
			groupings: ['date'],
			filters: {},
		},
		input: [{ to: '2026-11-05' }, { to: 'whenever' }],
		error: /^Date To: must be a date/,
	},
	{
		name: 'KKTU → Get Many',
		type: 'adCabinetKktu',
		parameters: {
			resource: 'category',
			operation: 'getAll',
			returnAll: false,
			limit: '={{ $json.limit }}',
			onlySelectable: true,
			filters: {},
		},
		input: [{ limit: 3 }, { limit: 0 }],
		error: /^Limit: must be a whole number/,
	},
	{
		name: 'Pixel Events → Get Many (403 on the second cabinet)',
		type: 'adCabinetPixelEvents',
		parameters: {
			resource: 'pixelEvent',
			operation: 'getAll',
			accountId: '={{ $json.cabinet }}',
			returnAll: true,
		},
		input: [{ cabinet: 'ACC07021' }, { cabinet: 'ACC08112' }],
		error: /refused the request with 403/,
	},
	{
		name: 'Audiences → Get Many (403 on the second cabinet)',
		type: 'adCabinetAudiences',
		parameters: {
			resource: 'audience',
			operation: 'getAll',
			accountId: '={{ $json.cabinet }}',
			returnAll: true,
		},
		input: [{ cabinet: 'ACC06163' }, { cabinet: 'ACC08112' }],
		error: /refused the request with 403/,
	},
	{
		name: 'Audiences → Create from a binary file',
		type: 'adCabinetAudiences',
		parameters: {
			resource: 'audience',
			operation: 'create',
			accountId: 'ACC06163',
			title: 'List',
			source: 'binary',
			binaryPropertyName: 'data',
			hashNumbers: true,
		},
		input: [binary(csv, 'text/csv', 'ok.csv'), binary(PNG, 'image/png', 'no.png')],
		error: /^Input Binary Field: must be a CSV or txt file/,
	},
	{
		name: 'Media → Upload',
		type: 'adCabinetMedia',
		parameters: {
			resource: 'media',
			operation: 'upload',
			accountId: 'ACC06163',
			binaryPropertyName: 'data',
		},
		input: [binary(PNG, 'image/png', 'ok.png'), binary('text', 'text/plain', 'no.txt')],
		error: /^Input Binary Field: must hold a JPEG, PNG, GIF or WebP image or an MP4 video/,
	},
	...AD_CONTINUE_ON_FAIL,
];

describe('Continue On Fail: the failing item becomes an error item paired to it, the others go through', () => {
	const sandbox = useSandbox();

	test.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, testCase) => {
		const { items, error } = await runNode({
			type: testCase.type,
			parameters: testCase.parameters,
			credentials: credentialsFor(sandbox()),
			input: testCase.input,
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		const failed = items.filter((item) => item.json.error !== undefined);
		const passed = items.filter((item) => item.json.error === undefined);
		expect(failed).toHaveLength(1);
		expect(failed[0].pairedItem).toEqual({ item: 1 });
		expect(failed[0].json.error).toMatch(testCase.error);
		expect(passed.length).toBeGreaterThan(0);
		expect(passed.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(true);
		// Without Continue On Fail the same input stops the node with that error.
		const stopped = await runNode({
			type: testCase.type,
			parameters: testCase.parameters,
			credentials: credentialsFor(sandbox()),
			input: testCase.input,
		});
		expect(stopped.error?.message).toMatch(testCase.error);
	});
});
