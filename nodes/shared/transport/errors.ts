import { NodeApiError, type INode } from 'n8n-workflow';
import { apiMessage, failureSummary, provedNotProcessed, type Failure } from './failure';

/** What each status means for the person running the workflow (the spec shows no error catalogue). */
const STATUS_HINTS: Record<number, string> = {
	400: 'The API refused the request as invalid. The message above says which field and rule.',
	401: 'The access token is invalid or expired. Open the Ad Cabinet API credential and update the Access Token.',
	403: 'The access token has no permission on this cabinet (account). Check the cabinet ID, or ask the cabinet owner for access.',
	404: 'Not found. Check that the ID exists and belongs to this cabinet.',
	409: 'The record changed or already exists on the API side.',
	410: 'This endpoint has been disabled by the API.',
	413: 'The file or request is larger than the API accepts.',
	422: 'The API does not support one of the values sent.',
	429: 'The API is rate limiting this token. Run the workflow less often or lower the batch size under Options.',
	500: 'The API had an internal error. Try again later; if it persists, contact the API provider.',
	502: 'The API gateway could not reach the service. Try again later.',
	503: 'The API is temporarily unavailable. Try again later.',
	504: 'The API took too long to answer. Try a shorter period or a smaller page.',
};

export interface ErrorContext {
	itemIndex?: number;
	idempotent: boolean;
	attempts: number;
	/** Operation-specific explanation, preferred over the generic status hint. */
	hint?: string;
	/** Secrets to scrub from anything the API echoed back. */
	secrets?: string[];
}

function scrub(text: string, secrets: string[] = []): string {
	let out = text;
	for (const secret of secrets) {
		if (secret && secret.length >= 4) out = out.split(secret).join('***');
	}
	return out;
}

function retryNote(failure: Failure, context: ErrorContext): string | undefined {
	if (context.idempotent) {
		return context.attempts > 1
			? `Failed after ${context.attempts} attempts. This request only reads data, so running the workflow again is safe.`
			: undefined;
	}
	return provedNotProcessed(failure)
		? 'The API did not process this request, so it is safe to run it again.'
		: 'This request changes data and was not retried automatically: it may have reached the API before failing. Check whether it took effect before running it again.';
}

/** Turns a failed request into the NodeApiError the user sees, with status, API message and advice. */
export function toNodeApiError(node: INode, failure: Failure, context: ErrorContext): NodeApiError {
	const fromApi = apiMessage(failure);
	let message: string;
	if (failure.invalidJson) {
		message = `The Ad Cabinet API answered ${failure.status ?? ''} with a body that is not valid JSON (cut short or not an API answer)`;
	} else if (failure.status !== undefined) {
		message = `The Ad Cabinet API answered ${failure.status}${fromApi ? `: ${fromApi}` : ''}`;
	} else {
		message = `The Ad Cabinet API could not be reached${failure.code ? ` (${failure.code})` : ''}${
			failure.message ? `: ${failure.message}` : ''
		}`;
	}
	const hint =
		context.hint ??
		(failure.status !== undefined ? STATUS_HINTS[failure.status] : undefined) ??
		(failure.status === undefined
			? 'Check the Base URL and Client API URL in the credential and that the API is reachable from n8n.'
			: undefined);
	const description = [hint, retryNote(failure, context)].filter(Boolean).join(' ');
	return new NodeApiError(node, failureSummary(failure), {
		message: scrub(message, context.secrets),
		description: scrub(description, context.secrets) || undefined,
		httpCode: failure.status !== undefined ? String(failure.status) : (failure.code ?? null) || undefined,
		itemIndex: context.itemIndex,
	});
}
