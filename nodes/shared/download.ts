import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { readFailure } from './transport/failure';
import { DEFAULT_TIMEOUT_MS, type ConnectionOptions } from './transport/request';
import { invalidInput } from './validation';

export const FILE_URL_LABEL = 'File URL';
export const MAX_SIZE_LABEL = 'Max File Size (MB)';
/** Ends every refusal of a downloaded file: the download is the only request made so far. */
export const NOTHING_SENT_BEFORE_DOWNLOAD =
	'Nothing was sent to the Ad Cabinet API, so running again is safe.';

/** What a node takes from a URL and how it recognises it from the Content-Type header. */
export interface FileKind {
	/** The file as an address should serve it, e.g. "the image or video". */
	what: string;
	/** The types allowed, in words, e.g. "a JPEG, PNG, GIF or WebP image or an MP4 video". */
	allowed: string;
	/** Whether a declared Content-Type (lower case, without parameters) may hold such a file. */
	acceptsType: (contentType: string, url: URL) => boolean;
}

export interface DownloadedBytes {
	bytes: Buffer;
	url: URL;
	/** The Content-Type the server sent, lower case without parameters; '' when it sent none. */
	declared: string;
}

interface StreamBody extends AsyncIterable<Buffer | Uint8Array> {
	destroy?: () => void;
}

function megabytes(bytes: number): string {
	return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The File URL and Max File Size parameters of a "From URL" source. */
export function fileUrlProperties(
	show: Record<string, string[]>,
	file: {
		description: string;
		placeholder: string;
		defaultMaxMb: number;
		maxSizeDescription: string;
	},
): INodeProperties[] {
	const { defaultMaxMb } = file;
	return [
		{
			displayName: FILE_URL_LABEL,
			name: 'fileUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: file.placeholder,
			displayOptions: { show: { ...show, source: ['url'] } },
			description: file.description,
		},
		{
			displayName: MAX_SIZE_LABEL,
			name: 'maxFileSizeMb',
			type: 'number',
			default: defaultMaxMb,
			typeOptions: { minValue: 1 },
			displayOptions: { show: { ...show, source: ['url'] } },
			description: file.maxSizeDescription,
		},
	];
}

/** Reads File URL and Max File Size of item `i` and downloads the file (see downloadFile). */
export async function downloadFromParameters(
	ctx: IExecuteFunctions,
	i: number,
	kind: FileKind,
	defaultMaxMb: number,
	connection: ConnectionOptions,
): Promise<DownloadedBytes> {
	const maxMb = ctx.getNodeParameter('maxFileSizeMb', i, defaultMaxMb) as unknown;
	if (!(typeof maxMb === 'number' && Number.isFinite(maxMb) && maxMb > 0)) {
		throw invalidInput(
			ctx.getNode(),
			MAX_SIZE_LABEL,
			'must be a number of megabytes above 0',
			i,
			maxMb,
		);
	}
	return await downloadFile(ctx, ctx.getNodeParameter('fileUrl', i), maxMb * 1024 * 1024, i, kind, {
		timeout: connection.timeout ?? DEFAULT_TIMEOUT_MS,
		proxy: connection.proxy,
		skipSslCertificateValidation: connection.skipSslCertificateValidation,
	});
}

/**
 * Downloads a file through n8n's request helper (its proxy and SSL settings apply), refusing
 * before anything reaches the Ad Cabinet API: a URL that is not http(s), a failed download, a
 * declared type that cannot hold the file, an empty file, and a file larger than maxBytes, which is
 * stopped while it is read. What the bytes hold is for the caller to check.
 */
export async function downloadFile(
	ctx: IExecuteFunctions,
	rawUrl: unknown,
	maxBytes: number,
	i: number,
	kind: FileKind,
	connection: ConnectionOptions,
): Promise<DownloadedBytes> {
	const node = ctx.getNode();
	const refuse = (rule: string, given?: unknown) =>
		invalidInput(node, FILE_URL_LABEL, rule, i, given, NOTHING_SENT_BEFORE_DOWNLOAD);
	const text = typeof rawUrl === 'string' ? rawUrl.trim() : '';
	let url: URL | undefined;
	try {
		url = new URL(text);
	} catch {
		url = undefined;
	}
	if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
		throw refuse(
			`must be an http:// or https:// address of ${kind.what}`,
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
		throw refuse(
			`downloading the file failed: ${why}; use a URL that serves the file itself`,
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
	if (declared && !kind.acceptsType(declared, url)) {
		stop();
		throw refuse(`must point at ${kind.allowed}, but the server sent ${declared}`, url.href);
	}
	const length = Number(header('content-length'));
	if (Number.isFinite(length) && length > maxBytes) {
		stop();
		throw refuse(
			`the file is ${megabytes(length)}, more than the ${megabytes(maxBytes)} allowed by Max File Size; raise Max File Size or use a smaller file`,
			url.href,
		);
	}
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of body) {
		size += chunk.length;
		if (size > maxBytes) {
			stop();
			throw refuse(
				`the file is more than the ${megabytes(maxBytes)} allowed by Max File Size (stopped reading it there); raise Max File Size or use a smaller file`,
				url.href,
			);
		}
		chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
	}
	if (size === 0) throw refuse('the server sent an empty file', url.href);
	return { bytes: Buffer.concat(chunks, size), url, declared };
}
