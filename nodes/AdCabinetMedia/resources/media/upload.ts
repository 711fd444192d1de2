import {
	NodeApiError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type JsonObject,
} from 'n8n-workflow';
import { cabinetIdField, readCabinetId } from '../../../shared/cabinetId';
import { CREDENTIAL_TYPE, PATHS } from '../../../shared/constants';
import { eachItem } from '../../../shared/perItem';
import { apiRequest, connectionOptions } from '../../../shared/transport/request';
import { invalidInput } from '../../../shared/validation';

const show = { resource: ['media'], operation: ['upload'] };
const BINARY_LABEL = 'Input Binary Field';

export const mediaUploadDescription: INodeProperties[] = [
	cabinetIdField(show, 'The cabinet (account) ID the media is uploaded for'),
	{
		displayName: BINARY_LABEL,
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		placeholder: 'e.g. data',
		displayOptions: { show },
		hint: 'The name of the input binary field holding the image or video',
	},
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
			`the input item has no binary field with this name${present.length ? `; it has: ${present.join(', ')}` : '; it has no binary data at all'}`,
			i,
			property,
		);
	}
	return { property, binary };
}

/** A media upload reports failure in its `error` field with a 2xx status (spec 2.8, section 7). */
function refusedUpload(ctx: IExecuteFunctions, body: IDataObject, i: number, secret: string): NodeApiError {
	const raw = typeof body.error === 'string' ? body.error : JSON.stringify(body.error);
	const reason = secret && secret.length >= 4 ? raw.split(secret).join('***') : raw;
	return new NodeApiError(ctx.getNode(), body as JsonObject, {
		message: `The Ad Cabinet API refused the media file: ${reason}`,
		description:
			'The upload answered with an error instead of a media token (spec 4.10). Check that the file is an image or video the platform accepts, then run again.',
		itemIndex: i,
	});
}

async function uploadOne(ctx: IExecuteFunctions, item: INodeExecutionData, i: number, secret: string): Promise<IDataObject> {
	const node = ctx.getNode();
	const accountId = readCabinetId(node, ctx.getNodeParameter('accountId', i), i);
	const { property, binary } = binaryOf(ctx, item, i);
	const fileName = binary.fileName ?? `media${binary.fileExtension ? `.${binary.fileExtension}` : ''}`;
	const mimeType = binary.mimeType || 'application/octet-stream';
	// Ads carry images and videos; an unlabelled file is left for the API to recognise.
	if (!/^(image|video)\//.test(mimeType) && mimeType !== 'application/octet-stream') {
		throw invalidInput(node, BINARY_LABEL, 'must hold an image or a video', i, mimeType);
	}
	// n8n hands the file over as one Buffer (from memory or its binary storage); the Blob is the one copy multipart needs.
	const bytes = await ctx.helpers.getBinaryDataBuffer(i, property);
	if (bytes.length === 0) throw invalidInput(node, BINARY_LABEL, 'the file is empty', i, property);
	const form = new FormData();
	form.append('media', new Blob([bytes], { type: mimeType }), fileName);
	const body = await apiRequest.call(ctx, {
		api: 'client',
		method: 'POST',
		path: PATHS.mediaUpload,
		qs: { account_id: accountId },
		body: form,
		idempotent: false,
		itemIndex: i,
		connection: connectionOptions(ctx, i),
		hint: (failure) =>
			failure.status === 403
				? `The access token has no permission on cabinet ${accountId}. Check the Cabinet ID, or ask the cabinet owner for access.`
				: failure.status === 413
					? 'The file is larger than the API accepts. Upload a smaller or compressed file.'
					: undefined,
	});
	const record = (body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {}) as IDataObject;
	if (record.error !== undefined && record.error !== null && record.error !== '') throw refusedUpload(ctx, record, i, secret);
	if (typeof record.media_token !== 'string' || record.media_token === '') {
		throw new NodeApiError(node, record as JsonObject, {
			message: 'The Ad Cabinet API answered the upload without a media token',
			description: 'The upload may not have been stored. Check the file and run again.',
			itemIndex: i,
		});
	}
	const result = { ...record };
	delete result.error;
	return result;
}

/** spec 4.10: POST upload_media?account_id=…, multipart with one file part named `media`. */
export async function executeMediaUpload(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const secret = String(credentials.accessToken ?? '');
	return [await eachItem(this, async (item, i) => await uploadOne(this, item, i, secret))];
}
