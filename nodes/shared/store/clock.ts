import { sleep } from 'n8n-workflow';

/**
 * The time the write guards read and wait on. Every wait of theirs goes through `sleep` here, so a
 * test can step them with a clock of its own instead of waiting for real.
 */
export interface Clock {
	now(): number;
	/** Waits; a signal that aborts ends the wait early (rejecting). */
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
	now: () => Date.now(),
	sleep: async (ms, signal) => await sleep(ms, signal),
};

/** The errors of waits a clock would not take (see clockWithin). */
const outOfTime = new WeakSet<object>();

/**
 * Whether an error is a wait the clock would not take: it would end past the deadline of the tool
 * call it is part of. A guard that meets one stops and lets it through, where other failures of the
 * records are worked around.
 */
export function isOutOfTime(error: unknown): error is Error {
	return typeof error === 'object' && error !== null && outOfTime.has(error);
}

/**
 * A clock whose waits must end by `endsAt`: a longer wait is not taken, and what the call answers
 * (`tooLong(ms)`: when to try again, what was sent) is thrown at once.
 */
export function clockWithin(
	endsAt: number,
	tooLong: (waitMs: number) => Error,
	base: Clock = realClock,
): Clock {
	return {
		now: () => base.now(),
		sleep: async (ms, signal) => {
			if (ms > 0 && base.now() + ms > endsAt) {
				const error = tooLong(ms);
				outOfTime.add(error);
				throw error;
			}
			await base.sleep(ms, signal);
		},
	};
}
