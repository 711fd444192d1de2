import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	IPairedItemData,
} from 'n8n-workflow';
import type { Operation } from '../../../shared/operation';
import { cabinetIdFields, readCabinetId } from '../../../shared/cabinetId';
import { AUDIENCE_CABINET_TYPED_IN } from './hints';
import {
	downloadFromParameters,
	fileUrlProperties,
	FILE_URL_LABEL,
	NOTHING_SENT_BEFORE_DOWNLOAD,
	type FileKind,
} from '../../../shared/download';
import { eachItem, guardItem } from '../../../shared/perItem';
import { connectionOptions } from '../../../shared/transport/request';
import { invalidInput } from '../../../shared/validation';
import {
	AUDIENCE_MAX_BYTES,
	buildAudienceFromText,
	buildAudienceFromValues,
	type AudienceBuild,
} from './audienceFile';
import { uploadAudience, type AudienceTarget } from './audienceUpload';
import { writeOptionsProperty } from '../../../shared/writes';

const show = { resource: ['audience'], operation: ['create'] };
const FIELD_LABELS = {
	title: 'Title',
	binary: 'Input Binary Field',
	phoneField: 'Phone Field',
	list: 'Phone Numbers',
} as const;
const AUDIENCE_FILE_TYPES = new Set([
	'text/csv',
	'text/plain',
	'application/csv',
	'text/comma-separated-values',
]);
const AUDIENCE_FILE_TEXT = 'a CSV or txt file of phone numbers';
/**
 * The audience file sent is at most 10 MB (AUDIENCE_MAX_BYTES): about 806,000 cleaned numbers of 12
 * digits. Written as "+998 90 123-45-67" with CRLF line ends, those are about 15.3 MB, so 20 MB takes
 * every list that can fit and stops a wrong link (a video, an archive) early. A download of
 * 50 MB is more than three times what can fit, so 50 is the most Max File Size takes.
 */
const URL_SIZE_LIMITS = { defaultMb: 2 * (AUDIENCE_MAX_BYTES / 1024 / 1024), maxMb: 50 };

/**
 * The API takes the audience file as CSV or txt. A server may label it as text, CSV, a download
 * (octet-stream), or as Excel for a .csv path; a web page (e.g. a sharing page) is never the file.
 */
const AUDIENCE_URL_FILE: FileKind = {
	what: 'the CSV or txt file',
	allowed: `${AUDIENCE_FILE_TEXT} (text/csv or text/plain)`,
	acceptsType: (type, url) =>
		type !== 'text/html' &&
		(AUDIENCE_FILE_TYPES.has(type) ||
			type.startsWith('text/') ||
			/octet-stream$/.test(type) ||
			/\.(csv|txt)$/i.test(url.pathname)),
};

const AUDIENCE_SOURCES: INodePropertyOptions[] = [
	{
		name: 'From a List',
		value: 'list',
		description: 'Phone numbers written in one parameter; one audience per input item',
	},
	{
		name: 'From Binary File',
		value: 'binary',
		description:
			'A CSV or txt file in each input item; one audience per item. Not for an AI agent tool: a tool call carries no file.',
	},
	{
		name: 'From Input Items',
		value: 'items',
		description:
			'A field holding phone numbers, collected across all input items into one audience. Not for an AI agent tool: a tool call is one item.',
	},
	{
		name: 'From URL',
		value: 'url',
		description:
			'A CSV or txt file of phone numbers downloaded by n8n from an address; one audience per input item. Works in an AI agent tool.',
	},
];

const fields: INodeProperties[] = [
	...cabinetIdFields(
		show,
		AUDIENCE_CABINET_TYPED_IN,
		'The cabinet (account) ID; audiences exist only for cabinets whose geolocation is Uzbekistan',
	),
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Loyal customers',
		displayOptions: { show },
		description: 'Name of the audience',
	},
	{
		displayName: 'Source',
		name: 'source',
		type: 'options',
		noDataExpression: true,
		options: AUDIENCE_SOURCES,
		default: 'items',
		displayOptions: { show: { ...show, '@tool': [false] } },
	},
	// An AI agent's tool call carries neither input items nor a file, so the tool variant takes a list.
	{
		displayName: 'Source',
		name: 'source',
		type: 'options',
		noDataExpression: true,
		options: AUDIENCE_SOURCES,
		default: 'list',
		displayOptions: { show: { ...show, '@tool': [true] } },
	},
	{
		displayName: FIELD_LABELS.list,
		name: 'phoneNumbers',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 4 },
		placeholder: 'e.g. 998901234567, 998901234568',
		displayOptions: { show: { ...show, source: ['list'] } },
		hint: 'Phone numbers (or SHA-256 hashes) separated by commas or line breaks, or an array from an expression; one audience per input item',
	},
	{
		displayName: FIELD_LABELS.binary,
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		placeholder: 'e.g. data',
		displayOptions: { show: { ...show, source: ['binary'] } },
		hint: 'The input binary field holding the CSV or txt file: numbers or SHA-256 hashes separated by commas or line breaks',
	},
	...fileUrlProperties(show, {
		placeholder: 'e.g. https://example.com/customers.csv',
		description:
			'Address of a CSV or txt file of phone numbers (or SHA-256 hashes) separated by commas or line breaks; n8n downloads it, cleans the numbers and uploads them as the audience',
		limits: URL_SIZE_LIMITS,
		maxSizeDescription:
			'A larger download is stopped and refused before anything is sent to the API. The default takes every list that can fit the 10 MB audience file, even with formatted numbers.',
	}),
	{
		displayName: FIELD_LABELS.phoneField,
		name: 'phoneField',
		type: 'string',
		required: true,
		default: 'phone',
		placeholder: 'e.g. phone',
		displayOptions: { show: { ...show, source: ['items'] } },
		hint: 'The input field holding the phone number (or its SHA-256 hash), e.g. a spreadsheet column. Use dots for nested fields.',
	},
	{
		displayName: 'Hash Numbers Before Upload',
		name: 'hashNumbers',
		type: 'boolean',
		default: true,
		displayOptions: { show },
		description:
			'Whether to replace each phone number by its SHA-256 hash inside n8n, so raw numbers never leave it. Entries that are already hashes are sent as they are.',
	},
	{
		displayName:
			'Numbers are cleaned before upload: +, spaces, dashes and brackets are removed and duplicates dropped. Each must then be 12 digits starting with 998; at least 1,000 are needed, and the file may be at most 10 MB. The output reports the counts.',
		name: 'audienceRulesNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	// Dry Run: from version 1.3, so older saved workflows write as before.
	writeOptionsProperty(show, [1, 1.1, 1.2]),
];

/** Reads a field by name, or by a dotted path when no field has that exact name. */
function fieldValue(json: IDataObject, path: string): unknown {
	if (path in json) return json[path];
	let value: unknown = json;
	for (const key of path.split('.')) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as IDataObject)[key];
	}
	return value;
}

function readTarget(ctx: IExecuteFunctions, i: number): AudienceTarget {
	const accountId = readCabinetId(ctx.getNode(), ctx.getNodeParameter('accountId', i), i);
	const title = ctx.getNodeParameter('title', i) as unknown;
	if (typeof title !== 'string' || title.trim() === '') {
		throw invalidInput(
			ctx.getNode(),
			FIELD_LABELS.title,
			'is required',
			i,
			typeof title === 'string' ? undefined : title,
		);
	}
	return { accountId, title };
}

function refuse(
	ctx: IExecuteFunctions,
	build: AudienceBuild,
	field: string,
	i: number,
	given?: string,
	nothingSent?: string,
): void {
	if (build.problem)
		throw invalidInput(ctx.getNode(), field, build.problem.message, i, given, nothingSent);
}

async function fromItems(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<IDataObject> {
	const target = readTarget(ctx, 0);
	const rawField = ctx.getNodeParameter('phoneField', 0) as unknown;
	const field = typeof rawField === 'string' ? rawField.trim() : '';
	if (!field) throw invalidInput(ctx.getNode(), FIELD_LABELS.phoneField, 'is required', 0);
	const values = new Array<unknown>(items.length);
	for (let i = 0; i < items.length; i++) values[i] = fieldValue(items[i].json, field);
	const build = buildAudienceFromValues(values, {
		hash: ctx.getNodeParameter('hashNumbers', 0) as boolean,
	});
	if (build.problem?.rule === 'noEntries') {
		throw invalidInput(
			ctx.getNode(),
			FIELD_LABELS.phoneField,
			`no input item has a value in this field (${items.length.toLocaleString('en-US')} items read)`,
			0,
			field,
		);
	}
	refuse(ctx, build, FIELD_LABELS.phoneField, 0);
	return await uploadAudience(ctx, target, build, 0);
}

async function fromBinary(
	ctx: IExecuteFunctions,
	item: INodeExecutionData,
	i: number,
): Promise<IDataObject> {
	const target = readTarget(ctx, i);
	const rawName = ctx.getNodeParameter('binaryPropertyName', i) as unknown;
	const property = typeof rawName === 'string' ? rawName.trim() : '';
	if (!property) throw invalidInput(ctx.getNode(), FIELD_LABELS.binary, 'is required', i);
	if (!item.binary?.[property]) {
		const present = Object.keys(item.binary ?? {});
		throw invalidInput(
			ctx.getNode(),
			FIELD_LABELS.binary,
			`the input item has no binary field with this name${present.length ? `; it has: ${present.join(', ')}` : '; it has no binary data at all: read the file first, or set Source to From a List'}`,
			i,
			property,
		);
	}
	const file = item.binary[property];
	const extension = (file.fileExtension ?? file.fileName?.split('.').pop() ?? '').toLowerCase();
	// The API takes the audience file as CSV or txt.
	if (!AUDIENCE_FILE_TYPES.has(file.mimeType) && !['csv', 'txt'].includes(extension)) {
		throw invalidInput(
			ctx.getNode(),
			FIELD_LABELS.binary,
			'must be a CSV or txt file',
			i,
			file.mimeType,
		);
	}
	const bytes = await ctx.helpers.getBinaryDataBuffer(i, property);
	const build = buildAudienceFromText(bytes.toString('utf8'), {
		hash: ctx.getNodeParameter('hashNumbers', i) as boolean,
		skipHeader: true,
		invalidAs: 'lines',
	});
	refuse(ctx, build, FIELD_LABELS.binary, i);
	return await uploadAudience(ctx, target, build, i);
}

/** A text file has no NUL bytes; an image, archive or spreadsheet has them near its start. */
const TEXT_SNIFF_BYTES = 64 * 1024;

async function fromUrl(ctx: IExecuteFunctions, i: number): Promise<IDataObject> {
	const target = readTarget(ctx, i);
	const hash = ctx.getNodeParameter('hashNumbers', i) as boolean;
	const { bytes, given, declared } = await downloadFromParameters(
		ctx,
		i,
		AUDIENCE_URL_FILE,
		URL_SIZE_LIMITS,
		connectionOptions(ctx, i),
	);
	if (bytes.subarray(0, TEXT_SNIFF_BYTES).includes(0)) {
		throw invalidInput(
			ctx.getNode(),
			FILE_URL_LABEL,
			`must point at ${AUDIENCE_FILE_TEXT}; the file it serves${declared ? ` (sent as ${declared})` : ''} is not text. Export the numbers as CSV or txt, one per line or separated by commas`,
			i,
			given,
			NOTHING_SENT_BEFORE_DOWNLOAD,
		);
	}
	// A downloaded file's content never appears in an error: invalid entries are given by line.
	const build = buildAudienceFromText(bytes.toString('utf8'), {
		hash,
		skipHeader: true,
		invalidAs: 'lines',
	});
	refuse(ctx, build, FILE_URL_LABEL, i, given, NOTHING_SENT_BEFORE_DOWNLOAD);
	return await uploadAudience(ctx, target, build, i);
}

async function fromList(ctx: IExecuteFunctions, i: number): Promise<IDataObject> {
	const target = readTarget(ctx, i);
	const raw = ctx.getNodeParameter('phoneNumbers', i) as unknown;
	const options = { hash: ctx.getNodeParameter('hashNumbers', i) as boolean };
	const build = Array.isArray(raw)
		? buildAudienceFromValues(raw, options)
		: buildAudienceFromText(
				typeof raw === 'string' || typeof raw === 'number' ? String(raw) : '',
				options,
			);
	if (build.problem?.rule === 'noEntries') {
		throw invalidInput(
			ctx.getNode(),
			FIELD_LABELS.list,
			'is required: phone numbers separated by commas or line breaks',
			i,
		);
	}
	refuse(ctx, build, FIELD_LABELS.list, i);
	return await uploadAudience(ctx, target, build, i);
}

/**
 * Audience → Create is a custom operation: "From Input Items" builds one file from all
 * items, "From URL" downloads the file first, and every source sends multipart, which declarative
 * routing cannot express.
 */
async function executeAudienceCreate(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const source = this.getNodeParameter('source', 0) as string;
	if (source === 'items') {
		const pairedItem: IPairedItemData[] = items.map((_item, index) => ({ item: index }));
		return [
			await guardItem(this, 0, async () => [{ json: await fromItems(this, items) }], pairedItem),
		];
	}
	if (source === 'list') return [await eachItem(this, async (_item, i) => await fromList(this, i))];
	if (source === 'url') return [await eachItem(this, async (_item, i) => await fromUrl(this, i))];
	return [await eachItem(this, async (item, i) => await fromBinary(this, item, i))];
}

export const audienceCreate: Operation = {
	option: {
		name: 'Create',
		value: 'create',
		action: 'Create an audience',
		description:
			'Upload phone numbers (or their SHA-256 hashes) as a new audience, from a file or from a field of the input items',
	},
	fields,
	execute: executeAudienceCreate,
};
