import { NodeApiError, NodeOperationError, type INode, type JsonObject } from 'n8n-workflow';
import { RENEWED_TOKEN_REFUSED } from '../auth/renewalMessages';
import { scrub } from '../auth/secrets';
import { MAX_RETRY_WAIT_MS } from './attempts';
import {
	apiMessage,
	connectionWords,
	failureSummary,
	provedNotProcessed,
	quoted,
	type Failure,
} from './apiFailure';

/**
 * What to do next after each status, short enough for the error's message (an AI agent, a log line
 * or an Error Trigger sees only the message). The API documents no catalogue of its errors, so the
 * advice goes by status alone.
 */
const STATUS_ADVICE: Record<number, string> = {
	400: 'Fix the value it names and send the request again.',
	401: 'Open the Ad Cabinet API credential: with Sign-in Method Access Token, paste a new token (or switch to Username and Password, which renews the token by itself); with the other methods n8n already renewed the token once, so check that Base URL and Client API URL are addresses of the same service. Then run again.',
	403: cabinetAccessHint('this cabinet (account)'),
	404: 'Check that the ID exists and belongs to this cabinet.',
	409: 'The record changed or already exists: read it again before changing it.',
	410: 'The API has switched this endpoint off; use another operation.',
	413: 'The file or request is larger than the API accepts: send a smaller one.',
	422: 'The API does not support one of the values sent: change it and send the request again.',
	429: 'The API limits how many requests an account may send to one address in a minute (10 per 60 s on the real service), and every workflow and worker using the account shares that budget. Check that Rate Limit Requests and Rate Limit Window in the credential match the API, then run again after a minute.',
	500: 'The API had an internal error: try again later, and contact the API provider if it persists.',
	502: 'The API gateway could not reach the service: try again later.',
	503: 'The API is temporarily unavailable: try again later.',
	504: 'The API took too long to answer: try a shorter period or a smaller page.',
};

/** Longer background for the editor's error panel (the error's description). */
const STATUS_DETAIL: Record<number, string> = {
	401: 'The API did not accept the access token: it is wrong, expired or revoked. With Username and Password or Refresh Token, n8n renews an expired token by itself and repeats the request once; this answer came after that.',
	403: 'The token is valid but not allowed on this cabinet or record.',
	429: 'Requests from this account arrive faster than the API allows. n8n already waited out the block and sent the request again.',
};

export interface ErrorContext {
	itemIndex?: number;
	idempotent: boolean;
	attempts: number;
	/** Operation-specific advice, preferred over the generic status advice. */
	hint?: string;
	/** Secrets to scrub from anything the API echoed back. */
	secrets?: string[];
}

/**
 * The advice for a 403 on a cabinet's endpoint, in one place: `what` names it as the user knows it
 * ("cabinet ACC0000", "the cabinet of this campaign"); `extra` adds a reason only that endpoint has.
 */
export function cabinetAccessHint(what: string, check = 'the Cabinet ID', extra = ''): string {
	return `The access token has no permission on ${what}${extra}. Check ${check}, or ask the cabinet owner for access.`;
}

/**
 * A copy of what an error carries with every secret removed at every depth, strings cut to a
 * quotable length, and nesting, cycles and long lists bounded, so a hostile or echoing answer can
 * neither leak the token into the error panel or n8n's log nor overflow the stack.
 */
function scrubDeep(
	value: unknown,
	secrets: string[] = [],
	depth = 0,
	seen = new WeakSet<object>(),
): unknown {
	if (typeof value === 'string') return scrub(quoted(value), secrets);
	if (value === null || typeof value !== 'object') return value;
	if (depth >= 8 || seen.has(value)) return '…';
	seen.add(value);
	if (Array.isArray(value))
		return value.slice(0, 50).map((entry) => scrubDeep(entry, secrets, depth + 1, seen));
	const out: Record<string, unknown> = {};
	for (const key of Object.keys(value).slice(0, 50)) {
		out[scrub(key, secrets)] = scrubDeep(
			(value as Record<string, unknown>)[key],
			secrets,
			depth + 1,
			seen,
		);
	}
	return out;
}

/** A 4xx the API answered on purpose (not a timeout or rate limit): it changed nothing. */
function isRefusal(failure: Failure): boolean {
	const status = failure.status;
	return (
		!failure.invalidJson &&
		status !== undefined &&
		status >= 400 &&
		status < 500 &&
		status !== 408 &&
		status !== 429
	);
}

/** Whether anything happened, and whether repeating the request is safe, in one sentence. */
function outcome(failure: Failure, context: ErrorContext): string | undefined {
	if (failure.status === undefined && provedNotProcessed(failure)) {
		return 'Nothing reached the API, so running it again is safe.';
	}
	if (isRefusal(failure)) {
		return context.idempotent
			? undefined
			: 'The API refused it, so nothing was changed and sending it again after the fix is safe.';
	}
	if (context.idempotent) {
		return context.attempts > 1
			? `It failed ${context.attempts} times; it only reads data, so running it again later is safe.`
			: 'It only reads data, so running it again is safe.';
	}
	if (provedNotProcessed(failure)) {
		return 'The API did not process it, so sending it again later is safe.';
	}
	return 'This write was not retried and may have taken effect: check the record before sending it again.';
}

function ensureStop(text: string): string {
	return /[.!?…]$/.test(text) ? text : `${text}.`;
}

/** The host a redirect pointed at, never its path or query (they may carry a signature). */
function hostOf(location: string | undefined): string {
	if (!location) return 'an address it did not name';
	try {
		return new URL(location, 'http://relative.invalid').host.replace(
			'relative.invalid',
			'the same host',
		);
	} catch {
		return 'an address that is not a valid URL';
	}
}

function headline(failure: Failure, fromApi: string | undefined): string {
	if (failure.deadlineMs !== undefined) {
		return `The Ad Cabinet API did not finish answering within ${failure.deadlineMs / 1000} s (the Timeout under Request Options, counted for the whole answer), so the request was cut off.`;
	}
	if (failure.status !== undefined && failure.status >= 300 && failure.status < 400) {
		return `The Ad Cabinet API answered ${failure.status}, redirecting to ${hostOf(failure.location)}. The redirect was not followed, so the access token was not sent there. Check the Base URL and Client API URL in the credential: they must be the API's own addresses (https, no trailing path).`;
	}
	if (failure.invalidJson) {
		return `The Ad Cabinet API answered ${failure.status ?? ''} with a body that is not valid JSON (cut short or not an API answer).`;
	}
	if (failure.status === 401) {
		const said = fromApi?.replace(/[.\s]+$/, '');
		return `The Ad Cabinet API refused the access token (401${said ? `: ${said}` : ''}).`;
	}
	if (failure.status !== undefined) {
		const verb = isRefusal(failure) ? 'refused the request' : 'failed';
		return `The Ad Cabinet API ${verb} with ${failure.status}${fromApi ? `: ${ensureStop(fromApi)}` : '.'}`;
	}
	const why = connectionWords(failure);
	return ensureStop(`The Ad Cabinet API could not be reached${why ? `: ${why}` : ''}`);
}

/**
 * Turns a failed request into the NodeApiError the user sees. The message stands alone: what the
 * API said, what to do next, and whether anything changed (so whether repeating is safe). The
 * description adds background for the editor.
 */
export function toNodeApiError(node: INode, failure: Failure, context: ErrorContext): NodeApiError {
	// The credential's sign-in or refresh failed: its message names the step and what to change.
	if (failure.renewal !== undefined) {
		return apiError(node, {
			message: failure.renewal,
			httpCode: failure.status !== undefined ? String(failure.status) : undefined,
			itemIndex: context.itemIndex,
			secrets: context.secrets,
		});
	}
	if (failure.revoked) {
		return apiError(node, {
			message: RENEWED_TOKEN_REFUSED,
			httpCode: '401',
			itemIndex: context.itemIndex,
			secrets: context.secrets,
		});
	}
	const fromApi = apiMessage(failure);
	const advice =
		context.hint ??
		(failure.status !== undefined ? STATUS_ADVICE[failure.status] : undefined) ??
		(failure.status === undefined
			? 'Check the Base URL and Client API URL in the credential and that the API is reachable from n8n.'
			: undefined);
	const waitedAtMost =
		failure.status === 429 &&
		failure.retryAfterMs !== undefined &&
		failure.retryAfterMs > MAX_RETRY_WAIT_MS
			? `The API asked to wait ${Math.round(failure.retryAfterMs / 1000)} s before the next request; n8n waits at most ${MAX_RETRY_WAIT_MS / 1000} s between attempts, so it stopped. Run it again later.`
			: undefined;
	const message = [headline(failure, fromApi), waitedAtMost ?? advice, outcome(failure, context)]
		.filter(Boolean)
		.join(' ');
	const detail = failure.status !== undefined ? STATUS_DETAIL[failure.status] : undefined;
	const description = [
		detail,
		context.hint && failure.status !== undefined ? STATUS_ADVICE[failure.status] : undefined,
	]
		.filter(Boolean)
		.join(' ');
	return apiError(node, {
		message,
		description,
		body: failureSummary(failure),
		httpCode: failure.status !== undefined ? String(failure.status) : failure.code || undefined,
		itemIndex: context.itemIndex,
		secrets: context.secrets,
	});
}

interface ApiErrorParts {
	/** Stands alone: what the API did, what to do next, whether repeating is safe. */
	message: string;
	description?: string;
	/** What the API answered, kept on the error for the editor's panel. */
	body?: JsonObject;
	httpCode?: string;
	itemIndex?: number;
	secrets?: string[];
}

/**
 * The one way an API error is made: a failed request (through toNodeApiError) or an answer whose
 * content is wrong (a statistics page without rows, an upload without a media token). The message
 * is kept as written and scrubbed of secrets.
 */
export function apiError(node: INode, parts: ApiErrorParts): NodeApiError {
	const message = scrub(parts.message, parts.secrets);
	const body = scrubDeep(parts.body ?? {}, parts.secrets) as JsonObject;
	const error = new NodeApiError(node, body, {
		message,
		httpCode: parts.httpCode,
		itemIndex: parts.itemIndex,
	});
	// NodeApiError swaps a message that names a network code (ECONNREFUSED…) for a generic sentence
	// and fills an empty description from the body; both would lose or repeat what is said here.
	error.message = message;
	error.description = scrub(parts.description ?? '', parts.secrets) || undefined;
	// NodeApiError keeps what it was given under these names too; none may hold a secret.
	const carried = error as unknown as Record<string, unknown>;
	for (const key of ['errorResponse', 'cause', 'messages']) {
		if (carried[key] !== undefined) carried[key] = scrubDeep(carried[key], parts.secrets);
	}
	return error;
}

/** The longest one node run may spend on requests, all pages and retries together. */
export const RUN_DEADLINE_MS = 30 * 60_000;

/**
 * The run's own deadline passed (all pages and retries of one node run together). A
 * NodeOperationError, so the retry loop passes it through untouched.
 */
export class RunDeadlineExceeded extends NodeOperationError {
	constructor(node: INode, itemIndex?: number) {
		super(
			node,
			`The run stopped after ${RUN_DEADLINE_MS / 60_000} minutes of requests to the Ad Cabinet API, the longest one run may take. Requests already answered were read; nothing more was sent. Fetch a shorter period or fewer records per run, then run again.`,
			{ itemIndex },
		);
	}
}
