import { NodeOperationError, type INode } from 'n8n-workflow';
import { MAX_RETRY_WAIT_MS } from './attempts';
import type { WaitBound } from '../toolCall';
import { waitWithinCall } from '../callDeadline';

/**
 * Bounds the requests one run has in flight. A 429 halves the bound (down to one at a time) for
 * the rest of the run and holds every new request until its Retry-After has passed, so a run that
 * hits the API's rate limit slows down instead of hammering it.
 */
export class RequestGate {
	private active = 0;
	private readonly waiting: Array<() => void> = [];
	private pausedUntil = 0;
	/** Counts the halvings, so that one wave of 429s (all sent at the same bound) halves it once. */
	private generation = 0;
	private closedFor: INode | undefined;

	constructor(private bound: number) {
		this.bound = Math.max(1, Math.floor(bound));
	}

	/** Requests allowed in flight now. */
	get limit(): number {
		return this.bound;
	}

	/** Throws once the run is closed: a NodeOperationError passes through the retry loop untouched. */
	throwIfClosed(): void {
		if (this.closedFor)
			throw new NodeOperationError(this.closedFor, 'The run stopped after another request failed');
	}

	/**
	 * Waits for a free place; returns the generation to hand to slowDown if the answer is a 429.
	 * With a `bound` (a tool call's deadline), a pause after a 429 that would end past it is not
	 * waited out: its error is thrown instead, and no place is taken.
	 */
	async acquire(bound?: WaitBound): Promise<number> {
		for (;;) {
			this.throwIfClosed();
			const wait = this.pausedUntil - Date.now();
			if (wait > 0) await waitWithinCall(bound, wait, (ms) => (bound as WaitBound).error(ms, true));
			if (this.active < this.bound) break;
			await new Promise<void>((resolve) => this.waiting.push(resolve));
		}
		this.active++;
		return this.generation;
	}

	release(): void {
		this.active--;
		this.waiting.shift()?.();
	}

	/** The run failed: requests still waiting or retrying send nothing more. */
	close(node: INode): void {
		this.closedFor = node;
		for (const wake of this.waiting.splice(0)) wake();
	}

	/** The API answered 429: fewer requests at once from now on, none before Retry-After. */
	slowDown(generation: number, retryAfterMs: number | undefined): void {
		if (generation === this.generation) {
			this.generation++;
			this.bound = Math.max(1, Math.floor(this.bound / 2));
		}
		if (retryAfterMs !== undefined && retryAfterMs > 0) {
			// Capped like the retry's own wait: an answer must not hold every later request for hours.
			this.pausedUntil = Math.max(
				this.pausedUntil,
				Date.now() + Math.min(retryAfterMs, MAX_RETRY_WAIT_MS),
			);
		}
	}
}
