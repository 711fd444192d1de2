import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { addressProblem, ALLOW_PRIVATE_LABEL, blockedBy, POLICY } from './downloadAddress';
import { withDeadline } from './transport/attempts';
import { DeadlineExceeded, readFailure } from './transport/apiFailure';
import { DEFAULT_TIMEOUT_MS, type ConnectionOptions } from './transport/request';
import { invalidInput } from './validation';

export const FILE_URL_LABEL = 'File URL';
const MAX_SIZE_LABEL = 'Max File Size (MB)';
/** Redirects followed, each to an address checked as the first one is. */
const MAX_REDIRECTS = 3;
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

interface DownloadedBytes {
	bytes: Buffer;
	/** Where the file came from, after any redirects. */
	url: URL;
	/** The File URL as given (normalised), for refusals: a redirect's target is never quoted. */
	given: string;
	/** The Content-Type the server sent, lower case without parameters; '' when it sent none. */
	declared: string;
}

interface StreamBody extends AsyncIterable<Buffer | Uint8Array> {
	destroy?: () => void;
}

function megabytes(bytes: number): string {
	return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The limits of a node's Max File Size parameter, in megabytes. */
interface SizeLimits {
	defaultMb: number;
	/** The most a user may set: a download is held in memory whole. */
	maxMb: number;
}

/** The File URL, Max File Size and Allow Private Network Addresses parameters of a "From URL" source. */
export function fileUrlProperties(
	show: Record<string, string[]>,
	file: {
		description: string;
		placeholder: string;
		limits: SizeLimits;
		maxSizeDescription: string;
	},
): INodeProperties[] {
	const { defaultMb, maxMb } = file.limits;
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
			default: defaultMb,
			typeOptions: { minValue: 1, maxValue: maxMb },
			displayOptions: { show: { ...show, source: ['url'] } },
			description: `${file.maxSizeDescription.replace(/\.$/, '')}. It can be raised to ${maxMb} at most.`,
		},
		{
			displayName: ALLOW_PRIVATE_LABEL,
			name: 'allowPrivateNetwork',
			type: 'boolean',
			default: false,
			displayOptions: { show: { ...show, source: ['url'] } },
			description:
				'Whether File URL may point inside a private network: this machine (localhost, 127.0.0.1), private ranges such as 10.x, 172.16-31.x and 192.168.x, link-local addresses such as 169.254.x (where cloud servers keep their credentials) and similar. When off, such addresses are refused before any connection, also when a redirect leads there. Turn on only for files on your own network, never for URLs an AI agent or an outside source chooses.',
		},
	];
}

/** Reads File URL, Max File Size and Allow Private Network Addresses of item `i` and downloads the file (see downloadFile). */
export async function downloadFromParameters(
	ctx: IExecuteFunctions,
	i: number,
	kind: FileKind,
	limits: SizeLimits,
	connection: ConnectionOptions,
): Promise<DownloadedBytes> {
	const maxMb = ctx.getNodeParameter('maxFileSizeMb', i, limits.defaultMb) as unknown;
	if (!(
		typeof maxMb === 'number' &&
		Number.isFinite(maxMb) &&
		maxMb > 0 &&
		maxMb <= limits.maxMb
	)) {
		throw invalidInput(
			ctx.getNode(),
			MAX_SIZE_LABEL,
			`must be a number of megabytes above 0 and at most ${limits.maxMb}`,
			i,
			maxMb,
		);
	}
	return await downloadFile(ctx, ctx.getNodeParameter('fileUrl', i), i, kind, {
		maxBytes: maxMb * 1024 * 1024,
		allowPrivateNetwork: ctx.getNodeParameter('allowPrivateNetwork', i, false) === true,
		connection: {
			timeout: connection.timeout ?? DEFAULT_TIMEOUT_MS,
			proxy: connection.proxy,
			skipSslCertificateValidation: connection.skipSslCertificateValidation,
		},
	});
}

interface DownloadOptions {
	maxBytes: number;
	/** Whether loopback, private, link-local and other non-public addresses may be reached. */
	allowPrivateNetwork: boolean;
	connection: ConnectionOptions;
}

/** A Content-Type as a type/subtype token, or '' for anything else (it may be quoted in an error). */
function mediaTypeOf(header: string | undefined): string {
	const type = (header ?? '').split(';')[0].trim().toLowerCase();
	return /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/.test(type)
		? type
		: '';
}

/** "0 bytes", "512 bytes", "1.5 MB" of the file. */
function arrivedText(bytes: number): string {
	if (bytes < 1024) return `${bytes} byte${bytes === 1 ? '' : 's'}`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
	return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Why a request that got no HTTP answer failed. Every failure to connect reads alike (refused,
 * reset, timed out, not HTTP), so the words do not tell a closed port from an open one.
 */
function unreachable(error: unknown): string {
	const failure = readFailure(error);
	if (failure.status !== undefined) return `the server answered ${failure.status}`;
	const code = failure.code ?? '';
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'its host name could not be found';
	if (/CERT|SSL|TLS|SELF_SIGNED/.test(code)) return 'its HTTPS certificate was not accepted';
	return 'it could not be reached';
}

const isRedirect = (status: number) => [301, 302, 303, 307, 308].includes(status);

interface Answer {
	body: unknown;
	headers: Record<string, string | string[] | undefined>;
	statusCode: number;
}

/**
 * Downloads a file through n8n's request helper (its proxy and SSL settings apply), refusing
 * before anything reaches the Ad Cabinet API: a URL that is not http(s); an address inside a
 * private network (unless allowed), checked before connecting to it; more than MAX_REDIRECTS
 * redirects, followed here one by one so that each target is checked the same way; a failed
 * download; a declared type that cannot hold the file; an empty file; and a file larger than
 * maxBytes, which is stopped while it is read. What the bytes hold is for the caller to check; no
 * refusal quotes them.
 */
async function downloadFile(
	ctx: IExecuteFunctions,
	rawUrl: unknown,
	i: number,
	kind: FileKind,
	options: DownloadOptions,
): Promise<DownloadedBytes> {
	const node = ctx.getNode();
	const { maxBytes } = options;
	const text = typeof rawUrl === 'string' ? rawUrl.trim() : '';
	let parsed: URL | undefined;
	try {
		parsed = new URL(text);
	} catch {
		parsed = undefined;
	}
	if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
		throw invalidInput(
			node,
			FILE_URL_LABEL,
			`must be an http:// or https:// address of ${kind.what}`,
			i,
			rawUrl === '' ? undefined : rawUrl,
			NOTHING_SENT_BEFORE_DOWNLOAD,
		);
	}
	let url: URL = parsed;
	const given = url.href;
	const refuse = (rule: string) =>
		invalidInput(node, FILE_URL_LABEL, rule, i, given, NOTHING_SENT_BEFORE_DOWNLOAD);
	// One deadline for the whole download, redirects, headers and body together: a server that
	// drips its answer a byte at a time would otherwise hold the run for as long as it likes.
	const timeoutMs = options.connection.timeout ?? DEFAULT_TIMEOUT_MS;
	let arrived = 0;
	const timedOut = () =>
		refuse(
			`the download timed out: it did not finish within ${timeoutMs / 1000} s (the Timeout under Request Options, for the headers and the whole file together), after ${arrivedText(arrived)} had arrived; raise Timeout or use a server that serves the file faster`,
		);
	try {
		// The same deadline as every request's: it cuts off the redirects, the headers and the body.
		return await withDeadline(timeoutMs, async (deadline) => {
			let response: Answer;
			for (let redirects = 0; ; redirects++) {
				const problem = await addressProblem(ctx, url, options.allowPrivateNetwork, redirects > 0);
				if (problem) throw refuse(problem);
				if (deadline.aborted) throw timedOut();
				try {
					response = (await ctx.helpers.httpRequest({
						method: 'GET',
						url: url.href,
						encoding: 'stream',
						returnFullResponse: true,
						// Redirects are followed below, so that each target is checked before it is asked.
						disableFollowRedirect: true,
						ignoreHttpStatusErrors: true,
						...options.connection,
						abortSignal: deadline,
					})) as Answer;
				} catch (error) {
					if (deadline.aborted) throw timedOut();
					if (blockedBy(error)) throw refuse(POLICY);
					throw refuse(
						`downloading the file failed: ${unreachable(error)}; use a URL that serves the file itself`,
					);
				}
				const status = response.statusCode;
				const location = response.headers.location;
				const target = Array.isArray(location) ? location[0] : location;
				if (status >= 200 && status < 300) break;
				(response.body as StreamBody | undefined)?.destroy?.();
				if (!isRedirect(status) || !target) {
					throw refuse(
						`downloading the file failed: the server answered ${status}; use a URL that serves the file itself`,
					);
				}
				if (redirects === MAX_REDIRECTS) {
					throw refuse(
						`the address redirected more than ${MAX_REDIRECTS} times, so the file was not downloaded; use the file's own address`,
					);
				}
				let next: URL | undefined;
				try {
					next = new URL(target, url);
				} catch {
					next = undefined;
				}
				if (!next || (next.protocol !== 'http:' && next.protocol !== 'https:')) {
					throw refuse(
						"the address redirects to something that is not an http:// or https:// address, so the redirect was not followed; use the file's own address",
					);
				}
				url = next;
			}
			const body = response.body as StreamBody;
			const header = (name: string) => {
				const value = response.headers[name];
				return Array.isArray(value) ? value[0] : value;
			};
			const declared = mediaTypeOf(header('content-type'));
			const stop = () => body.destroy?.();
			if (declared && !kind.acceptsType(declared, url)) {
				stop();
				throw refuse(`must point at ${kind.allowed}, but the server sent ${declared}`);
			}
			const length = Number(header('content-length'));
			if (Number.isFinite(length) && length > maxBytes) {
				stop();
				throw refuse(
					`the file is ${megabytes(length)}, more than the ${megabytes(maxBytes)} allowed by Max File Size; raise Max File Size or use a smaller file`,
				);
			}
			const chunks: Buffer[] = [];
			let size = 0;
			// The body is cut off at the deadline; reading it then fails and is reported as the deadline.
			deadline.addEventListener('abort', stop, { once: true });
			let tooLarge = false;
			let broken = false;
			try {
				for await (const chunk of body) {
					if (deadline.aborted) break;
					size += chunk.length;
					arrived = size;
					if (size > maxBytes) {
						tooLarge = true;
						break;
					}
					chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
				}
			} catch {
				broken = true;
			} finally {
				deadline.removeEventListener('abort', stop);
			}
			if (tooLarge) {
				stop();
				throw refuse(
					`the file is more than the ${megabytes(maxBytes)} allowed by Max File Size (stopped reading it there); raise Max File Size or use a smaller file`,
				);
			}
			if (deadline.aborted) {
				stop();
				throw timedOut();
			}
			if (broken) {
				throw refuse(
					`downloading the file failed: the connection broke after ${arrivedText(arrived)} of the file had arrived; try again, or use a URL that serves the file itself`,
				);
			}
			if (size === 0) throw refuse('the server sent an empty file');
			return { bytes: Buffer.concat(chunks, size), url, given, declared };
		});
	} catch (error) {
		throw error instanceof DeadlineExceeded ? timedOut() : error;
	}
}
