import {
	sleep,
	type ICredentialDataDecryptedObject,
	type IHttpRequestHelper,
	type IHttpRequestOptions,
} from 'n8n-workflow';
import { DeadlineExceeded, isRetryable, readFailure, type Failure } from './failure';
import { pacer, paceLimitOf, type PaceLimit } from './pacing';
import { DEFAULT_RETRY, delayFor } from './retry';
import { baseUrlOf, text } from './session';

export interface HttpHelper {
	helpers: { httpRequest: IHttpRequestHelper['helpers']['httpRequest'] };
}

/** One attempt of sign-in or refresh, headers and body together. */
export const RENEWAL_TIMEOUT_MS = 30_000;
/**
 * The longest one renewal may take, waits for the rate limit and retries included. n8n gives
 * preAuthentication no handle on the run that asked for it, so the renewal has a deadline of its
 * own, well inside the 30 minutes a run may take.
 */
export const RENEWAL_DEADLINE_MS = 5 * 60_000;
/** The wait after a 429 when the credential paces nothing: the real service's window and 1 s. */
const UNPACED_BLOCK_MS = 61_000;

export type Sent = { answer: unknown; attempts: number } | { failure: Failure; attempts: number };

export interface RenewalPace {
	key: string;
	limit: PaceLimit;
}

/**
 * The budget a renewal request draws on: the credential's Base URL and user, and the literal path.
 * preAuthentication is not told which saved credential it renews, so this key differs from the one
 * of the API's own paths; sign-in and refresh are paths of their own anyway.
 */
export function renewalPace(
	credentials: ICredentialDataDecryptedObject,
	path: string,
): RenewalPace | undefined {
	const limit = paceLimitOf(credentials);
	if (!limit) return undefined;
	return { key: `${baseUrlOf(credentials)}|${text(credentials, 'username')}\u0000${path}`, limit };
}

/** One attempt, cut off at its deadline whether the answer stalls before or during the body. */
async function attempt(
	helper: HttpHelper,
	options: IHttpRequestOptions,
	timeoutMs: number,
): Promise<unknown> {
	const deadline = AbortSignal.timeout(timeoutMs);
	let expire: (() => void) | undefined;
	const expired = new Promise<never>((_resolve, reject) => {
		expire = () => reject(new DeadlineExceeded(timeoutMs));
		deadline.addEventListener('abort', expire, { once: true });
	});
	// The deadline's rejection is observed by the race; a late one must not surface as unhandled.
	expired.catch(() => undefined);
	try {
		const request = helper.helpers.httpRequest({
			...options,
			disableFollowRedirect: true,
			timeout: timeoutMs,
			abortSignal: deadline,
		});
		const cutOff = request.catch(
			async (error: unknown) =>
				await Promise.reject(deadline.aborted ? new DeadlineExceeded(timeoutMs) : error),
		);
		return await Promise.race([cutOff, expired]);
	} finally {
		if (expire) deadline.removeEventListener('abort', expire);
	}
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
): Promise<Sent> {
	let last: Failure | undefined;
	for (let n = 1; ; n++) {
		if (pace) {
			if (last && pacer.blockedUntil(pace.key) >= endsAt) return { failure: last, attempts: n - 1 };
			await pacer.admit(pace.key, pace.limit);
		}
		const left = endsAt - Date.now();
		if (left <= 0) {
			return {
				failure: last ?? { code: 'ETIMEDOUT', deadlineMs: RENEWAL_DEADLINE_MS },
				attempts: n - 1,
			};
		}
		try {
			return {
				answer: await attempt(helper, options, Math.min(RENEWAL_TIMEOUT_MS, left)),
				attempts: n,
			};
		} catch (error) {
			last = readFailure(error);
		}
		if (!isRetryable(last) || n >= DEFAULT_RETRY.maxAttempts) return { failure: last, attempts: n };
		let wait = delayFor(last, n);
		if (last.status === 429) {
			if (pace) {
				pacer.block(pace.key, pace.limit);
				wait = 0;
			} else {
				wait = last.retryAfterMs !== undefined ? last.retryAfterMs + 1_000 : UNPACED_BLOCK_MS;
			}
		}
		if (Date.now() + wait >= endsAt) return { failure: last, attempts: n };
		if (wait > 0) await sleep(wait);
	}
}
