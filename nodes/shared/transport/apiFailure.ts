import type { JsonObject } from 'n8n-workflow';

/**
 * What one failed attempt tells us, read from whatever the HTTP helper threw: the status and body
 * of an answer, or the network error code when there was no answer. It holds no request data, so
 * nothing derived from it can carry the access token.
 */
export interface Failure {
	status?: number;
	code?: string;
	body?: unknown;
	retryAfterMs?: number;
	/** The answer was 2xx but its body was not the JSON the endpoint promises (cut short, for example). */
	invalidJson?: boolean;
	/** A plain message when the error had neither status nor code. */
	message?: string;
	/** Where a 3xx answer pointed (its Location header); the redirect is never followed. */
	location?: string;
	/** The request was cut off at its deadline (headers and body together). */
	deadlineMs?: number;
	/** Sign-in or refresh failed (auth/renewalMessages.ts): its message says which step and what to change. */
	renewal?: string;
	/** The renewed token was refused, and so was the one read back from the credential. */
	revoked?: boolean;
}

/** The name a renewal failure carries (auth/renewalMessages.ts), whatever wraps it. */
export const RENEWAL_FAILED = 'AdCabinetRenewalFailed';

/**
 * Renewal failures thrown in the last minutes, by message. n8n 1.x wraps an error from a
 * credential's sign-in in a NodeApiError that keeps only its message: the error itself (its name,
 * its step) is gone, since that line's error classes clear `cause`. The message then still tells
 * it apart from a request that found no server.
 */
const recentRenewals = new Map<string, { step?: string; at: number }>();
const RENEWALS_KEPT = 200;
const RENEWAL_KEPT_MS = 5 * 60_000;

/** Notes a renewal failure as it is thrown (RenewalFailed does it). */
export function noteRenewalFailure(message: string, step: string | undefined): void {
	const now = Date.now();
	for (const [text, seen] of recentRenewals)
		if (seen.at < now - RENEWAL_KEPT_MS || recentRenewals.size >= RENEWALS_KEPT)
			recentRenewals.delete(text);
	recentRenewals.set(message, { step, at: now });
}

/** A renewal failure inside an error n8n wrapped (once or twice), if there is one. */
export function renewalFailureIn(error: unknown): { message: string; step?: string } | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current !== null && typeof current === 'object'; depth++) {
		const record = current as Record<string, unknown>;
		if (typeof record.message === 'string') {
			if (record.name === RENEWAL_FAILED) {
				const step = record.adCabinetRenewal;
				return { message: record.message, step: typeof step === 'string' ? step : undefined };
			}
			const noted = recentRenewals.get(record.message);
			if (noted && noted.at >= Date.now() - RENEWAL_KEPT_MS)
				return { message: record.message, step: noted.step };
		}
		current = record.cause;
	}
	return undefined;
}

/** The longest text quoted from an API answer in an error. */
const MAX_QUOTED_CHARS = 300;

/** Cuts a text quoted from an answer to about MAX_QUOTED_CHARS characters. */
export function quoted(text: string): string {
	return text.length > MAX_QUOTED_CHARS ? `${text.slice(0, MAX_QUOTED_CHARS)}…` : text;
}

/** Objects and arrays nested deeper than this are not walked: the API's error bodies are flat. */
const MAX_DEPTH = 8;

/**
 * JSON text of a value for an error, never throwing: nesting past a few levels, cycles and huge
 * strings are cut, so a hostile body cannot overflow the stack or flood the message.
 */
function safeStringify(value: unknown): string {
	const seen = new WeakSet<object>();
	const walk = (v: unknown, depth: number): unknown => {
		if (typeof v === 'string') return quoted(v);
		if (v === null || typeof v !== 'object') return v;
		if (depth >= MAX_DEPTH || seen.has(v)) return '…';
		seen.add(v);
		if (Array.isArray(v)) return v.slice(0, 50).map((x) => walk(x, depth + 1));
		const out: Record<string, unknown> = {};
		for (const key of Object.keys(v).slice(0, 50))
			out[key] = walk((v as Record<string, unknown>)[key], depth + 1);
		return out;
	};
	return quoted(JSON.stringify(walk(value, 0)) ?? String(value));
}

/** The deadline error we raise ourselves: thrown into the retry loop like a transport failure. */
export class DeadlineExceeded extends Error {
	constructor(readonly ms: number) {
		super(`The request did not finish within ${ms / 1000} s`);
	}
}

/**
 * A 401 after n8n renewed the token, and again after the credential was read once more: the token
 * keeps being revoked (send.ts). Thrown into the retry loop, which does not repeat it.
 */
export class TokenRevoked extends Error {
	constructor() {
		super('The renewed access token was refused twice');
	}
}

export class InvalidJsonResponse extends Error {
	constructor(readonly status: number) {
		super('The API answered with a body that is not valid JSON');
	}
}

const TRANSIENT_CODES = new Set([
	'ECONNRESET',
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'EPIPE',
	'EAI_AGAIN',
	'ECONNREFUSED',
	'UND_ERR_SOCKET',
	'UND_ERR_CONNECT_TIMEOUT',
	'UND_ERR_HEADERS_TIMEOUT',
	'UND_ERR_BODY_TIMEOUT',
	'ERR_STREAM_PREMATURE_CLOSE',
]);

/** Codes that prove the request never reached the server, so even a create may be sent again. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'EAI_AGAIN', 'ENOTFOUND']);

const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);

type Loose = Record<string, unknown> | undefined;

function asRecord(value: unknown): Loose {
	return value !== null && typeof value === 'object'
		? (value as Record<string, unknown>)
		: undefined;
}

function retryAfterMs(headers: Loose): number | undefined {
	const raw = headers?.['retry-after'] ?? headers?.['Retry-After'];
	if (raw === undefined || raw === null || raw === '') return undefined;
	const seconds = Number(raw);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(String(raw));
	return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/** Reads a thrown error (axios-style, n8n-wrapped, or ours) into a Failure. */
export function readFailure(error: unknown): Failure {
	if (error instanceof InvalidJsonResponse) return { status: error.status, invalidJson: true };
	if (error instanceof DeadlineExceeded) return { code: 'ETIMEDOUT', deadlineMs: error.ms };
	if (error instanceof TokenRevoked) return { status: 401, revoked: true };
	const outer = asRecord(error);
	// n8n's request helpers wrap the transport error in NodeApiError; the original sits in `cause`.
	const inner = asRecord(outer?.cause) ?? outer;
	// The credential's sign-in or refresh failed before (or instead of) the request's repeat.
	const renewal = renewalFailureIn(error);
	// A refused pasted token is the API's 401; sign-in and refresh failures carry no status.
	if (renewal !== undefined) {
		return renewal.step === 'access-token'
			? { renewal: renewal.message, status: 401 }
			: { renewal: renewal.message };
	}
	const response = asRecord(inner?.response) ?? asRecord(outer?.response);
	const statusRaw =
		response?.status ?? response?.statusCode ?? inner?.status ?? outer?.httpCode ?? undefined;
	const status = statusRaw === undefined || statusRaw === null ? undefined : Number(statusRaw);
	const code = (inner?.code ?? outer?.code) as string | undefined;
	const headers = asRecord(response?.headers);
	const location = headers?.location ?? headers?.Location;
	return {
		status: Number.isFinite(status) && (status as number) > 0 ? status : undefined,
		code: typeof code === 'string' ? code : undefined,
		body: response?.data ?? response?.body,
		retryAfterMs: retryAfterMs(headers),
		message: typeof inner?.message === 'string' ? quoted(inner.message) : undefined,
		...(typeof location === 'string' ? { location } : {}),
	};
}

export function isRetryable(failure: Failure): boolean {
	// A refused sign-in is not repeated: a wrong password stays wrong.
	if (failure.renewal !== undefined) return false;
	if (failure.invalidJson) return true;
	if (failure.status !== undefined) return RETRYABLE_STATUS.has(failure.status);
	if (failure.code !== undefined) return TRANSIENT_CODES.has(failure.code);
	// Aborted sockets and timeouts sometimes surface only as messages.
	return /socket hang up|timeout|aborted|premature close|network/i.test(failure.message ?? '');
}

/** Whether a failed non-idempotent request may be sent again without risk of doing it twice. */
export function provedNotProcessed(failure: Failure): boolean {
	if (failure.status === 429) return true;
	return (
		failure.status === undefined && failure.code !== undefined && NOT_SENT_CODES.has(failure.code)
	);
}

function fieldErrors(errors: unknown): string | undefined {
	if (Array.isArray(errors)) {
		const parts = errors
			.slice(0, 20)
			.map((e) => (typeof e === 'string' ? quoted(e) : safeStringify(e)));
		return parts.length ? parts.join('; ') : undefined;
	}
	const record = asRecord(errors);
	if (!record) return undefined;
	const parts = Object.entries(record)
		.slice(0, 20)
		.map(
			([field, rules]) =>
				`${quoted(field)}: ${
					Array.isArray(rules)
						? rules
								.slice(0, 20)
								.map((rule) => (typeof rule === 'string' ? quoted(rule) : safeStringify(rule)))
								.join(', ')
						: typeof rules === 'string'
							? quoted(rules)
							: safeStringify(rules)
				}`,
		);
	return parts.length ? parts.join('; ') : undefined;
}

/**
 * The API's own words for a failure. The API does not fix the shape of its error bodies, so every
 * common shape is read: `detail`, `message`, `error`, DRF-style field maps, or a plain text body.
 */
export function apiMessage(failure: Failure): string | undefined {
	const text = rawApiMessage(failure);
	return text === undefined ? undefined : quoted(text);
}

function rawApiMessage(failure: Failure): string | undefined {
	const body = failure.body;
	if (typeof body === 'string') {
		const text = body.trim();
		if (!text) return undefined;
		try {
			return rawApiMessage({ ...failure, body: JSON.parse(text) as unknown });
		} catch {
			return quoted(text);
		}
	}
	const record = asRecord(body);
	if (!record) return undefined;
	const headText = [record.detail, record.message, record.error, record.error_description].find(
		(value) => typeof value === 'string' && value.trim() !== '',
	) as string | undefined;
	const head = headText === undefined ? undefined : quoted(headText);
	const details = Array.isArray(record.detail)
		? fieldErrors(record.detail)
		: fieldErrors(record.errors ?? record.fields);
	// An API that names the fields in both places would otherwise be quoted twice.
	if (head && details) {
		if (head.includes(details)) return head;
		if (details.includes(head)) return details;
		return `${head} (${details})`;
	}
	if (head || details) return head ?? details;
	// DRF answers field validation as a bare map of field -> messages.
	const entries = Object.entries(record).filter(
		([, v]) => Array.isArray(v) || typeof v === 'string',
	);
	return entries.length ? fieldErrors(Object.fromEntries(entries)) : undefined;
}

/** Field names the API complained about, when its body names them (used to list missing fields). */
export function apiErrorFields(failure: Failure): string[] {
	const record = asRecord(failure.body);
	const errors = asRecord(record?.errors) ?? asRecord(record?.fields);
	return errors ? Object.keys(errors) : [];
}

export function failureSummary(failure: Failure): JsonObject {
	const summary: JsonObject = {};
	if (failure.status !== undefined) summary.status = failure.status;
	if (failure.code !== undefined) summary.code = failure.code;
	if (failure.body !== undefined) summary.body = failure.body as JsonObject;
	return summary;
}

/**
 * A failed connection in words. n8n replaces the whole message of an error that mentions one of
 * Node's connection codes (ECONNRESET and the like) with a generic sentence of its own whenever the
 * error is wrapped again: by a Stop and Error node fed from an error output, by an error workflow,
 * by an agent's tool. Our messages say what was sent and whether repeating is safe, so they name
 * the failure in words and leave the code to the error's `httpCode` and description.
 */
const WORDS: Record<string, string> = {
	ECONNRESET: 'the connection was reset before the answer arrived',
	ECONNREFUSED: 'the connection was refused',
	ECONNABORTED: 'the connection was aborted',
	ETIMEDOUT: 'the connection timed out',
	ESOCKETTIMEDOUT: 'the connection timed out',
	ENOTFOUND: 'the host name was not found',
	EAI_AGAIN: 'the host name could not be looked up (the DNS server did not answer)',
	EHOSTUNREACH: 'the host is unreachable',
	EADDRNOTAVAIL: 'the address is not available',
	EPIPE: 'the connection was closed while the request was being sent',
};

/** Every code n8n rewrites a message for, whether or not it is a connection's. */
const REWRITTEN_CODES =
	'ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|ERRADDRINUSE|EADDRNOTAVAIL|ECONNABORTED|EHOSTUNREACH|EAI_AGAIN|ENOENT|EISDIR|ENOTDIR|EACCES|EEXIST|EPERM|GETADDRINFO';
const REWRITTEN = new RegExp(`\\b(${REWRITTEN_CODES})\\b`, 'gi');
const IS_REWRITTEN = new RegExp(`^(${REWRITTEN_CODES})$`, 'i');

/** Text with every code n8n rewrites a message for taken out, spaces tidied. */
export function withoutRewrittenCodes(text: string): string {
	return text
		.replace(REWRITTEN, '')
		.replace(/\(\s*\)/g, '')
		.replace(/\s{2,}/g, ' ')
		.replace(/\s+([:,.)])/g, '$1')
		.trim();
}

/** Why a request got no answer, in words a user reads: from the code when it is known. */
export function connectionWords(failure: Pick<Failure, 'code' | 'message'>): string | undefined {
	const known = failure.code ? WORDS[failure.code.toUpperCase()] : undefined;
	if (known) return known;
	const said = failure.message ? withoutRewrittenCodes(failure.message) : '';
	if (failure.code && !IS_REWRITTEN.test(failure.code))
		return said ? `${failure.code}: ${said}` : failure.code;
	return said || undefined;
}
