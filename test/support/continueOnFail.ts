import type { INodeExecutionData } from 'n8n-workflow';
import { AD_CONTINUE_ON_FAIL } from './continueOnFailAds';
import type { FailingSecondItem } from './continueOnFailCase';
import { PIXEL_CONTINUE_ON_FAIL } from './continueOnFailPixelEvents';

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

/** Continue On Fail: one case per operation whose input can make one item fail. */
export const CONTINUE_ON_FAIL_CASES: FailingSecondItem[] = [
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
	{
		name: 'Stats → Advertised Object → Get Many (Limit 0 in the second row)',
		type: 'adCabinetStats',
		parameters: {
			resource: 'advertisedObject',
			operation: 'getAll',
			returnAll: false,
			limit: '={{ $json.limit }}',
		},
		input: [{ limit: 2 }, { limit: 0 }],
		error: /^Limit: must be a whole number of at least 1/,
	},
	...PIXEL_CONTINUE_ON_FAIL,
	...AD_CONTINUE_ON_FAIL,
];
