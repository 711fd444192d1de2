import { AD_STATUSES } from './statuses';

/**
 * What the Ads Trigger remembers between polls, in the workflow's static data (so it survives
 * restarts and works in queue mode): each ad's status, packed, and where the API's own clock and ad
 * ids stood after the last whole pass over the ad list. Never the ads themselves: about 2 to 3
 * characters an ad, so 5,000 ads take some 15 KB.
 */
export interface AdsTriggerState {
	v: 1;
	/** Fingerprint of the list query the statuses belong to (titles and campaign names). */
	q: string;
	/**
	 * Each ad's status, ordered by id: the id's distance from the previous one in decimal, then one
	 * letter for its status (an index into the known statuses, then into `x`). An upper-case letter
	 * marks an ad seen in the pass under way; at the end of a pass the ads not seen are forgotten.
	 */
	m: string;
	/** Statuses beyond the known ones that the API sent, in the order first met. */
	x?: string[];
	/** The newest `status_updated_dt` (ms) listed by the last whole pass; null before the first. */
	w: number | null;
	/** The highest ad id listed by the last whole pass; 0 before the first. */
	hi: number;
	/** While a pass is under way: the list offset the next poll reads on from. */
	o?: number;
	/** While a pass is under way: the newest status time and highest id listed so far in it. */
	pw?: number | null;
	phi?: number;
	/** The first pass (since activation or a change of the list query) only records what exists. */
	b?: true;
}

/** Letters for statuses: a-z in the map, upper case when seen in the current pass. */
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** The letter kept for statuses beyond what the table holds: they count as one "other" status. */
const OTHER = LETTERS.length - 1;

interface Entry {
	status: string | undefined;
	seen: boolean;
}

/** The map of a state, by ad id, with the table of statuses beyond the known ones. */
export class StatusMap {
	readonly entries = new Map<number, Entry>();
	readonly others: string[];

	constructor(state?: Pick<AdsTriggerState, 'm' | 'x'>) {
		this.others = [...(state?.x ?? [])];
		if (!state) return;
		let id = 0;
		for (const match of state.m.matchAll(/(\d+)([A-Za-z])/g)) {
			id += Number(match[1]);
			const letter = match[2];
			const index = LETTERS.indexOf(letter.toLowerCase());
			this.entries.set(id, { status: this.statusAt(index), seen: letter !== letter.toLowerCase() });
		}
	}

	private statusAt(index: number): string | undefined {
		if (index < AD_STATUSES.length) return AD_STATUSES[index];
		return index === OTHER ? undefined : this.others[index - AD_STATUSES.length];
	}

	private indexOf(status: string | undefined): number {
		if (status === undefined) return OTHER;
		const known = AD_STATUSES.indexOf(status);
		if (known >= 0) return known;
		let other = this.others.indexOf(status);
		if (other < 0 && AD_STATUSES.length + this.others.length < OTHER) {
			this.others.push(status);
			other = this.others.length - 1;
		}
		return other < 0 ? OTHER : AD_STATUSES.length + other;
	}

	/** The status as the map can hold it: one beyond its table reads back as unknown. */
	stored(status: string): string | undefined {
		return this.statusAt(this.indexOf(status));
	}

	set(id: number, status: string): void {
		this.entries.set(id, { status: this.stored(status), seen: true });
	}

	/** Starts a pass: no ad has been seen in it yet. */
	unsee(): void {
		for (const entry of this.entries.values()) entry.seen = false;
	}

	/** Ends a pass: the ads it did not list are gone from the API's list and are forgotten. */
	forgetUnseen(): void {
		for (const [id, entry] of this.entries) if (!entry.seen) this.entries.delete(id);
	}

	pack(): Pick<AdsTriggerState, 'm' | 'x'> {
		const ids = [...this.entries.keys()].sort((a, b) => a - b);
		let previous = 0;
		let m = '';
		for (const id of ids) {
			const entry = this.entries.get(id) as Entry;
			const letter = LETTERS[this.indexOf(entry.status)];
			m += `${id - previous}${entry.seen ? letter.toUpperCase() : letter}`;
			previous = id;
		}
		return this.others.length ? { m, x: [...this.others] } : { m };
	}
}

/** Why a stored state cannot be trusted, or undefined when it is in the form the trigger writes. */
function distrust(stored: Record<string, unknown>): string | undefined {
	if (typeof stored.m !== 'string' || !/^(\d+[A-Za-z])*$/.test(stored.m)) return 'its statuses';
	if (
		stored.x !== undefined &&
		!(Array.isArray(stored.x) && stored.x.every((s) => typeof s === 'string'))
	)
		return 'its statuses';
	const time = (value: unknown) =>
		value === null || (typeof value === 'number' && Number.isFinite(value));
	const count = (value: unknown) =>
		typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
	if (!time(stored.w) || !count(stored.hi)) return 'its position';
	if (stored.o !== undefined && !count(stored.o)) return 'its place in the list';
	if (stored.pw !== undefined && !time(stored.pw)) return 'its position';
	if (stored.phi !== undefined && !count(stored.phi)) return 'its position';
	if (stored.b !== undefined && stored.b !== true) return 'its first-pass mark';
	return undefined;
}

export function newState(fingerprint: string): AdsTriggerState {
	return { v: 1, q: fingerprint, m: '', w: null, hi: 0, b: true };
}

/**
 * The stored state, checked before use. A fresh state (which records before it emits) when none is
 * stored or it belongs to another list query; one that is not in the trigger's form is replaced
 * by a fresh one too, and `warn` says so.
 */
export function loadState(
	stored: unknown,
	fingerprint: string,
	warn: (message: string) => void,
): AdsTriggerState {
	if (stored === undefined || stored === null) return newState(fingerprint);
	const record = stored as Record<string, unknown>;
	const ours =
		typeof stored === 'object' &&
		!Array.isArray(stored) &&
		record.v === 1 &&
		typeof record.q === 'string';
	if (ours && record.q !== fingerprint) return newState(fingerprint);
	const why = ours ? distrust(record) : 'its form';
	if (!why) return record as unknown as AdsTriggerState;
	warn(
		`Ad Cabinet Ads Trigger: the stored state cannot be trusted (${why} is not as the trigger writes it). It was reset: the next pass over the ad list records each ad's status and emits nothing, and changes after it are emitted. This happens when the workflow's static data was edited.`,
	);
	return newState(fingerprint);
}
