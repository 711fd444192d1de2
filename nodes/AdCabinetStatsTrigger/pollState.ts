import type { IDataObject } from 'n8n-workflow';
import { maxPeriodMs, periodEndMs } from './periods';
import { rowKey } from '../shared/stats/rows';
import { METRIC_FIELDS, type Grouping, type PeriodUnit } from '../shared/stats/apiValues';

/**
 * What the trigger remembers between polls, in the workflow's static data (so it survives restarts
 * and works in queue mode). It stays a few hundred bytes in "completed periods" mode and grows only
 * with the rows of periods still open in "every change" mode; nothing accumulates over time.
 */
export interface TriggerState {
	v: 1;
	/** Fingerprint of the settings the state belongs to; other settings start afresh. */
	q: string;
	/** Every period that starts before this instant (ms) has been handled. */
	wm: number;
	/** The next poll only records what it sees, emitting nothing (Start From = Now). */
	baseline?: boolean;
	/**
	 * "Every change": one 32-bit fingerprint of (row key, metrics) per row of the periods still open,
	 * 4 bytes each, base64 (about 5.3 characters a row).
	 */
	open?: string;
}

export type EmitMode = 'completed' | 'everyChange';

export interface PollSettings {
	unit: PeriodUnit;
	grouping: Grouping[];
	emit: EmitMode;
	settleMs: number;
}

/** 32-bit FNV-1a. */
function fnv1a(text: string): number {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193);
	}
	return hash >>> 0;
}

/** 32-bit FNV-1a, base 36: short, stable keys for the state. */
export function shortHash(text: string): string {
	return fnv1a(text).toString(36);
}

/** One row's fingerprint from its key hash and metrics hash: other metrics give another one. */
function fingerprint(keyHash: number, metricsHash: number): number {
	let hash = keyHash ^ Math.imul(metricsHash, 0x9e3779b1);
	hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
	hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
	return (hash ^ (hash >>> 16)) >>> 0;
}

/** The fingerprints a state holds; anything but the packed form holds none. */
function openFingerprints(open: TriggerState['open']): Set<number> {
	const set = new Set<number>();
	if (typeof open !== 'string') return set;
	const bytes = Buffer.from(open, 'base64');
	for (let i = 0; i + 4 <= bytes.length; i += 4) set.add(bytes.readUInt32LE(i));
	return set;
}

function packFingerprints(fingerprints: number[]): string {
	const bytes = Buffer.alloc(fingerprints.length * 4);
	fingerprints.forEach((value, index) => bytes.writeUInt32LE(value, index * 4));
	return bytes.toString('base64');
}

function metricsText(row: IDataObject): string {
	let text = '';
	for (const field of METRIC_FIELDS) text += `${String(row[field] ?? '')}|`;
	return text;
}

export function newState(fingerprint: string, startMs: number, baseline: boolean): TriggerState {
	return baseline ? { v: 1, q: fingerprint, wm: startMs, baseline: true } : { v: 1, q: fingerprint, wm: startMs };
}

/** Every period starting before this instant has ended and settled by `nowMs`. */
export function settledBefore(nowMs: number, settings: PollSettings): number {
	return nowMs - settings.settleMs - maxPeriodMs(settings.unit);
}

export interface PollOutcome {
	emit: IDataObject[];
	next: TriggerState;
}

/**
 * Decides, from the rows of the window [state.wm, now] (in period order), which rows to emit and
 * what to remember. Pure: the caller stores `next` only after the whole window was fetched, so a
 * failed poll changes nothing.
 */
export function applyPoll(
	state: TriggerState,
	rows: IDataObject[],
	nowMs: number,
	settings: PollSettings,
): PollOutcome {
	const emit: IDataObject[] = [];
	const everyChange = settings.emit === 'everyChange';
	const seen = everyChange ? openFingerprints(state.open) : undefined;
	const open: number[] = [];
	let wm = Math.max(state.wm, settledBefore(nowMs, settings));
	for (const row of rows) {
		const period = String(row.period_date);
		const start = Date.parse(period);
		if (!(start >= state.wm)) continue;
		const end = periodEndMs(period, settings.unit);
		const settled = end + settings.settleMs <= nowMs;
		if (settled) {
			if (end > wm) wm = end;
			if (!everyChange) {
				emit.push(row);
				continue;
			}
		}
		if (!everyChange) continue;
		const print = fingerprint(fnv1a(rowKey(row, settings.grouping)), fnv1a(metricsText(row)));
		if (!seen?.has(print)) emit.push(row);
		if (!settled) open.push(print);
	}
	const next: TriggerState = { v: 1, q: state.q, wm };
	if (everyChange && open.length) next.open = packFingerprints(open);
	return { emit: state.baseline ? [] : emit, next };
}

/**
 * The API documents how far back only the fine units go (spec 4.1 rule 1: 5 days, handled where
 * the window is fetched). For day and longer it sets no limit; no statistics of this kind exist
 * from before 2020 (the ad platforms it reports on opened later), so a watermark before then was
 * not written by the trigger.
 */
export const EARLIEST_STATS_MS = Date.UTC(2020, 0, 1);

/** Why a stored state cannot be trusted, or undefined when it can. */
function distrust(stored: TriggerState, nowMs: number, unit: PollSettings['unit']): string | undefined {
	const wm: unknown = stored.wm;
	if (typeof wm !== 'number' || !Number.isFinite(wm)) return 'its position is not a valid time';
	const at = new Date(wm).toISOString();
	if (wm < EARLIEST_STATS_MS) {
		return `its position ${at} is before ${new Date(EARLIEST_STATS_MS).toISOString()}, earlier than any statistics`;
	}
	if (wm > nowMs + maxPeriodMs(unit)) {
		return `its position ${at} is ahead of the clock (now ${new Date(nowMs).toISOString()}) by more than one period`;
	}
	if (stored.baseline !== undefined && typeof stored.baseline !== 'boolean') return 'it is not in the form the trigger writes';
	if (stored.open !== undefined && !(typeof stored.open === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(stored.open))) {
		return 'it is not in the form the trigger writes';
	}
	return undefined;
}

/**
 * The state stored in the workflow's static data, checked before it is used. Undefined when none is
 * stored or it belongs to other settings: the caller then starts as Start From says. A state that
 * cannot be trusted (not in the trigger's form, a position that is not a time, before any
 * statistics, or ahead of the clock by more than one period, as after a clock that ran ahead) is
 * replaced by a fresh one from now, which emits nothing from before now, and `warn` says so.
 */
export function loadState(
	stored: unknown,
	fingerprint: string,
	nowMs: number,
	settings: PollSettings,
	warn: (message: string) => void,
): TriggerState | undefined {
	if (stored === undefined || stored === null) return undefined;
	const record = stored as Partial<TriggerState>;
	const ours = typeof stored === 'object' && !Array.isArray(stored) && record.v === 1 && typeof record.q === 'string';
	if (ours && record.q !== fingerprint) return undefined;
	const why = ours ? distrust(record as TriggerState, nowMs, settings.unit) : 'it is not in the form the trigger writes';
	if (!why) return record as TriggerState;
	warn(
		`Ad Cabinet Stats Trigger: the stored state cannot be trusted (${why}). It was reset to now: rows from before now are not emitted, and rows from now on are. This happens when the workflow's static data was edited or the clock was wrong.`,
	);
	return newState(fingerprint, settledBefore(nowMs, settings), true);
}
