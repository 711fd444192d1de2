import type { IDataObject } from 'n8n-workflow';
import { maxPeriodMs, periodEndMs } from './periods';
import { rowIdsOf, rowKey } from '../shared/stats/rows';
import {
	DECIMAL_FIELDS,
	METRIC_FIELDS,
	type Grouping,
	type PeriodUnit,
} from '../shared/stats/apiValues';

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
	/**
	 * "Re-check Last N Periods": the figures last emitted for each row of the last N settled
	 * periods, by period start (ms, as text) and the row's ids (as in row_key): about 60 characters
	 * a row, and only rows of those N periods, so it never grows with time.
	 */
	rc?: Record<string, Record<string, string>>;
}

export type EmitMode = 'completed' | 'everyChange';

export interface PollSettings {
	unit: PeriodUnit;
	grouping: Grouping[];
	emit: EmitMode;
	settleMs: number;
	/** Settled periods read again on each poll for restated figures; 0 or absent: none. */
	recheck?: number;
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

const DECIMAL_SET: ReadonlySet<string> = new Set(DECIMAL_FIELDS);

/** A row's figures as the re-check stores them: the metric values in a fixed order, separated by commas. */
export function figuresText(row: IDataObject): string {
	let text = '';
	for (let i = 0; i < METRIC_FIELDS.length; i++) {
		const value = row[METRIC_FIELDS[i]];
		if (i) text += ',';
		if (value === undefined || value === null) continue;
		const part = String(value);
		text += /[,%]/.test(part) ? part.replace(/%/g, '%25').replace(/,/g, '%2C') : part;
	}
	return text;
}

/**
 * The figures stored by `figuresText`, as the API sent them: decimals as text, counts as numbers.
 * A figure that was absent or null is left out.
 */
export function figuresOf(text: string): IDataObject {
	const figures: IDataObject = {};
	const parts = text.split(',');
	for (let i = 0; i < METRIC_FIELDS.length; i++) {
		const part = parts[i];
		if (part === undefined || part === '') continue;
		const value = part.includes('%') ? decodeURIComponent(part) : part;
		const field = METRIC_FIELDS[i];
		figures[field] =
			!DECIMAL_SET.has(field) && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
	}
	return figures;
}

export function newState(fingerprint: string, startMs: number, baseline: boolean): TriggerState {
	return baseline
		? { v: 1, q: fingerprint, wm: startMs, baseline: true }
		: { v: 1, q: fingerprint, wm: startMs };
}

/** Every period starting before this instant has ended and settled by `nowMs`. */
export function settledBefore(nowMs: number, settings: PollSettings): number {
	return nowMs - settings.settleMs - maxPeriodMs(settings.unit);
}

export interface PollOutcome {
	emit: IDataObject[];
	next: TriggerState;
	/**
	 * Rows of `emit` that are restatements, each with the figures it was emitted with before (null
	 * for a row that first appeared in a period already emitted).
	 */
	restated: Map<IDataObject, IDataObject | null>;
}

/**
 * Where a poll's window starts: the watermark, or with a re-check the start of the oldest period
 * still re-checked.
 */
export function windowStart(state: TriggerState): number {
	let from = state.wm;
	for (const period of Object.keys(state.rc ?? {})) {
		const start = Number(period);
		if (start < from) from = start;
	}
	return from;
}

/**
 * The re-checked periods to keep after a poll: the last `recheck` periods that start within
 * `recheck` of the unit's longest periods before the watermark, so neither their number nor how
 * far back they reach grows.
 */
function keptPeriods(
	periods: Record<string, Record<string, string>>,
	wm: number,
	settings: PollSettings,
): Record<string, Record<string, string>> | undefined {
	const recheck = settings.recheck ?? 0;
	const horizon = wm - recheck * maxPeriodMs(settings.unit);
	const starts = Object.keys(periods)
		.map(Number)
		.filter((start) => start >= horizon && start < wm)
		.sort((a, b) => b - a)
		.slice(0, recheck);
	if (!starts.length) return undefined;
	const kept: Record<string, Record<string, string>> = {};
	for (const start of starts.reverse()) kept[String(start)] = periods[String(start)];
	return kept;
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
	const restated = new Map<IDataObject, IDataObject | null>();
	const everyChange = settings.emit === 'everyChange';
	const seen = everyChange ? openFingerprints(state.open) : undefined;
	const open: number[] = [];
	const rechecking = (settings.recheck ?? 0) > 0;
	// Copied on write: the caller keeps the old state if this poll's outcome is not stored.
	const periods: Record<string, Record<string, string>> = rechecking ? { ...(state.rc ?? {}) } : {};
	const copied = new Set<string>();
	const periodFor = (start: number): Record<string, string> => {
		const key = String(start);
		if (!copied.has(key)) {
			periods[key] = { ...(periods[key] ?? {}) };
			copied.add(key);
		}
		return periods[key];
	};
	const idsOf = rechecking ? rowIdsOf(settings.grouping) : undefined;
	let wm = Math.max(state.wm, settledBefore(nowMs, settings));
	for (const row of rows) {
		const period = String(row.period_date);
		const start = Date.parse(period);
		if (!(start >= state.wm)) {
			// A period emitted before: emitted again only where its figures changed since.
			if (idsOf && !state.baseline && periods[String(start)]) {
				const ids = idsOf(row);
				const figures = figuresText(row);
				const before = periods[String(start)][ids];
				if (before !== figures) {
					periodFor(start)[ids] = figures;
					emit.push(row);
					restated.set(row, before === undefined ? null : figuresOf(before));
				}
			}
			continue;
		}
		const end = periodEndMs(period, settings.unit);
		const settled = end + settings.settleMs <= nowMs;
		if (settled) {
			if (end > wm) wm = end;
			if (idsOf && !state.baseline) periodFor(start)[idsOf(row)] = figuresText(row);
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
	const kept = rechecking ? keptPeriods(periods, wm, settings) : undefined;
	if (kept) next.rc = kept;
	return state.baseline ? { emit: [], next, restated: new Map() } : { emit, next, restated };
}

/**
 * The API documents how far back only the fine units go (the last 5 days, handled where
 * the window is fetched). For day and longer it sets no limit; no statistics of this kind exist
 * from before 2020 (the ad platforms it reports on opened later), so a watermark before then was
 * not written by the trigger.
 */
export const EARLIEST_STATS_MS = Date.UTC(2020, 0, 1);

/** Period starts (ms) mapped to row ids mapped to figures, as `applyPoll` writes them. */
function isRecheckRecord(value: unknown): boolean {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
	return Object.entries(value).every(
		([start, rows]) =>
			/^-?\d+$/.test(start) &&
			typeof rows === 'object' &&
			rows !== null &&
			!Array.isArray(rows) &&
			Object.values(rows as object).every((figures) => typeof figures === 'string'),
	);
}

/** Why a stored state cannot be trusted, or undefined when it can. */
function distrust(
	stored: TriggerState,
	nowMs: number,
	unit: PollSettings['unit'],
): string | undefined {
	const wm: unknown = stored.wm;
	if (typeof wm !== 'number' || !Number.isFinite(wm)) return 'its position is not a valid time';
	const at = new Date(wm).toISOString();
	if (wm < EARLIEST_STATS_MS) {
		return `its position ${at} is before ${new Date(EARLIEST_STATS_MS).toISOString()}, earlier than any statistics`;
	}
	if (wm > nowMs + maxPeriodMs(unit)) {
		return `its position ${at} is ahead of the clock (now ${new Date(nowMs).toISOString()}) by more than one period`;
	}
	if (stored.baseline !== undefined && typeof stored.baseline !== 'boolean')
		return 'it is not in the form the trigger writes';
	if (
		stored.open !== undefined &&
		!(typeof stored.open === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(stored.open))
	) {
		return 'it is not in the form the trigger writes';
	}
	if (stored.rc !== undefined && !isRecheckRecord(stored.rc))
		return 'it is not in the form the trigger writes';
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
	const ours =
		typeof stored === 'object' &&
		!Array.isArray(stored) &&
		record.v === 1 &&
		typeof record.q === 'string';
	if (ours && record.q !== fingerprint) return undefined;
	const why = ours
		? distrust(record as TriggerState, nowMs, settings.unit)
		: 'it is not in the form the trigger writes';
	if (!why) return record as TriggerState;
	warn(
		`Ad Cabinet Stats Trigger: the stored state cannot be trusted (${why}). It was reset to now: rows from before now are not emitted, and rows from now on are. This happens when the workflow's static data was edited or the clock was wrong.`,
	);
	return newState(fingerprint, settledBefore(nowMs, settings), true);
}
