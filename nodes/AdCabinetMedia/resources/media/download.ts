import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { readFailure } from '../../../shared/transport/failure';
import { invalidInput } from '../../../shared/validation';
import { extensionOf, MEDIA_TYPES_TEXT, sniffMediaType } from './mediaType';

export const FILE_URL_LABEL = 'File URL';

export interface DownloadedFile {
	bytes: Buffer;
	mimeType: string;
	fileName: string;
}

interface StreamBody extends AsyncIterable<Buffer | Uint8Array> {
	destroy?: () => void;
}

function megabytes(bytes: number): string {
	return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function fileNameFrom(url: URL, mimeType: string): string {
	const last = decodeURIComponent(url.pathname.split('/').pop() ?? '').trim();
	const base = last.replace(/\.[^.]*$/, '') || 'media';
	return `${base}.${extensionOf(mimeType)}`;
}

/**
 * Downloads an image or video through n8n's request helper (its proxy and SSL settings apply),
 * refusing before anything reaches the Ad Cabinet API: a URL that is not http(s), an answer that
 * is not a file, and a file larger than maxBytes, which is stopped while it is read.
 */
export async function downloadMedia(
	ctx: IExecuteFunctions,
	rawUrl: unknown,
	maxBytes: number,
	i: number,
	connection: Pick<IHttpRequestOptions, 'timeout' | 'proxy' | 'skipSslCertificateValidation'>,
): Promise<DownloadedFile> {
	const node = ctx.getNode();
	const text = typeof rawUrl === 'string' ? rawUrl.trim() : '';
	let url: URL | undefined;
	try {
		url = new URL(text);
	} catch {
		url = undefined;
	}
	if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
		throw invalidInput(
			node,
			FILE_URL_LABEL,
			'must be an http:// or https:// address of the image or video',
			i,
			rawUrl === '' ? undefined : rawUrl,
		);
	}
	let response: {
		body: unknown;
		headers: Record<string, string | string[] | undefined>;
		statusCode: number;
	};
	try {
		response = (await ctx.helpers.httpRequest({
			method: 'GET',
			url: url.href,
			encoding: 'stream',
			returnFullResponse: true,
			...connection,
		})) as typeof response;
	} catch (error) {
		const failure = readFailure(error);
		const why =
			failure.status !== undefined
				? `the server answered ${failure.status}`
				: `it could not be reached${failure.code ? ` (${failure.code})` : ''}`;
		throw invalidInput(
			node,
			FILE_URL_LABEL,
			`downloading the file failed: ${why}; use a URL that serves the file itself`,
			i,
			url.href,
		);
	}
	const body = response.body as StreamBody;
	const header = (name: string) => {
		const value = response.headers[name];
		return Array.isArray(value) ? value[0] : value;
	};
	const declared = (header('content-type') ?? '').split(';')[0].trim().toLowerCase();
	const stop = () => body.destroy?.();
	if (declared && !/^(image|video)\//.test(declared) && !/octet-stream$/.test(declared)) {
		stop();
		throw invalidInput(
			node,
			FILE_URL_LABEL,
			`must point at ${MEDIA_TYPES_TEXT}, but the server sent ${declared}`,
			i,
			url.href,
		);
	}
	const length = Number(header('content-length'));
	if (Number.isFinite(length) && length > maxBytes) {
		stop();
		throw invalidInput(
			node,
			FILE_URL_LABEL,
			`the file is ${megabytes(length)}, more than the ${megabytes(maxBytes)} allowed by Max File Size`,
			i,
			url.href,
		);
	}
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of body) {
		size += chunk.length;
		if (size > maxBytes) {
			stop();
			throw invalidInput(
				node,
				FILE_URL_LABEL,
				`the file is more than the ${megabytes(maxBytes)} allowed by Max File Size (stopped reading it there)`,
				i,
				url.href,
			);
		}
		chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
	}
	const bytes = Buffer.concat(chunks, size);
	if (size === 0)
		throw invalidInput(node, FILE_URL_LABEL, 'the server sent an empty file', i, url.href);
	const mimeType = sniffMediaType(bytes);
	if (!mimeType) {
		throw invalidInput(
			node,
			FILE_URL_LABEL,
			`must point at ${MEDIA_TYPES_TEXT}; the file it serves${declared ? ` (sent as ${declared})` : ''} is none of these`,
			i,
			url.href,
		);
	}
	return { bytes, mimeType, fileName: fileNameFrom(url, mimeType) };
}
