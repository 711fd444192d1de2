import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import { CREDENTIAL_TYPE, MAX_PAGE_SIZE, PAGE_BOUND_SLACK, PATHS } from '../constants';
import { apiError } from '../transport/errors';
import { NEWEST_FIRST } from '../vocabulary';
import { RequestGate } from '../transport/gate';
import { apiRequest, type ConnectionOptions, type RequestContext } from '../transport/request';
import { paceLimitOf } from '../transport/pacing';
import { runDeadline } from '../transport/send';
import { BucketClock } from './buckets';
import { checkStatsQuery, type StatsQuery } from './query';
import { FINE_UNIT_MAX_SPAN_DAYS, FINE_UNITS, type PeriodUnit } from './apiValues';

/** spec 2.1: one page of POST /api/v1/stats/page. */
export interface StatsPage {
	columns?: IDataObject[];
	rows: IDataObject[];
	count?: number;
	cursor?: string | null;
}

/**
 * Requests in flight by default. n8n's request helper opens a new connection for every request,
 * so over a real network each page pays the connection setup on top of its round trip; pages in
 * flight at once hide both. Past 8 little is gained for twice the connections the API sees at
 * once; the measurements behind the choice are in docs/performance.md ("The default: 8 requests
 * at once"). A 429 answer lowers it for the rest of the run anyway.
 */
export const DEFAULT_PARALLEL_REQUESTS = 8;
/** A bound for the option: more connections at once than this only burden the API. */
export const MAX_PARALLEL_REQUESTS = 32;

/** Periods fetched at once per request allowed in flight: a little more than one each evens out uneven periods. */
const PERIODS_PER_REQUEST = 2;
/** A period of its own is worth its extra request from this many pages on. */
const MIN_PAGES_PER_PERIOD = 2;
/** Boundaries looked at when choosing cuts; more than any period has parts worth cutting at. */
const MAX_BOUNDARIES = 100_000;

export interface StatsFetch {
	/** Rows per request, 1..500. */
	pageSize?: number;
	/** Stop after this many rows; Infinity follows the cursor to the end. */
	maxRows?: number;
	/** Requests in flight at most (1 = one page after another); default DEFAULT_PARALLEL_REQUESTS. */
	parallel?: number;
	itemIndex?: number;
	connection?: ConnectionOptions;
	/**
	 * Receives the rows in the order of one sequential pull, a page or a part at a time, with the
	 * answer they came from (a part's rows come with a page of its own rows and no cursor: every
	 * row of the query is wanted then).
	 */
	onRows: (rows: IDataObject[], page: StatsPage) => void;
}

export interface StatsFetchResult {
	columns?: IDataObject[];
	count?: number;
	rowsReceived: number;
	pages: number;
	/** Requests in flight at most, after any slowing down for 429 answers. */
	parallel: number;
	/** Sub-periods the pull was cut into (1: one cursor from start to end). */
	periods: number;
	/** Requests that waited for their turn under the API's rate limit. */
	pacedRequests: number;
}

interface Run {
	ctx: RequestContext;
	credentials: ICredentialDataDecryptedObject;
	options: StatsFetch;
	gate: RequestGate;
	result: StatsFetchResult;
	/** When the whole pull must end: no page is asked for past it. */
	endsAt: number;
}

async function requestPage(run: Run, body: IDataObject): Promise<StatsPage> {
	const { ctx, options } = run;
	const page = (await apiRequest.call(ctx, {
		api: 'base',
		method: 'POST',
		path: PATHS.statsPage,
		body,
		idempotent: true,
		credentials: run.credentials,
		itemIndex: options.itemIndex,
		connection: options.connection,
		gate: run.gate,
		runEndsAt: run.endsAt,
		onPaced: () => {
			run.result.pacedRequests++;
		},
	})) as StatsPage | undefined;
	run.result.pages++;
	if (!page || !Array.isArray(page.rows)) {
		throw apiError(ctx.getNode(), {
			body: { page: run.result.pages },
			message:
				'The statistics answer has no "rows" array, so it is not a statistics page. It only reads data, so running it again is safe.',
			description: 'The API answered POST /api/v1/stats/page with an unexpected shape.',
			itemIndex: options.itemIndex,
		});
	}
	return page;
}

/**
 * One query followed by cursor (spec 4.1 rules 3-4): the first request carries the query, each
 * next one only `cursor`, until the API answers a null cursor.
 */
class CursorChain {
	private body: IDataObject | undefined;
	private readonly seen = new Set<string>();
	private requests = 0;
	/** Requests this cursor may take: the pages its first answer's count needs, plus 5. */
	private maxRequests = Infinity;
	private count = 0;

	constructor(
		private readonly run: Run,
		first: IDataObject,
		private readonly pageSize: number,
	) {
		this.body = first;
	}

	get done(): boolean {
		return this.body === undefined;
	}

	private stop(message: string): never {
		throw apiError(this.run.ctx.getNode(), {
			body: { page: this.run.result.pages },
			message: `${message} It only reads data, so running it again is safe.`,
			itemIndex: this.run.options.itemIndex,
		});
	}

	async next(): Promise<StatsPage | undefined> {
		if (!this.body) return undefined;
		if (this.requests >= this.maxRequests) {
			this.stop(
				`The statistics API kept answering with a next-page cursor after ${this.requests} pages, more than its count of ${this.count} rows needs at ${this.pageSize} a page (plus ${PAGE_BOUND_SLACK} pages to spare), so paging stopped. Try again later or narrow the period.`,
			);
		}
		const page = await requestPage(this.run, this.body);
		this.requests++;
		if (this.requests === 1 && typeof page.count === 'number' && page.count >= 0) {
			this.count = page.count;
			this.maxRequests = Math.ceil(page.count / this.pageSize) + PAGE_BOUND_SLACK;
		}
		const cursor = page.cursor;
		if (cursor === null || cursor === undefined || cursor === '') {
			this.body = undefined;
		} else {
			if (page.rows.length === 0) {
				this.stop(
					'The statistics API answered an empty page that still had a next-page cursor, so paging stopped rather than follow it without end. Try again later or narrow the period.',
				);
			}
			if (this.seen.has(cursor)) {
				this.stop(
					'The statistics API returned the same cursor twice, so paging stopped to avoid an endless loop. Try again or narrow the period.',
				);
			}
			this.seen.add(cursor);
			// spec 4.1 rule 4: the next-page request shown carries only the cursor.
			this.body = { cursor };
		}
		return page;
	}
}

/** Emits rows up to maxRows; false once no more are wanted. */
function emit(run: Run, rows: IDataObject[], page: StatsPage = { rows, cursor: null }): boolean {
	const maxRows = run.options.maxRows ?? Infinity;
	const room = maxRows - run.result.rowsReceived;
	if (room <= 0) return false;
	const out = rows.length > room ? rows.slice(0, room) : rows;
	run.result.rowsReceived += out.length;
	run.options.onRows(out, page);
	return run.result.rowsReceived < maxRows;
}

/** The rest of one cursor, one page after another. */
async function sequential(run: Run, chain: CursorChain): Promise<void> {
	while (!chain.done) {
		const page = (await chain.next()) as StatsPage;
		if (!emit(run, page.rows, page)) return;
	}
}

/**
 * A part of the period: the rows whose period starts in [lo, hi). The first part (in the order
 * rows come) continues the cursor of the whole query; the others are queries of their own.
 */
interface Part {
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
function periodReader(): (row: IDataObject) => number {
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
function planCuts(
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
		for (let b = clock.next(clock.floor(reached)); b < toMs && candidates.length < MAX_BOUNDARIES; b = clock.next(b)) {
			if (b > fromMs) candidates.push(b);
		}
	} else {
		for (let b = clock.floor(reached); b > fromMs && candidates.length < MAX_BOUNDARIES; b = clock.floor(b - 1)) {
			if (b < toMs) candidates.push(b);
		}
	}
	if (!candidates.length) return undefined;
	const left = typeof firstPage.count === 'number' ? firstPage.count - rows.length : Infinity;
	const pagesLeft = Math.ceil(left / pageSize);
	const parts = Math.max(
		1,
		Math.min(parallel * PERIODS_PER_REQUEST, Math.floor(pagesLeft / MIN_PAGES_PER_PERIOD), candidates.length + 1),
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
function partsOf(query: StatsQuery, plan: Plan, head: CursorChain, run: Run, pageSize: number): Part[] {
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
 * Keeps a page's rows that belong to the part. Returns 'misaligned' when a row starts before the
 * part (its period was cut in two), 'done' when the whole query's cursor has passed the part.
 */
function takeRows(
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

/**
 * Pulls statistics (spec 4.1). The first page is always the whole query, exactly as a sequential
 * pull would ask. For Return All (or a Limit the API's count shows is no smaller than the
 * result), the rest of the period is then cut at the starts of the API's own periods, learned
 * from the period_date values of that page, and the parts are fetched several at a time, each by
 * its own cursor, through a gate of `parallel` requests in flight. The rows are handed on in the
 * order of one sequential pull. Anything that would make them differ (a row whose period starts
 * before its part, one period in two parts, a total other than the API's count) drops the parts
 * and finishes the whole query's own cursor instead. Pages are reads, so each is retried on
 * transient failures without restarting the run.
 */
export async function fetchStats(
	this: RequestContext,
	query: StatsQuery,
	options: StatsFetch,
): Promise<StatsFetchResult> {
	const maxRows = options.maxRows ?? Infinity;
	const pageSize = Math.min(options.pageSize ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE, maxRows);
	const credentials = await this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE);
	// Under the API's rate limit a pull takes as long as its requests need windows, and cutting it
	// into parts adds requests (each part's last page is a short one): one cursor spends least.
	const parallel = paceLimitOf(credentials)
		? 1
		: Math.max(1, Math.floor(options.parallel ?? DEFAULT_PARALLEL_REQUESTS));
	const run: Run = {
		ctx: this,
		credentials,
		options,
		gate: new RequestGate(parallel),
		result: { rowsReceived: 0, pages: 0, parallel, periods: 1, pacedRequests: 0 },
		endsAt: runDeadline(),
	};
	const result = run.result;
	const head = new CursorChain(run, { ...query, limit: pageSize }, pageSize);
	const first = (await head.next()) as StatsPage;
	result.columns = first.columns;
	result.count = first.count;
	// A Limit never asks for a page past it: only when the API's count shows every row is wanted.
	const wantsAll = maxRows === Infinity || (typeof first.count === 'number' && first.count <= maxRows);
	const plan = parallel > 1 && !head.done && wantsAll ? planCuts(query, first, pageSize, parallel) : undefined;
	if (!plan) {
		if (emit(run, first.rows, first)) await sequential(run, head);
		result.parallel = run.gate.limit;
		return result;
	}

	const descending = query.order_by === NEWEST_FIRST;
	const parts = partsOf(query, plan, head, run, pageSize);
	result.periods = parts.length;
	const periodOf = periodReader();
	let abandoned = takeRows(parts[0], first.rows, true, descending, periodOf) === 'misaligned';
	let nextPart = 0;
	let failed = false;
	const worker = async () => {
		while (!abandoned && !failed && nextPart < parts.length) {
			const index = nextPart++;
			const part = parts[index];
			const periodOfPart = periodReader();
			while (!abandoned && !failed && !part.chain.done) {
				const page = (await part.chain.next()) as StatsPage;
				const state = takeRows(part, page.rows, index === 0, descending, periodOfPart);
				if (state === 'misaligned') abandoned = true;
				if (state === 'done') break;
			}
		}
	};
	const workers = Array.from({ length: Math.min(parallel, parts.length) }, worker);
	for (const running of workers) {
		// The first failure fails the run (Promise.all below rejects with it); the other parts
		// send nothing more.
		running.catch(() => {
			failed = true;
			run.gate.close(run.ctx.getNode());
		});
	}
	await Promise.all(workers);

	// One period in two parts, or a total other than the count, also means the cut was not clean.
	let total = 0;
	let previous: number | undefined;
	for (const part of parts) {
		total += part.rows.length;
		if (part.first === undefined) continue;
		if (previous !== undefined && previous === part.first) abandoned = true;
		previous = part.last;
	}
	if (typeof first.count === 'number' && total !== first.count) abandoned = true;

	result.parallel = run.gate.limit;
	if (abandoned) {
		// The whole query's cursor, from where its part stopped, gives exactly the sequential rows.
		result.periods = 1;
		const headPart = parts[0];
		if (emit(run, headPart.rows) && emit(run, headPart.beyond ?? [])) await sequential(run, head);
		return result;
	}
	for (const part of parts) {
		if (!emit(run, part.rows)) break;
		part.rows = [];
	}
	return result;
}

const DAY_MS = 86_400_000;

export interface StatsWindow {
	fromMs: number;
	toMs: number;
	/** The clock the window is checked against (rules on how far back fine units reach). */
	now: Date;
}

/**
 * All rows of [fromMs, toMs) for one query, however long the window: a unit that may span at most
 * two days per request (spec 4.1 rule 1) is fetched in pieces, each checked like a query of its
 * own. Each piece ends where one of the API's own periods starts (learned from the first piece's
 * period_date values), so no period is split between two pieces. Used by the trigger.
 */
export async function fetchStatsWindow(
	this: RequestContext,
	base: StatsQuery,
	window: StatsWindow,
	options: Omit<StatsFetch, 'onRows' | 'maxRows'> = {},
): Promise<IDataObject[]> {
	const node = this.getNode();
	const unit = base.period_grouping_unit as PeriodUnit;
	const { toMs } = window;
	const rows: IDataObject[] = [];
	const step = FINE_UNITS.has(unit) ? FINE_UNIT_MAX_SPAN_DAYS * DAY_MS : Infinity;
	let clock: BucketClock | undefined;
	for (let from = window.fromMs; from < toMs; ) {
		let to = Math.min(toMs, from + step);
		if (to < toMs && clock && clock.floor(to) > from) to = clock.floor(to);
		const query: StatsQuery = {
			...base,
			period_from: new Date(from).toISOString(),
			// A piece ends just before the next one starts.
			period_to: new Date(to < toMs ? to - 1 : to).toISOString(),
		};
		checkStatsQuery(node, query, { fromMs: from, toMs: to, now: window.now }, options.itemIndex ?? 0);
		const piece: IDataObject[] = [];
		await fetchStats.call(this, query, {
			...options,
			onRows: (page) => {
				for (const row of page) piece.push(row);
			},
		});
		if (to < toMs && !clock) {
			clock = BucketClock.learn(unit, new Set(piece.map((row) => row.period_date)));
			const cut = clock?.floor(to);
			if (cut !== undefined && cut > from && cut < to) {
				// The period holding the piece's end goes whole into the next piece.
				for (const row of piece) if (Date.parse(String(row.period_date)) < cut) rows.push(row);
				from = cut;
				continue;
			}
		}
		for (const row of piece) rows.push(row);
		from = to;
	}
	return rows;
}
