/**
 * How fetchStats cuts what is left of a period into parts fetched at once: where to cut (only at
 * starts of the API's own periods) and how each part keeps only its own rows.
 */
import type { IDataObject } from 'n8n-workflow';
import { NEWEST_FIRST } from '../vocabulary';
import { BucketClock } from './buckets';
import type { StatsQuery } from './query';
import type { PeriodUnit } from './apiValues';
import { CursorChain, type Run, type StatsPage } from './cursor';

/** Periods fetched at once per request allowed in flight: a little more than one each evens out uneven periods. */
const PERIODS_PER_REQUEST = 2;
/** A period of its own is worth its extra request from this many pages on. */
const MIN_PAGES_PER_PERIOD = 2;
/** Boundaries looked at when choosing cuts; more than any period has parts worth cutting at. */
const MAX_BOUNDARIES = 100_000;

/**
 * A part of the period: the rows whose period starts in [lo, hi). The first part (in the order
 * rows come) continues the cursor of the whole query; the others are queries of their own.
 */
export interface Part {
	lo: number;
	hi: number;
	chain: CursorChain;
	rows: IDataObject[];
	/** period_date (ms) of the part's first and last kept row, in the order they came. */
	first?: number;
	last?: number;
	/** Rows of the whole query's cursor past this part's end, kept in case the cut is abandoned. */
	beyond?: IDataObject[];
}

/** period_date as ms; rows of one period share the string, so the last one is remembered. */
export function periodReader(): (row: IDataObject) => number {
	let text: unknown;
	let ms = NaN;
	return (row) => {
		if (row.period_date !== text) {
			text = row.period_date;
			ms = typeof text === 'string' ? Date.parse(text) : NaN;
		}
		return ms;
	};
}

interface Plan {
	/** Cut instants in the order rows come (ascending, or descending for newest first). */
	cuts: number[];
	clock: BucketClock;
}

/**
 * Where to cut what is left of the period after the first page: only at starts of the API's own
 * periods (learned from the page's period_date values), never inside the periods the page
 * already reached, about evenly in time. Undefined when no safe cut exists.
 */
export function planCuts(
	query: StatsQuery,
	firstPage: StatsPage,
	pageSize: number,
	parallel: number,
): Plan | undefined {
	const rows = firstPage.rows;
	if (!rows.length) return undefined;
	const clock = BucketClock.learn(
		query.period_grouping_unit as PeriodUnit,
		new Set(rows.map((row) => row.period_date)),
	);
	if (!clock) return undefined;
	const fromMs = Date.parse(query.period_from);
	const toMs = Date.parse(query.period_to);
	if (!Number.isFinite(fromMs) || !Number.isFinite(toMs)) return undefined;
	const descending = query.order_by === NEWEST_FIRST;
	const reached = Date.parse(String(rows[rows.length - 1].period_date));
	// Candidate cuts, in the order rows come: after the page's last period (ascending), or at or
	// before it (descending), strictly inside the period asked for.
	const candidates: number[] = [];
	if (!descending) {
		for (
			let b = clock.next(clock.floor(reached));
			b < toMs && candidates.length < MAX_BOUNDARIES;
			b = clock.next(b)
		) {
			if (b > fromMs) candidates.push(b);
		}
	} else {
		for (
			let b = clock.floor(reached);
			b > fromMs && candidates.length < MAX_BOUNDARIES;
			b = clock.floor(b - 1)
		) {
			if (b < toMs) candidates.push(b);
		}
	}
	if (!candidates.length) return undefined;
	const left = typeof firstPage.count === 'number' ? firstPage.count - rows.length : Infinity;
	const pagesLeft = Math.ceil(left / pageSize);
	const parts = Math.max(
		1,
		Math.min(
			parallel * PERIODS_PER_REQUEST,
			Math.floor(pagesLeft / MIN_PAGES_PER_PERIOD),
			candidates.length + 1,
		),
	);
	if (parts < 2) return undefined;
	// Even steps in time from the page's last period to the far end, each moved to the nearest boundary.
	const start = reached;
	const end = descending ? fromMs : toMs;
	const cuts: number[] = [];
	let index = 0;
	for (let j = 1; j < parts; j++) {
		const target = start + ((end - start) * j) / parts;
		while (
			index + 1 < candidates.length &&
			Math.abs(candidates[index + 1] - target) <= Math.abs(candidates[index] - target)
		) {
			index++;
		}
		if (!cuts.length || cuts[cuts.length - 1] !== candidates[index]) cuts.push(candidates[index]);
	}
	return { cuts, clock };
}

/** The parts of the plan, in the order rows come; the first continues `head`. */
export function partsOf(
	query: StatsQuery,
	plan: Plan,
	head: CursorChain,
	run: Run,
	pageSize: number,
): Part[] {
	const descending = query.order_by === NEWEST_FIRST;
	const { cuts, clock } = plan;
	const edges = [descending ? Infinity : -Infinity, ...cuts, descending ? -Infinity : Infinity];
	const parts: Part[] = [];
	for (let i = 0; i + 1 < edges.length; i++) {
		const lo = descending ? edges[i + 1] : edges[i];
		const hi = descending ? edges[i] : edges[i + 1];
		if (i === 0) {
			parts.push({ lo, hi, chain: head, rows: [] });
			continue;
		}
		// Each part ends just before the next period starts (the period_to of the node's own
		// whole days is the last instant of a day too); the outer parts keep the edges asked for.
		const body: IDataObject = {
			...query,
			period_from: lo === -Infinity ? query.period_from : clock.format(lo),
			period_to: hi === Infinity ? query.period_to : clock.format(hi - 1),
			limit: pageSize,
		};
		parts.push({ lo, hi, chain: new CursorChain(run, body, pageSize), rows: [] });
	}
	return parts;
}

/**
 * The order in which the parts are started: the first part (it continues the cursor already
 * running) and then the others longest first. A part is one cursor, so its pages come one after
 * another; started last, a long part would run on alone after the short ones are done. Rows a day
 * vary little, so a part's length in time stands for its pages. The rows are still handed on in
 * the order of the parts, whatever order they ran in.
 */
export function startOrder(query: StatsQuery, parts: Part[]): number[] {
	const fromMs = Date.parse(query.period_from);
	const toMs = Date.parse(query.period_to);
	const span = (part: Part) => Math.min(part.hi, toMs) - Math.max(part.lo, fromMs);
	const rest = parts.map((_, index) => index).slice(1);
	// Array.prototype.sort is stable: parts of one length keep the order rows come in.
	rest.sort((a, b) => span(parts[b]) - span(parts[a]));
	return parts.length ? [0, ...rest] : [];
}

/**
 * Keeps a page's rows that belong to the part. Returns 'misaligned' when a row starts before the
 * part (its period was cut in two), 'done' when the whole query's cursor has passed the part.
 */
export function takeRows(
	part: Part,
	rows: IDataObject[],
	isHead: boolean,
	descending: boolean,
	periodOf: (row: IDataObject) => number,
): 'more' | 'done' | 'misaligned' {
	for (let i = 0; i < rows.length; i++) {
		const row = rows[i];
		const ms = periodOf(row);
		if (Number.isNaN(ms)) return 'misaligned';
		const past = descending ? ms < part.lo : ms >= part.hi;
		if (isHead && past) {
			part.beyond = rows.slice(i);
			return 'done';
		}
		if (ms >= part.hi) continue;
		if (ms < part.lo) return 'misaligned';
		part.first ??= ms;
		part.last = ms;
		part.rows.push(row);
	}
	return 'more';
}
