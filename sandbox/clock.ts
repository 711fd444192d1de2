type ClockMode = 'frozen' | 'real';

export interface SandboxClockApi {
	now(): Date;
	set(t: string | Date): void;
	advance(ms: number): void;
}

function toMs(value: string | Date): number {
	const ms = value instanceof Date ? value.getTime() : Date.parse(value);
	if (Number.isNaN(ms)) {
		throw new Error(`Invalid clock instant: ${String(value)}`);
	}
	return ms;
}

/**
 * The sandbox's notion of "now". Frozen clocks move only when told to; real clocks tick with wall
 * time from the last instant they were set to.
 */
export class SandboxClock implements SandboxClockApi {
	private baseMs: number;
	private wallAtBase = Date.now();

	constructor(
		start: string | Date,
		readonly mode: ClockMode,
	) {
		this.baseMs = toMs(start);
	}

	nowMs(): number {
		return this.mode === 'real' ? this.baseMs + (Date.now() - this.wallAtBase) : this.baseMs;
	}

	now(): Date {
		return new Date(this.nowMs());
	}

	set(t: string | Date): void {
		this.baseMs = toMs(t);
		this.wallAtBase = Date.now();
	}

	advance(ms: number): void {
		if (!Number.isFinite(ms)) {
			throw new Error(`Invalid clock advance: ${ms}`);
		}
		this.baseMs = this.nowMs() + ms;
		this.wallAtBase = Date.now();
	}
}
