import { credentialViewOf } from '../auth';
import { MAX_PAGE_SIZE } from '../constants';
import { NEWEST_FIRST } from '../vocabulary';
import { RequestGate } from '../transport/gate';
import type { RequestContext } from '../transport/request';
import { paceLimitOf } from '../transport/pacing';
import { runDeadline } from '../transport/send';
import type { StatsQuery } from './query';
import {
	CursorChain,
	emit,
	sequential,
	type Run,
	type StatsFetch,
	type StatsFetchResult,
	type StatsPage,
} from './cursor';
import { partsOf, periodReader, planCuts, startOrder, takeRows } from './cuts';

export type { StatsFetch, StatsPage } from './cursor';

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

/**
 * Pulls statistics (docs/api-rules.md#statistics). The first page is always the whole query,
 * exactly as a sequential pull would ask. For Return All (or a Limit the API's count shows is no
 * smaller than the result), the rest of the period is then cut at the starts of the API's own
 * periods, learned from the period_date values of that page, and the parts are fetched several at
 * a time, each by its own cursor, longest first, through a gate of `parallel` requests in flight.
 * The rows are handed on in the order of one sequential pull. Anything that would make them differ
 * (a row whose period starts before its part, one period in two parts, a total other than the
 * API's count) drops the parts and finishes the whole query's own cursor instead. Pages are reads,
 * so each is retried on transient failures without restarting the run.
 */
export async function fetchStats(
	this: RequestContext,
	query: StatsQuery,
	options: StatsFetch,
): Promise<StatsFetchResult> {
	const maxRows = options.maxRows ?? Infinity;
	const pageSize = Math.min(options.pageSize ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE, maxRows);
	const credentials = await credentialViewOf(this);
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
	const wantsAll =
		maxRows === Infinity || (typeof first.count === 'number' && first.count <= maxRows);
	const plan =
		parallel > 1 && !head.done && wantsAll ? planCuts(query, first, pageSize, parallel) : undefined;
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
	const order = startOrder(query, parts);
	let nextPart = 0;
	let failed = false;
	const worker = async () => {
		while (!abandoned && !failed && nextPart < order.length) {
			const index = order[nextPart++];
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
