import {
	type NodeApiError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type INodePropertyOptions,
	type JsonObject,
} from 'n8n-workflow';
import type { Operation } from '../../../shared/operation';
import { cabinetIdFields, readCabinetId } from '../../../shared/cabinetId';
import { credentialViewOf, secretsOf } from '../../../shared/auth';
import { eachItem } from '../../../shared/perItem';
import {
	downloadFromParameters,
	fileUrlProperties,
	FILE_URL_LABEL,
	NOTHING_SENT_BEFORE_DOWNLOAD,
	type FileKind,
} from '../../../shared/download';
import {
	apiRequest,
	connectionOptions,
	type ConnectionOptions,
} from '../../../shared/transport/request';
import { apiError, cabinetAccessHint } from '../../../shared/transport/nodeErrors';
import { invalidInput } from '../../../shared/validation';
import { extensionOf, MEDIA_TYPES_TEXT, sniffMediaType } from './mediaType';
import { platformNames } from '../../../shared/platform';
import { describeForm, dryRunOutput, isDryRun, writeOptionsProperty } from '../../../shared/writes';

/** The Media node version from which Upload takes Dry Run. */
const MEDIA_SAFE_WRITES_SINCE = 1.2;

const show = { resource: ['media'], operation: ['upload'] };
const BINARY_LABEL = 'Input Binary Field';
/**
 * The API documents no size limit; a download is stopped past 50 MB unless raised. It is held in
 * memory whole (and once more as the upload's body), so it may be raised to 200 MB at most.
 */
const URL_SIZE_LIMITS = { defaultMb: 50, maxMb: 200 };

const MEDIA_SOURCES: INodePropertyOptions[] = [
	{
		name: 'From Binary Field',
		value: 'binary',
		description:
			'A file in each input item, e.g. from Read Files or HTTP Request. Not for an AI agent tool: a tool call carries no file.',
	},
	{
		name: 'From URL',
		value: 'url',
		description: 'Downloaded by n8n from an address, e.g. an image link in a sheet',
	},
];

const fields: INodeProperties[] = [
	// Version 1 nodes keep the typed-in Cabinet ID; from 1.1 it is picked from the list or typed.
	...cabinetIdFields(show, [1], 'The cabinet (account) ID the media is uploaded for'),
	{
		displayName: 'Source',
		name: 'source',
		type: 'options',
		noDataExpression: true,
		options: MEDIA_SOURCES,
		default: 'binary',
		displayOptions: { show: { ...show, '@tool': [false] } },
	},
	// An AI agent's tool call carries no binary data, so the tool variant takes its file from a URL.
	{
		displayName: 'Source',
		name: 'source',
		type: 'options',
		noDataExpression: true,
		options: MEDIA_SOURCES,
		default: 'url',
		displayOptions: { show: { ...show, '@tool': [true] } },
	},
	{
		displayName: BINARY_LABEL,
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		placeholder: 'e.g. data',
		displayOptions: { show: { ...show, source: ['binary'] } },
		hint: 'The name of the input binary field holding the image or video',
	},
	...fileUrlProperties(show, {
		placeholder: 'e.g. https://example.com/banner.jpg',
		description: `Address of ${MEDIA_TYPES_TEXT}; n8n downloads it and uploads it to the cabinet`,
		limits: URL_SIZE_LIMITS,
		maxSizeDescription:
			'A larger download is stopped and refused before anything is sent to the API',
	}),
	// Dry Run: from version 1.2, so older saved workflows upload as before.
	writeOptionsProperty(show, [1, 1.1]),
];

function binaryOf(ctx: IExecuteFunctions, item: INodeExecutionData, i: number) {
	const name = ctx.getNodeParameter('binaryPropertyName', i) as unknown;
	if (typeof name !== 'string' || name.trim() === '') {
		throw invalidInput(ctx.getNode(), BINARY_LABEL, 'is required', i);
	}
	const property = name.trim();
	const binary = item.binary?.[property];
	if (!binary) {
		const present = Object.keys(item.binary ?? {});
		throw invalidInput(
			ctx.getNode(),
			BINARY_LABEL,
			`the input item has no binary field with this name${present.length ? `; it has: ${present.join(', ')}` : '; it has no binary data at all: read the file first, or set Source to From URL'}`,
			i,
			property,
		);
	}
	return { property, binary };
}

/** A media upload reports failure in its `error` field with a 2xx status, so the status alone does not tell. */
function refusedUpload(
	ctx: IExecuteFunctions,
	body: IDataObject,
	i: number,
	secrets: string[],
): NodeApiError {
	const reason = typeof body.error === 'string' ? body.error : JSON.stringify(body.error);
	return apiError(ctx.getNode(), {
		body: body as JsonObject,
		secrets,
		message: `The Ad Cabinet API refused the media file: ${reason.replace(/[.\s]+$/, '')}. Nothing was stored, so uploading a corrected file is safe.`,
		description: `The upload answered with an error instead of a media token. Ads take ${MEDIA_TYPES_TEXT}.`,
		itemIndex: i,
	});
}

async function fromBinary(ctx: IExecuteFunctions, item: INodeExecutionData, i: number) {
	const node = ctx.getNode();
	const { property, binary } = binaryOf(ctx, item, i);
	const fileName =
		binary.fileName ?? `media${binary.fileExtension ? `.${binary.fileExtension}` : ''}`;
	const mimeType = binary.mimeType || 'application/octet-stream';
	// Ads carry images and videos; an unlabelled file is left for the API to recognise.
	if (!/^(image|video)\//.test(mimeType) && mimeType !== 'application/octet-stream') {
		throw invalidInput(node, BINARY_LABEL, `must hold ${MEDIA_TYPES_TEXT}`, i, mimeType);
	}
	// n8n hands the file over as one Buffer (from memory or its binary storage); the Blob is the one copy multipart needs.
	const bytes = await ctx.helpers.getBinaryDataBuffer(i, property);
	if (bytes.length === 0) throw invalidInput(node, BINARY_LABEL, 'the file is empty', i, property);
	return { bytes, mimeType, fileName };
}

/** Ads carry images and videos; a server may also send one unlabelled. */
const MEDIA_FILE: FileKind = {
	what: 'the image or video',
	allowed: MEDIA_TYPES_TEXT,
	acceptsType: (type) => /^(image|video)\//.test(type) || /octet-stream$/.test(type),
};

function fileNameFrom(url: URL, mimeType: string): string {
	const last = decodeURIComponent(url.pathname.split('/').pop() ?? '').trim();
	const base = last.replace(/\.[^.]*$/, '') || 'media';
	return `${base}.${extensionOf(mimeType)}`;
}

/** Downloads the file at File URL; its type is read from its bytes, whatever the server called it. */
async function fromUrl(ctx: IExecuteFunctions, i: number, connection: ConnectionOptions) {
	const { bytes, url, given, declared } = await downloadFromParameters(
		ctx,
		i,
		MEDIA_FILE,
		URL_SIZE_LIMITS,
		connection,
	);
	const mimeType = sniffMediaType(bytes);
	if (!mimeType) {
		throw invalidInput(
			ctx.getNode(),
			FILE_URL_LABEL,
			`must point at ${MEDIA_TYPES_TEXT}; the file it serves${declared ? ` (sent as ${declared})` : ''} is none of these`,
			i,
			given,
			NOTHING_SENT_BEFORE_DOWNLOAD,
		);
	}
	return { bytes, mimeType, fileName: fileNameFrom(url, mimeType) };
}

async function uploadOne(
	ctx: IExecuteFunctions,
	item: INodeExecutionData,
	i: number,
	secrets: string[],
): Promise<IDataObject> {
	const node = ctx.getNode();
	const accountId = readCabinetId(node, ctx.getNodeParameter('accountId', i), i);
	const connection = connectionOptions(ctx, i);
	const { bytes, mimeType, fileName } =
		ctx.getNodeParameter('source', i, 'binary') === 'url'
			? await fromUrl(ctx, i, connection)
			: await fromBinary(ctx, item, i);
	const form = new FormData();
	form.append('media', new Blob([bytes], { type: mimeType }), fileName);
	const path = platformNames(await credentialViewOf(ctx), node, i).paths.mediaUpload;
	if (isDryRun(ctx, i, MEDIA_SAFE_WRITES_SINCE)) {
		return dryRunOutput('POST', path, await describeForm(form), {
			query: { account_id: accountId },
		});
	}
	const body = await apiRequest.call(ctx, {
		api: 'client',
		method: 'POST',
		path,
		qs: { account_id: accountId },
		body: form,
		idempotent: false,
		itemIndex: i,
		connection,
		hint: (failure) =>
			failure.status === 403
				? cabinetAccessHint(`cabinet ${accountId}`)
				: failure.status === 413
					? 'The file is larger than the API accepts. Upload a smaller or compressed file.'
					: undefined,
	});
	const record = (
		body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {}
	) as IDataObject;
	if (record.error !== undefined && record.error !== null && record.error !== '')
		throw refusedUpload(ctx, record, i, secrets);
	if (typeof record.media_token !== 'string' || record.media_token === '') {
		throw apiError(node, {
			body: record as JsonObject,
			secrets,
			message:
				'The Ad Cabinet API answered the upload without a media token, so the file may not have been stored. Upload it again: each upload only stores a file, so repeating is harmless.',
			itemIndex: i,
		});
	}
	const result = { ...record };
	delete result.error;
	return result;
}

/** POST upload_media?account_id=…, multipart with one file part named `media`. */
async function executeMediaUpload(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const credentials = await credentialViewOf(this);
	const secrets = secretsOf(credentials);
	return [await eachItem(this, async (item, i) => await uploadOne(this, item, i, secrets))];
}

export const mediaUpload: Operation = {
	option: {
		name: 'Upload',
		value: 'upload',
		action: 'Upload a media file',
		description:
			'Send an image or video from an input binary field; returns the media token for an ad',
	},
	fields,
	execute: executeMediaUpload,
};
