/**
 * The time tokens expire and the rate limit counts by. It follows the wall clock even when the
 * statistics clock is frozen (a client waiting out a block waits real seconds), and tests may move
 * it forward instead of waiting.
 */
export class ServiceTime {
	private offset = 0;

	nowMs(): number {
		return Date.now() + this.offset;
	}

	/** How far it was moved ahead of the wall clock. */
	get offsetMs(): number {
		return this.offset;
	}

	advance(ms: number): void {
		if (!Number.isFinite(ms) || ms < 0)
			throw new Error(`Service time moves forward only: advanceMs must be 0 or more, got ${ms}`);
		this.offset += ms;
	}
}
