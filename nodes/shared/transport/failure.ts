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
	return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
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
	const outer = asRecord(error);
	// n8n's request helpers wrap the transport error in NodeApiError; the original sits in `cause`.
	const inner = asRecord(outer?.cause) ?? outer;
	const response = asRecord(inner?.response) ?? asRecord(outer?.response);
	const statusRaw =
		response?.status ?? response?.statusCode ?? inner?.status ?? outer?.httpCode ?? undefined;
	const status = statusRaw === undefined || statusRaw === null ? undefined : Number(statusRaw);
	const code = (inner?.code ?? outer?.code) as string | undefined;
	return {
		status: Number.isFinite(status) && (status as number) > 0 ? status : undefined,
		code: typeof code === 'string' ? code : undefined,
		body: response?.data ?? response?.body,
		retryAfterMs: retryAfterMs(asRecord(response?.headers)),
		message: typeof inner?.message === 'string' ? inner.message : undefined,
	};
}

export function isRetryable(failure: Failure): boolean {
	if (failure.invalidJson) return true;
	if (failure.status !== undefined) return RETRYABLE_STATUS.has(failure.status);
	if (failure.code !== undefined) return TRANSIENT_CODES.has(failure.code);
	// Aborted sockets and timeouts sometimes surface only as messages.
	return /socket hang up|timeout|aborted|premature close|network/i.test(failure.message ?? '');
}

/** Whether a failed non-idempotent request may be sent again without risk of doing it twice. */
export function provedNotProcessed(failure: Failure): boolean {
	if (failure.status === 429) return true;
	return failure.status === undefined && failure.code !== undefined && NOT_SENT_CODES.has(failure.code);
}

function fieldErrors(errors: unknown): string | undefined {
	if (Array.isArray(errors)) {
		const parts = errors.map((e) => (typeof e === 'string' ? e : JSON.stringify(e)));
		return parts.length ? parts.join('; ') : undefined;
	}
	const record = asRecord(errors);
	if (!record) return undefined;
	const parts = Object.entries(record).map(
		([field, rules]) => `${field}: ${Array.isArray(rules) ? rules.join(', ') : String(rules)}`,
	);
	return parts.length ? parts.join('; ') : undefined;
}

/**
 * The API's own words for a failure. The spec leaves the error body open (section 7), so every
 * common shape is read: `detail`, `message`, `error`, DRF-style field maps, or a plain text body.
 */
export function apiMessage(failure: Failure): string | undefined {
	const body = failure.body;
	if (typeof body === 'string') {
		const text = body.trim();
		if (!text) return undefined;
		try {
			return apiMessage({ ...failure, body: JSON.parse(text) as unknown });
		} catch {
			return text.length > 300 ? `${text.slice(0, 300)}…` : text;
		}
	}
	const record = asRecord(body);
	if (!record) return undefined;
	const head = [record.detail, record.message, record.error, record.error_description].find(
		(value) => typeof value === 'string' && value.trim() !== '',
	) as string | undefined;
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
	const entries = Object.entries(record).filter(([, v]) => Array.isArray(v) || typeof v === 'string');
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
