import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { DeadlineExceeded, isRetryable, readFailure, type Failure } from './apiFailure';
import { fitsWithin, waitWithinCall, type Within } from '../callDeadline';

/**
 * Every request leaves in attempts: each one bounded by its deadline (withDeadline), and the
 * attempts of one request repeated by one loop (retried) while the failure is transient. Reads,
 * writes, sign-in, refresh and file downloads all use these two.
 */

export interface RetryPolicy {
	/** Attempts in all, the first included. */
	maxAttempts: number;
	baseDelayMs: number;
	maxDelayMs: number;
}

/** The longest wait between two attempts, however long an answer's Retry-After asks for. */
export const MAX_RETRY_WAIT_MS = 30_000;

export const DEFAULT_RETRY: RetryPolicy = {
	maxAttempts: 5,
	baseDelayMs: 400,
	maxDelayMs: MAX_RETRY_WAIT_MS,
};

/** The wait before attempt `attempt + 1`: Retry-After when the answer gave one, else jittered backoff. */
function delayFor(failure: Failure, attempt: number, policy: RetryPolicy = DEFAULT_RETRY): number {
	if (failure.retryAfterMs !== undefined) return Math.min(failure.retryAfterMs, policy.maxDelayMs);
	const exponential = policy.baseDelayMs * 2 ** (attempt - 1);
	// Full jitter keeps parallel items from retrying in lockstep.
	return Math.min(policy.maxDelayMs, exponential / 2 + Math.random() * (exponential / 2));
}

/**
 * Runs `start` with a signal that fires at the deadline (or when `cancel` fires), and stops waiting
 * for it at the deadline whether the answer stalls before or during its body: a request that fails
 * after the deadline passed is reported as DeadlineExceeded. Every listener is removed when it
 * settles, so nothing keeps an answer alive after it was read.
 */
export async function withDeadline<T>(
	timeoutMs: number,
	start: (signal: AbortSignal) => Promise<T>,
	cancel?: AbortSignal,
): Promise<T> {
	const deadline = AbortSignal.timeout(Math.max(1, Math.floor(timeoutMs)));
	const stop = new AbortController();
	const cut = () => stop.abort();
	deadline.addEventListener('abort', cut, { once: true });
	cancel?.addEventListener('abort', cut, { once: true });
	if (cancel?.aborted) stop.abort();
	let expire: (() => void) | undefined;
	const expired = new Promise<never>((_resolve, reject) => {
		expire = () => reject(new DeadlineExceeded(timeoutMs));
		deadline.addEventListener('abort', expire, { once: true });
	});
	// The deadline's rejection is observed by the race; a late one must not surface as unhandled.
	expired.catch(() => undefined);
	try {
		const work = (async () => await start(stop.signal))();
		// A request cut off by the deadline fails with "canceled" or "aborted": it is reported as the deadline.
		const cutOff = work.catch(
			async (error: unknown) =>
				await Promise.reject(deadline.aborted ? new DeadlineExceeded(timeoutMs) : error),
		);
		return await Promise.race([cutOff, expired]);
	} finally {
		deadline.removeEventListener('abort', cut);
		if (expire) deadline.removeEventListener('abort', expire);
		cancel?.removeEventListener('abort', cut);
	}
}

/** The failure as an error, for a wait that can no longer pass the deadline it was checked against. */
function readFailureError(failure: Failure): Error {
	return new Error(
		failure.message ?? `the request failed (${failure.status ?? failure.code ?? 'unknown'})`,
	);
}

/** How a request ended: its answer, or the failure it gave up on; with the attempts sent. */
export type Outcome<T> = { answer: T; attempts: number } | { failure: Failure; attempts: number };

interface RetryRules {
	/**
	 * Whether the request only reads, so it may be repeated after any transient failure. A 429,
	 * which the API answers without performing the request, is repeated for writes too.
	 */
	idempotent: boolean;
	policy?: RetryPolicy;
	/**
	 * Before each attempt, the first included: undefined to send it, or the failure to end with
	 * instead (nothing more is sent). `last` is the failure of the attempt before, if any.
	 */
	before?: (attempt: number, last: Failure | undefined) => Promise<Failure | undefined>;
	/**
	 * Told of each failure that will be retried, with the wait the policy chose, before the wait:
	 * returns the wait to keep, or undefined to give up on this failure now.
	 */
	beforeWait?: (failure: Failure, wait: number, attempt: number) => number | undefined;
	/**
	 * The deadline every wait keeps to (a tool call's): beforeWait has already refused a wait past
	 * it, so a wait here that would still pass it (the clock moved on) ends with the last failure.
	 */
	within?: Within;
}

/**
 * The one retry loop. Runs attempts until one answers, retrying transient failures (429 honouring
 * Retry-After, 5xx, resets, timeouts, cut-short bodies) with bounded exponential backoff; only a
 * read is repeated after a failure that may have reached the server, because a create or upload
 * must never be sent twice. Our own input errors (NodeOperationError) pass through untouched.
 */
export async function retried<T>(
	attempt: (n: number) => Promise<T>,
	rules: RetryRules,
): Promise<Outcome<T>> {
	const policy = rules.policy ?? DEFAULT_RETRY;
	let last: Failure | undefined;
	for (let n = 1; ; n++) {
		const instead = await rules.before?.(n, last);
		if (instead) return { failure: instead, attempts: n - 1 };
		let caught: unknown;
		try {
			return { answer: await attempt(n), attempts: n };
		} catch (error) {
			caught = error;
		}
		if (caught instanceof NodeOperationError) throw caught;
		const failure = readFailure(caught);
		last = failure;
		// A 429 means the API did not perform the request, so even a write may be sent again.
		const repeatable = rules.idempotent || failure.status === 429;
		if (!repeatable || !isRetryable(failure) || n >= policy.maxAttempts) {
			return { failure, attempts: n };
		}
		const planned = delayFor(failure, n, policy);
		const wait = rules.beforeWait ? rules.beforeWait(failure, planned, n) : planned;
		if (wait === undefined) return { failure, attempts: n };
		// A wait past the deadline is not taken: the request ends with the failure it met.
		if (!fitsWithin(rules.within, wait)) return { failure, attempts: n };
		if (wait > 0) await waitWithinCall(rules.within, wait, () => readFailureError(failure));
	}
}

/**
 * Runs one request through the retry loop (see retried). When it gives up, throws what `giveUp`
 * makes of the last failure and the number of attempts.
 */
export async function withRetry<T>(
	attempt: () => Promise<T>,
	idempotent: boolean,
	giveUp: (failure: Failure, attempts: number) => NodeApiError | Promise<NodeApiError>,
	policy: RetryPolicy = DEFAULT_RETRY,
	/**
	 * Told of each failure that will be retried, with the wait planned before the next attempt,
	 * before the wait; may throw to end here instead (nothing more is sent), or return false to give
	 * up on this failure now.
	 */
	onRetry?: (failure: Failure, wait: number) => boolean | void,
	/** The deadline every wait keeps to (a tool call's). */
	within?: Within,
): Promise<T> {
	const outcome = await retried(attempt, {
		idempotent,
		policy,
		within,
		beforeWait: (failure, wait) => (onRetry?.(failure, wait) === false ? undefined : wait),
	});
	if ('failure' in outcome) throw await giveUp(outcome.failure, outcome.attempts);
	return outcome.answer;
}
