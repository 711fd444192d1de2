/**
 * One statistics query followed page by page along the API's cursor, and the state a pull shares
 * between its cursors. The rules it follows: docs/api-rules.md#statistics (Paging).
 */
import type { IDataObject } from 'n8n-workflow';
import type { CredentialView } from '../auth';
import { PAGE_BOUND_SLACK, PATHS } from '../constants';
import { apiError } from '../transport/nodeErrors';
import type { RequestGate } from '../transport/gate';
import { apiRequest, type ConnectionOptions, type RequestContext } from '../transport/request';

/** One page of POST /api/v1/stats/page. */
export interface StatsPage {
	columns?: IDataObject[];
	rows: IDataObject[];
	count?: number;
	cursor?: string | null;
}

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

export interface Run {
	ctx: RequestContext;
	credentials: CredentialView;
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
 * One query followed by cursor: the first request carries the query, each
 * next one only `cursor`, until the API answers a null cursor.
 */
export class CursorChain {
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
			// The API documents a next-page request that carries only the cursor, so nothing else is sent.
			this.body = { cursor };
		}
		return page;
	}
}

/** Emits rows up to maxRows; false once no more are wanted. */
export function emit(
	run: Run,
	rows: IDataObject[],
	page: StatsPage = { rows, cursor: null },
): boolean {
	const maxRows = run.options.maxRows ?? Infinity;
	const room = maxRows - run.result.rowsReceived;
	if (room <= 0) return false;
	const out = rows.length > room ? rows.slice(0, room) : rows;
	run.result.rowsReceived += out.length;
	run.options.onRows(out, page);
	return run.result.rowsReceived < maxRows;
}

/** The rest of one cursor, one page after another. */
export async function sequential(run: Run, chain: CursorChain): Promise<void> {
	while (!chain.done) {
		const page = (await chain.next()) as StatsPage;
		if (!emit(run, page.rows, page)) return;
	}
}
