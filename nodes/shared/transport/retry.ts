import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import { isRetryable, readFailure, type Failure } from './failure';

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
export function delayFor(
	failure: Failure,
	attempt: number,
	policy: RetryPolicy = DEFAULT_RETRY,
): number {
	if (failure.retryAfterMs !== undefined) return Math.min(failure.retryAfterMs, policy.maxDelayMs);
	const exponential = policy.baseDelayMs * 2 ** (attempt - 1);
	// Full jitter keeps parallel items from retrying in lockstep.
	return Math.min(policy.maxDelayMs, exponential / 2 + Math.random() * (exponential / 2));
}

/**
 * Runs one request, retrying transient failures (429 honouring Retry-After, 5xx, resets, timeouts,
 * cut-short bodies) with bounded exponential backoff — only when `idempotent`, because a create or
 * upload that may have reached the server must never be sent twice; a 429, which the API answers
 * without performing the request, is repeated for writes too. When it gives up, throws what
 * `giveUp` makes of the last failure and the number of attempts.
 */
export async function withRetry<T>(
	attempt: () => Promise<T>,
	idempotent: boolean,
	giveUp: (failure: Failure, attempts: number) => NodeApiError | Promise<NodeApiError>,
	policy: RetryPolicy = DEFAULT_RETRY,
	/** Told of each failure that will be retried, before the wait. */
	onRetry?: (failure: Failure) => void,
): Promise<T> {
	for (let n = 1; ; n++) {
		let caught: unknown;
		try {
			return await attempt();
		} catch (error) {
			caught = error;
		}
		// Our own input errors are not transport failures: they pass through untouched.
		if (caught instanceof NodeOperationError) throw caught;
		const failure = readFailure(caught);
		// A 429 means the API did not perform the request, so even a write may be sent again.
		const repeatable = idempotent || failure.status === 429;
		if (!repeatable || !isRetryable(failure) || n >= policy.maxAttempts) {
			throw await giveUp(failure, n);
		}
		onRetry?.(failure);
		await sleep(delayFor(failure, n, policy));
	}
}
