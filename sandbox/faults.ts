import { mulberry32 } from './random';

export type FaultKind = '429' | '500' | '502' | '503' | '504' | 'reset' | 'stall' | 'truncated';

export const FAULT_KINDS: readonly FaultKind[] = [
	'429',
	'500',
	'502',
	'503',
	'504',
	'reset',
	'stall',
	'truncated',
];

export interface FaultSettings {
	/** Probability in 0..1 that a matching API request is faulted. */
	rate: number;
	kinds: FaultKind[];
	seed?: number;
	/** `Retry-After` of 429 answers; default 0 so tests stay fast. */
	retryAfterSeconds?: number;
	/** How long a stalled request is held before its socket is destroyed; default 60 s. */
	stallMs?: number;
	match?: (path: string, method: string) => boolean;
}

export interface FaultDecision {
	kind: FaultKind;
	retryAfterSeconds: number;
	stallMs: number;
}

const DEFAULT_STALL_MS = 60_000;

export function isFaultKind(value: unknown): value is FaultKind {
	return typeof value === 'string' && (FAULT_KINDS as readonly string[]).includes(value);
}

function emptyCounts(): Record<FaultKind, number> {
	return { '429': 0, '500': 0, '502': 0, '503': 0, '504': 0, reset: 0, stall: 0, truncated: 0 };
}

/**
 * Decides, before any handler runs, whether an API request is answered with a fault. Faulted
 * requests therefore never change sandbox state.
 */
export class FaultController {
	/** How many faults of each kind were injected. `clear()` keeps them; `resetCounts()` zeroes them. */
	readonly injected: Record<FaultKind, number> = emptyCounts();

	private settings: FaultSettings | null = null;
	private random: () => number = mulberry32(1);
	private seen = 0;
	private scheduled: { at: number; kind: FaultKind }[] = [];
	private lostAnswers: Array<{ match: (path: string, method: string) => boolean; left: number }> =
		[];
	/** How many answers were lost after the request had been carried out. */
	lost = 0;

	set(settings: FaultSettings): void {
		if (!(settings.rate >= 0 && settings.rate <= 1)) {
			throw new Error(`Fault rate must be within 0..1, got ${settings.rate}`);
		}
		if (!Array.isArray(settings.kinds) || settings.kinds.length === 0) {
			throw new Error('Fault kinds must be a non-empty array');
		}
		for (const kind of settings.kinds) {
			if (!isFaultKind(kind)) {
				throw new Error(`Unknown fault kind "${String(kind)}"; valid: ${FAULT_KINDS.join(', ')}`);
			}
		}
		this.settings = { ...settings, kinds: [...settings.kinds] };
		this.random = mulberry32(settings.seed ?? 1);
	}

	/** Faults the n-th API request from now (1 = the very next one), whatever the rate settings say. */
	onNth(n: number, kind: FaultKind): void {
		if (!Number.isInteger(n) || n < 1) {
			throw new Error(`onNth expects a 1-based request count, got ${n}`);
		}
		if (!isFaultKind(kind)) {
			throw new Error(`Unknown fault kind "${String(kind)}"`);
		}
		this.scheduled.push({ at: this.seen + n, kind });
	}

	clear(): void {
		this.settings = null;
		this.scheduled = [];
		this.lostAnswers = [];
	}

	/**
	 * The next `count` matching requests (of each call: calls add up) are carried out (an ad is made, a CPM is changed), and then
	 * their connection is reset instead of answered: the answer lost on its way back, the one fault
	 * after which the client cannot know whether its write happened.
	 */
	loseAnswers(match: (path: string, method: string) => boolean, count = 1): void {
		if (!Number.isInteger(count) || count < 1)
			throw new Error(`loseAnswers expects a count of 1 or more, got ${count}`);
		this.lostAnswers.push({ match, left: count });
	}

	/** How many carried-out requests are still to lose their answer. */
	get answersToLose(): number {
		return this.lostAnswers.reduce((n, l) => n + l.left, 0);
	}

	/** Whether this request's answer, now that it has been carried out, is to be lost. */
	losesAnswer(path: string, method: string): boolean {
		const lose = this.lostAnswers.find((l) => l.left > 0 && l.match(path, method));
		if (!lose) return false;
		lose.left -= 1;
		this.lostAnswers = this.lostAnswers.filter((l) => l.left > 0);
		this.lost += 1;
		return true;
	}

	resetCounts(): void {
		Object.assign(this.injected, emptyCounts());
	}

	decide(path: string, method: string): FaultDecision | null {
		this.seen += 1;
		const retryAfterSeconds = this.settings?.retryAfterSeconds ?? 0;
		const stallMs = this.settings?.stallMs ?? DEFAULT_STALL_MS;
		const dueIndex = this.scheduled.findIndex((entry) => entry.at === this.seen);
		if (dueIndex >= 0) {
			const [due] = this.scheduled.splice(dueIndex, 1);
			return this.count({ kind: due.kind, retryAfterSeconds, stallMs });
		}
		const settings = this.settings;
		if (!settings || settings.rate === 0) return null;
		if (settings.match && !settings.match(path, method)) return null;
		if (this.random() >= settings.rate) return null;
		const kind = settings.kinds[Math.floor(this.random() * settings.kinds.length)];
		return this.count({ kind, retryAfterSeconds, stallMs });
	}

	private count(decision: FaultDecision): FaultDecision {
		this.injected[decision.kind] += 1;
		return decision;
	}
}
