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
