import type { IHttpRequestHelper, IHttpRequestOptions } from 'n8n-workflow';
import { retried, withDeadline, type Outcome } from '../transport/attempts';
import { pacer } from '../transport/pacing';
import { rateLimitWaitMessage, toolCallsDeadline } from '../toolCall';
import { fitsWithin } from '../callDeadline';
import { RenewalFailed, SIGN_IN_STEP } from './renewalMessages';
import type { CredentialView, PaceLimit } from './credentialView';

export interface HttpHelper {
	helpers: { httpRequest: IHttpRequestHelper['helpers']['httpRequest'] };
}

/** One attempt of sign-in or refresh, headers and body together. */
const RENEWAL_TIMEOUT_MS = 30_000;
/**
 * The longest one renewal may take, waits for the rate limit and retries included. n8n gives
 * preAuthentication no handle on the run that asked for it, so the renewal has a deadline of its
 * own, well inside the 30 minutes a run may take.
 */
const RENEWAL_DEADLINE_MS = 5 * 60_000;
/** The wait after a 429 when the credential paces nothing: the real service's window and 1 s. */
const UNPACED_BLOCK_MS = 61_000;

type Sent = Outcome<unknown>;

interface RenewalPace {
	key: string;
	limit: PaceLimit;
}

/**
 * The budget a renewal request draws on: the credential's Base URL and user, and the literal path.
 * preAuthentication is not told which saved credential it renews, so this key differs from the one
 * of the API's own paths; sign-in and refresh are paths of their own anyway.
 */
export function renewalPace(view: CredentialView, path: string): RenewalPace | undefined {
	const limit = view.pace;
	if (!limit) return undefined;
	return { key: `${renewalOwner(view)}\u0000${path}`, limit };
}

/**
 * Whose sign-in and refresh these are: the credential's Base URL and user, all that
 * preAuthentication is told. send() notes its requests under the same name, so that a renewal
 * knows whether only tool calls are waiting for it.
 */
export function renewalOwner(view: Pick<CredentialView, 'baseUrl' | 'username'>): string {
	return `${view.baseUrl}|${view.username}`;
}

/** A renewal wait longer than a tool call may take: the error that says when to try again. */
function tooLong(
	step: string,
	path: string,
	pace: RenewalPace | undefined,
	waitMs: number,
	cause: 'used' | 'blocked' | 'retryAfter',
): RenewalFailed {
	return new RenewalFailed(
		step === SIGN_IN_STEP ? 'sign-in' : 'refresh',
		rateLimitWaitMessage({
			path,
			requests: pace?.limit.requests ?? 10,
			windowMs: pace?.limit.windowMs ?? 60_000,
			waitMs,
			cause,
			step,
		}),
	);
}

/**
 * Sends one sign-in or refresh request by the rules of every request: paced on its own path, each
 * attempt bounded, and transient failures (5xx, dropped connections, timeouts, 429) retried with
 * the same attempts and backoff as reads, all within the renewal's deadline. A 429 closes the path
 * for the rest of the window and 1 s (a request sent while the real service blocks a path extends
 * the block), and the next attempt waits for it. A refusal (401, 403, 4xx) is returned at once.
 * Only the status, body and code of a failure are kept: the error's request data holds the password.
 */
export async function sendRenewal(
	helper: HttpHelper,
	options: IHttpRequestOptions,
	pace: RenewalPace | undefined,
	endsAt = Date.now() + RENEWAL_DEADLINE_MS,
	owner?: string,
): Promise<Sent> {
	const path = pathOf(options.url);
	const step = /access-token/.test(path) ? 'Renewing the access token' : SIGN_IN_STEP;
	// n8n does not say which node a renewal is for: when only tool calls of this credential are
	// under way, it keeps to the earliest of their deadlines, and a longer wait ends them with when
	// to try again.
	const deadline = () => (owner !== undefined ? toolCallsDeadline(owner) : undefined);
	return await retried(
		async () => {
			const timeoutMs = Math.min(RENEWAL_TIMEOUT_MS, endsAt - Date.now());
			return await withDeadline(
				timeoutMs,
				async (signal) =>
					await helper.helpers.httpRequest({
						...options,
						disableFollowRedirect: true,
						timeout: timeoutMs,
						abortSignal: signal,
					}),
			);
		},
		{
			// Sign-in and refresh change nothing the user owns: a transient failure is retried as for a read.
			idempotent: true,
			before: async (_attempt, last) => {
				if (pace) {
					if (last && pacer.blockedUntil(pace.key) >= endsAt) return last;
					const within = deadline();
					await pacer.admit(
						pace.key,
						pace.limit,
						false,
						within === undefined
							? undefined
							: {
									endsAt: within.endsAt,
									error: (waitMs, blocked) =>
										tooLong(step, path, pace, waitMs, blocked ? 'blocked' : 'used'),
								},
					);
				}
				if (endsAt - Date.now() > 0) return undefined;
				return last ?? { code: 'ETIMEDOUT', deadlineMs: RENEWAL_DEADLINE_MS };
			},
			beforeWait: (failure, planned) => {
				let wait = planned;
				if (failure.status === 429) {
					if (pace) {
						pacer.block(pace.key, pace.limit);
						wait = 0;
					} else {
						wait =
							failure.retryAfterMs !== undefined ? failure.retryAfterMs + 1_000 : UNPACED_BLOCK_MS;
					}
				}
				const within = deadline();
				if (failure.status === 429 && within !== undefined) {
					const asked = failure.retryAfterMs ?? 0;
					const blocked = pace ? pacer.waitFor(pace.key, pace.limit) : wait;
					if (!fitsWithin(within, Math.max(asked, blocked))) {
						throw tooLong(
							step,
							path,
							pace,
							Math.max(asked, blocked),
							asked >= blocked && asked > 0 ? 'retryAfter' : 'blocked',
						);
					}
				}
				if (!fitsWithin(within, wait)) return undefined;
				return Date.now() + wait >= endsAt ? undefined : wait;
			},
			within: deadline(),
		},
	);
}

/** The literal URL path of a renewal request, for messages. */
function pathOf(url: string): string {
	try {
		return new URL(url).pathname;
	} catch {
		return url;
	}
}

type Answer = Record<string, unknown>;

/** A renewal request's answer as an object (text is parsed first), or undefined for anything else. */
export function parsed(answer: unknown): Answer | undefined {
	let value = answer;
	if (typeof value === 'string') {
		try {
			value = JSON.parse(value) as unknown;
		} catch {
			return undefined;
		}
	}
	return value !== null && typeof value === 'object' && !Array.isArray(value)
		? (value as Answer)
		: undefined;
}
