import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { AD_BAD_INPUTS } from './badInputAds';
import type { BadInput } from './badInputCase';
import { PIXEL_BAD_INPUTS } from './badInputPixelEvents';
import { ADS_TRIGGER_BAD_INPUTS } from './badInputAdsTrigger';

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
const numbers = (count: number, prefix = '99890') =>
	Array.from({ length: count }, (_v, i) => `${prefix}${String(1_000_000 + i).slice(-7)}`);
const file = (text: string | Buffer, mimeType: string, fileName: string): INodeExecutionData => ({
	json: {},
	binary: { data: { data: Buffer.from(text).toString('base64'), mimeType, fileName } },
});

const stats = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'statistic',
	operation: 'getAll',
	period: 'custom',
	periodFrom: '2026-11-01T00:00:00Z',
	periodTo: '2026-11-05T00:00:00Z',
	periodGroupingUnit: 'day',
	grouping: [],
	currency: 'EUR',
	returnAll: true,
	filters: {},
	options: {},
	...extra,
});
const legacy = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'legacyReport',
	operation: 'get',
	dateFrom: '2026-11-01',
	dateTo: '2026-11-05',
	groupTime: 'day',
	groupings: ['date'],
	filters: {},
	...extra,
});
const trigger = (extra: INodeParameters = {}): INodeParameters => ({
	periodGroupingUnit: 'day',
	grouping: [],
	emit: 'completed',
	startFrom: 'now',
	currency: 'EUR',
	numericValues: true,
	filters: {},
	options: {},
	...extra,
});
const media = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'media',
	operation: 'upload',
	accountId: 'ACC06163',
	binaryPropertyName: 'data',
	...extra,
});
const audience = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'audience',
	operation: 'create',
	accountId: 'ACC06163',
	title: 'Customers',
	source: 'items',
	phoneField: 'phone',
	hashNumbers: true,
	...extra,
});
const phones = (list: string[]) => list.map((phone) => ({ phone }));
const PNG = Buffer.from('89504e470d0a1a0a', 'hex');

export const BAD_INPUTS: BadInput[] = [
	// Dates, units and spans of the statistics period
	{
		name: 'stats: Period From after Period To',
		type: 'adCabinetStats',
		parameters: stats({ periodFrom: '2026-11-09T00:00:00Z' }),
		message: /^Period From: must not be after Period To/,
	},
	{
		name: 'stats: a Period From that is not a date',
		type: 'adCabinetStats',
		parameters: stats({ periodFrom: 'yesterday-ish' }),
		message: /^Period From: must be a date/,
	},
	{
		name: 'stats: 30 February',
		type: 'adCabinetStats',
		parameters: stats({ periodTo: '2026-02-30' }),
		message: /^Period To: must be a date/,
	},
	{
		name: 'stats: a Period To expression that gives nothing',
		type: 'adCabinetStats',
		parameters: stats({ periodTo: '={{ "" }}' }),
		message: /^Period To: is required/,
	},
	{
		name: 'stats: hour unit spanning 3 days',
		type: 'adCabinetStats',
		parameters: stats({
			periodGroupingUnit: 'hour',
			periodFrom: hoursAgo(73),
			periodTo: hoursAgo(1),
		}),
		message: /^Period From: with the unit "hour" the period may span at most 2 days/,
	},
	{
		name: 'stats: 5-minute unit 6 days back',
		type: 'adCabinetStats',
		parameters: stats({
			periodGroupingUnit: '5_minutes',
			periodFrom: hoursAgo(144),
			periodTo: hoursAgo(130),
		}),
		message: /^Period From: with the unit "5_minutes" data exists only for the last 5 days/,
	},
	{
		name: 'stats: 30-minute unit older than 5 days',
		type: 'adCabinetStats',
		parameters: stats({
			periodGroupingUnit: '30_minutes',
			periodFrom: hoursAgo(122),
			periodTo: hoursAgo(100),
		}),
		message: /^Period From: with the unit "30_minutes" data exists only for the last 5 days/,
	},
	{
		name: 'stats: an unknown unit',
		type: 'adCabinetStats',
		parameters: stats({ periodGroupingUnit: 'quarter' }),
		message: /^Period Grouping Unit: must be one of/,
	},
	// Limits
	{
		name: 'stats: Limit 0',
		type: 'adCabinetStats',
		parameters: stats({ returnAll: false, limit: 0 }),
		message: /^Limit: must be a whole number of at least 1/,
	},
	{
		name: 'stats: Limit -5',
		type: 'adCabinetStats',
		parameters: stats({ returnAll: false, limit: -5 }),
		message: /^Limit: must be a whole number of at least 1/,
	},
	{
		name: 'stats: Page Size 501',
		type: 'adCabinetStats',
		parameters: stats({ options: { pageSize: 501 } }),
		message: /^Page Size: must be a whole number from 1 to 500/,
	},
	{
		name: 'stats: Page Size 0',
		type: 'adCabinetStats',
		parameters: stats({ options: { pageSize: 0 } }),
		message: /^Page Size: must be a whole number from 1 to 500/,
	},
	{
		name: 'advertised objects: Limit 0',
		type: 'adCabinetStats',
		parameters: { resource: 'advertisedObject', operation: 'getAll', returnAll: false, limit: 0 },
		message: /^Limit: must be a whole number of at least 1/,
	},
	{
		name: 'kktu: Limit 0',
		type: 'adCabinetKktu',
		parameters: {
			resource: 'category',
			operation: 'getAll',
			returnAll: false,
			limit: 0,
			onlySelectable: true,
			filters: {},
		},
		message: /^Limit: must be a whole number of at least 1/,
	},
	// Grouping and currency values
	{
		name: 'stats: grouping "country"',
		type: 'adCabinetStats',
		parameters: stats({ grouping: ['campaign', 'country'] }),
		message: /^Grouping: values must be from ad, ad_object, cabinet, campaign \(got "country"\)/,
	},
	{
		name: 'stats 1.2: a cabinet name as a cabinet',
		type: 'adCabinetStats',
		typeVersion: 1.2,
		parameters: stats({ filters: { cabinetIds: '={{ ["ACC06163", "Tashkent Digital"] }}' } }),
		message:
			/^Cabinet Names or IDs: each must be a cabinet ID such as ACC0000, .*\(got "Tashkent Digital"\)/,
	},
	{
		name: 'stats: currency GBP',
		type: 'adCabinetStats',
		parameters: stats({ currency: 'GBP' }),
		message: /^Currency: must be one of EUR, TON, USD, RUB, USDT, STAR/,
	},
	// Legacy report
	{
		name: 'legacy: Date From after Date To',
		type: 'adCabinetStats',
		parameters: legacy({ dateFrom: '2026-11-09' }),
		message: /^Date From: must not be after Date To/,
	},
	{
		name: 'legacy: a campaign id that is not a number',
		type: 'adCabinetStats',
		parameters: legacy({ filters: { campaignIds: '12, twelve' } }),
		message: /^Campaign IDs: must be whole numbers/,
	},
	{
		name: 'legacy: Date To that is not a date',
		type: 'adCabinetStats',
		parameters: legacy({ dateTo: 'soon' }),
		message: /^Date To: must be a date/,
	},
	// Trigger
	{
		name: 'trigger: backfill 8 days back with hour units',
		type: 'adCabinetStatsTrigger',
		trigger: true,
		parameters: trigger({
			periodGroupingUnit: 'hour',
			startFrom: 'date',
			startDate: hoursAgo(192),
		}),
		message: /^Start Date: with the unit "hour" data exists only for the last 5 days/,
	},
	{
		name: 'trigger: a Start Date that is not a date',
		type: 'adCabinetStatsTrigger',
		trigger: true,
		parameters: trigger({ startFrom: 'date', startDate: 'last spring' }),
		message: /^Start Date: must be a date/,
	},
	{
		name: 'trigger 1.1: cabinets joined by semicolons',
		type: 'adCabinetStatsTrigger',
		trigger: true,
		typeVersion: 1.1,
		parameters: trigger({ filters: { cabinetIds: '={{ "ACC06163; ACC07021" }}' } }),
		message:
			/^Cabinet Names or IDs: each must be a cabinet ID such as ACC0000, .*\(got "ACC06163; ACC07021"\)/,
	},
	{
		name: 'trigger: a negative settle delay',
		type: 'adCabinetStatsTrigger',
		trigger: true,
		parameters: trigger({ options: { settleMinutes: -10 } }),
		message: /^Settle Delay \(Minutes\): must be a number of minutes, 0 or more/,
	},
	// Malformed URLs in the credential
	{
		name: 'credential: an ftp:// Base URL',
		type: 'adCabinetStats',
		parameters: stats(),
		credentials: { baseUrl: 'ftp://ads.example.com' },
		message: /^Base URL \(Ad Cabinet API credential\): must be an http:\/\/ or https:\/\/ address/,
	},
	{
		name: 'credential: a Base URL without a scheme (declarative operation)',
		type: 'adCabinetStats',
		parameters: { resource: 'advertisedObject', operation: 'getAll', returnAll: true },
		credentials: { baseUrl: 'ads.example.com' },
		message: /^Base URL \(Ad Cabinet API credential\): must be an http:\/\/ or https:\/\/ address/,
	},
	{
		name: 'credential: a Client API URL with a space',
		type: 'adCabinetKktu',
		parameters: { resource: 'category', operation: 'getTree' },
		credentials: { clientApiUrl: 'http://client api.example.com' },
		message:
			/^Client API URL \(Ad Cabinet API credential\): must be an http:\/\/ or https:\/\/ address/,
	},
	// Binary input
	{
		name: 'media: no binary field of that name',
		type: 'adCabinetMedia',
		parameters: media({ binaryPropertyName: 'image' }),
		input: [file(PNG, 'image/png', 'a.png')],
		message: /^Input Binary Field: the input item has no binary field with this name; it has: data/,
	},
	{
		name: 'media: a text file',
		type: 'adCabinetMedia',
		parameters: media(),
		input: [file('hello', 'text/plain', 'a.txt')],
		message: /^Input Binary Field: must hold a JPEG, PNG, GIF or WebP image or an MP4 video/,
	},
	{
		name: 'media: an empty file',
		type: 'adCabinetMedia',
		parameters: media(),
		input: [file(Buffer.alloc(0), 'image/png', 'a.png')],
		message: /^Input Binary Field: the file is empty/,
	},
	{
		name: 'media: an empty Cabinet ID',
		type: 'adCabinetMedia',
		parameters: media({ accountId: '={{ "" }}' }),
		input: [file(PNG, 'image/png', 'a.png')],
		message: /^Cabinet ID: is required/,
	},
	{
		name: 'audiences: a PNG as the audience file',
		type: 'adCabinetAudiences',
		parameters: audience({ source: 'binary', binaryPropertyName: 'data' }),
		input: [file(PNG, 'image/png', 'list.png')],
		message: /^Input Binary Field: must be a CSV or txt file/,
	},
	{
		name: 'audiences: no binary field of that name',
		type: 'adCabinetAudiences',
		parameters: audience({ source: 'binary', binaryPropertyName: 'csv' }),
		input: [file('998901234567', 'text/csv', 'a.csv')],
		message: /^Input Binary Field: the input item has no binary field with this name/,
	},
	// Audience size, format, prefix, mix
	{
		name: 'audiences: 999 numbers',
		type: 'adCabinetAudiences',
		parameters: audience(),
		input: phones(numbers(999)),
		message: /^Phone Field: an audience needs at least 1,000 numbers/,
	},
	{
		name: 'audiences: numbers starting 997',
		type: 'adCabinetAudiences',
		parameters: audience(),
		input: phones([...numbers(1000), ...numbers(3, '99790')]),
		message: /^Phone Field: every entry must be a phone number of 12 digits starting with 998/,
	},
	{
		name: 'audiences: letters among numbers',
		type: 'adCabinetAudiences',
		parameters: audience(),
		input: phones([...numbers(1000), 'call me']),
		message: /^Phone Field: every entry must be a phone number/,
	},
	{
		name: 'audiences: numbers mixed with hashes',
		type: 'adCabinetAudiences',
		parameters: audience(),
		input: phones([...numbers(1000), 'a'.repeat(64)]),
		message: /^Phone Field: entries must be all phone numbers or all SHA-256 hashes, not a mix/,
	},
	{
		name: 'audiences: a file over 10 MB',
		type: 'adCabinetAudiences',
		parameters: audience({ source: 'binary', binaryPropertyName: 'data' }),
		input: [file(numbers(161_400).join('\n'), 'text/csv', 'big.csv')],
		message: /^Input Binary Field: the audience file may be at most 10 MB/,
	},
	{
		name: 'audiences: a Phone Field no item has',
		type: 'adCabinetAudiences',
		parameters: audience({ phoneField: 'mobile' }),
		input: phones(numbers(1000)),
		message: /^Phone Field: no input item has a value in this field/,
	},
	// Empty required fields (arriving from expressions; the editor blocks literal blanks itself)
	{
		name: 'audiences: an empty Title',
		type: 'adCabinetAudiences',
		parameters: audience({ title: '={{ "" }}' }),
		input: phones(numbers(1000)),
		message: /^Title: is required/,
	},
	{
		name: 'audiences: Limit 0 on the audience list',
		type: 'adCabinetAudiences',
		parameters: {
			resource: 'audience',
			operation: 'getAll',
			accountId: 'ACC06163',
			returnAll: false,
			limit: 0,
		},
		message: /^Limit: must be a whole number of at least 1/,
	},
	...PIXEL_BAD_INPUTS,
	...AD_BAD_INPUTS,
	...ADS_TRIGGER_BAD_INPUTS,
];

/**
 * Declarative operations raise input errors inside n8n's RoutingNode, which re-wraps any error that
 * is not already a NodeApiError into one with httpCode "none", keeping the node's message and
 * description. Such a wrapper counts as the node's own NodeOperationError.
 */
