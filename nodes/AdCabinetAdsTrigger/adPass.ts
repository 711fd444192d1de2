import type { IDataObject } from 'n8n-workflow';
import { StatusMap, type AdsTriggerState } from './adState';

/** A deleted ad is forgotten once its deletion is this old by the API's clock: it cannot change again. */
export const FORGET_DELETED_MS = 30 * 86_400_000;

/** One ad of the list as the trigger reads it. */
export interface ListedAd {
	id: number;
	status: string;
	/** `status_updated_dt` in ms; undefined when the API sent none that reads as a time. */
	updatedMs: number | undefined;
	item: IDataObject;
}

/** A change found by a pass: the ad's status differs from the one stored, or the ad is new. */
export interface AdChange {
	ad: ListedAd;
	/** The status stored before; null for an ad the trigger had not met. */
	previous: string | null;
	isNew: boolean;
}

/** An ad of the list with an id and a status; anything else is no ad the trigger can follow. */
export function readListedAd(value: unknown): ListedAd | undefined {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
	const item = value as IDataObject;
	const id = typeof item.id === 'string' && /^\d+$/.test(item.id) ? Number(item.id) : item.id;
	if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) return undefined;
	if (typeof item.status !== 'string' || item.status === '') return undefined;
	const updated =
		typeof item.status_updated_dt === 'string' ? Date.parse(item.status_updated_dt) : Number.NaN;
	return { id, status: item.status, updatedMs: Number.isNaN(updated) ? undefined : updated, item };
}

const later = (a: number | null | undefined, b: number | undefined): number | null =>
	b === undefined ? (a ?? null) : a === null || a === undefined ? b : Math.max(a, b);

/**
 * One pass over the ad list, which may take several polls: each page is compared with the stored
 * statuses as it comes, and the state written after a poll holds every change found so far, so a
 * change is found once however the pass is split. Pure: nothing is stored unless the caller stores
 * `state()`.
 */
export class AdPass {
	private readonly map: StatusMap;
	private newest: number | null;
	private highest: number;

	constructor(private readonly previous: AdsTriggerState) {
		this.map = new StatusMap(previous);
		const underWay = previous.o !== undefined;
		if (!underWay) this.map.unsee();
		this.newest = underWay ? (previous.pw ?? null) : null;
		this.highest = underWay ? (previous.phi ?? 0) : 0;
	}

	/** The first pass since activation (or a change of the list query): it only records the ads. */
	get recordsOnly(): boolean {
		return this.previous.b === true;
	}

	/** How many ads the statuses are kept of. */
	get adCount(): number {
		return this.map.entries.size;
	}

	/** The status stored for an ad, when there is one. */
	statusOf(id: number): string | undefined {
		return this.map.entries.get(id)?.status;
	}

	/** Compares a page of the list with what is stored; returns the changes on it. */
	see(ads: ListedAd[]): AdChange[] {
		const changes: AdChange[] = [];
		const { w, hi, b } = this.previous;
		for (const ad of ads) {
			this.highest = Math.max(this.highest, ad.id);
			this.newest = later(this.newest, ad.updatedMs);
			const clock = later(w, this.newest ?? undefined);
			const longDeleted =
				ad.status === 'deleted' &&
				ad.updatedMs !== undefined &&
				clock !== null &&
				ad.updatedMs < clock - FORGET_DELETED_MS;
			const entry = this.map.entries.get(ad.id);
			if (entry) {
				const same = entry.status === this.map.stored(ad.status);
				if (!same) changes.push({ ad, previous: entry.status ?? null, isNew: false });
				if (longDeleted) this.map.entries.delete(ad.id);
				else if (same) entry.seen = true;
				else this.map.set(ad.id, ad.status);
				continue;
			}
			if (longDeleted) continue;
			this.map.set(ad.id, ad.status);
			if (b) continue;
			// New since the last whole pass: a higher id, or a status set at or after the newest one
			// that pass listed (by the API's clock, so n8n's own clock does not matter).
			const isNew = ad.id > hi || (ad.updatedMs !== undefined && w !== null && ad.updatedMs >= w);
			if (isNew) changes.push({ ad, previous: null, isNew: true });
		}
		return changes;
	}

	/**
	 * The state to store: with `nextOffset` the pass is still under way and the next poll reads on
	 * from there; without it the pass is whole, the ads it did not list are forgotten and its
	 * newest time and highest id become what later ads are judged new against.
	 */
	state(nextOffset?: number): AdsTriggerState {
		const { v, q } = this.previous;
		if (nextOffset !== undefined) {
			return {
				v,
				q,
				...this.map.pack(),
				w: this.previous.w,
				hi: this.previous.hi,
				o: nextOffset,
				pw: this.newest,
				phi: this.highest,
				...(this.previous.b ? { b: true as const } : {}),
			};
		}
		this.map.forgetUnseen();
		return {
			v,
			q,
			...this.map.pack(),
			w: later(this.previous.w, this.newest ?? undefined),
			hi: Math.max(this.previous.hi, this.highest),
		};
	}
}
