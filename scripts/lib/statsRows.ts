/**
 * What the sandbox saw and holds: the trigger's polls (told apart from workflow B's requests by
 * their period unit), the ground truth of the rows the trigger should have emitted, and the
 * comparison of that truth with the rows that reached the worker.
 */
import { isDeepStrictEqual } from 'node:util';
import type { IDataObject } from 'n8n-workflow';
import { numericRow, rowKey } from '../../nodes/shared/stats/rows';
import type { LoggedRequest, Sandbox } from '../../sandbox';
import { figuresByIdentity } from './rowFigures';
import { GROUPING } from './statsWorkflows';

const STATS_PAGE_PATH = '/api/v1/stats/page';
export const FIVE_MINUTES = 5 * 60_000;

export type Row = Record<string, unknown>;

interface StatsRequest {
	seq: number;
	body: Row;
}

/**
 * First pages of statistics queries with this period unit, and this currency when given (next pages
 * send only a cursor).
 */
export function firstPages(
	requests: readonly LoggedRequest[],
	unit: string,
	currency?: string,
): StatsRequest[] {
	const pages: StatsRequest[] = [];
	for (const request of requests) {
		if (request.method !== 'POST' || request.path !== STATS_PAGE_PATH) continue;
		const body = request.body as Row | undefined;
		if (!body || body.period_grouping_unit !== unit) continue;
		if (currency !== undefined && body.currency_code !== currency) continue;
		pages.push({ seq: request.seq, body });
	}
	return pages;
}

export interface Poll {
	seq: number;
	/** The trigger's watermark when it polled: where its window starts. */
	from: number;
	/** The main process's clock when it polled: where its window ends. */
	at: number;
	body: Row;
}

/**
 * One poll per first page: the trigger asks for its whole window in one query (a window spans at
 * most 2 days, and this stage's backfill is 1 hour), following cursors for further pages.
 */
export function pollsOf(
	requests: readonly LoggedRequest[],
	unit: string,
	currency?: string,
): Poll[] {
	return firstPages(requests, unit, currency).map(({ seq, body }) => ({
		seq,
		from: Date.parse(String(body.period_from)),
		at: Date.parse(String(body.period_to)),
		body,
	}));
}

/** Requests that were not answered 200 (the sandbox injects no faults here, so there should be none). */
export function failedRequests(requests: readonly LoggedRequest[]): LoggedRequest[] {
	return requests.filter((r) => r.api !== 'control' && r.status !== 200);
}

/** The identity of a row of both workflows' queries (grouped by campaign), readable in messages. */
function keyOf(row: Row): string {
	return rowKey(row as IDataObject, GROUPING)
		.split('\u0000')
		.join(' / ');
}

/**
 * Ground truth: every row of the trigger's query for the periods from `startMs` up to (not
 * including) the watermark `wmMs`. Those periods ended before the sandbox's clock, so their rows
 * are final.
 */
export function expectedRows(sandbox: Sandbox, query: Row, startMs: number, wmMs: number): Row[] {
	const body: Row = {
		...query,
		period_from: new Date(startMs).toISOString(),
		period_to: new Date(Math.max(wmMs, startMs + FIVE_MINUTES)).toISOString(),
	};
	return sandbox.data.statsRows(body).filter((row) => Date.parse(String(row.period_date)) < wmMs);
}

interface RowComparison {
	expected: number;
	received: number;
	/** Expected rows received exactly once, identical in every field. */
	exact: number;
	/** Keys received more than once (each extra copy counts). */
	duplicates: string[];
	/** Expected keys never received. */
	missing: string[];
	/** Received keys the truth does not have. */
	unexpected: string[];
	/** Keys received with other values than the truth. */
	different: Array<{ key: string; expected: Row; received: Row }>;
}

export function compareRows(expected: Row[], received: Row[]): RowComparison {
	const truth = new Map<string, Row>();
	for (const row of expected) truth.set(keyOf(row), row);
	const seen = new Map<string, number>();
	const result: RowComparison = {
		expected: expected.length,
		received: received.length,
		exact: 0,
		duplicates: [],
		missing: [],
		unexpected: [],
		different: [],
	};
	for (const row of received) {
		const key = keyOf(row);
		const count = (seen.get(key) ?? 0) + 1;
		seen.set(key, count);
		if (count > 1) {
			result.duplicates.push(key);
			continue;
		}
		const want = truth.get(key);
		if (!want) result.unexpected.push(key);
		else if (!isDeepStrictEqual(row, want))
			result.different.push({ key, expected: want, received: row });
		else result.exact++;
	}
	for (const key of truth.keys()) if (!seen.has(key)) result.missing.push(key);
	return result;
}

export function describeComparison(c: RowComparison, limit = 5): string {
	const lines: string[] = [];
	const list = (label: string, keys: string[]) => {
		if (keys.length) lines.push(`${label} (${keys.length}): ${keys.slice(0, limit).join('; ')}`);
	};
	list('duplicates', c.duplicates);
	list('missing', c.missing);
	list('unexpected', c.unexpected);
	for (const d of c.different.slice(0, limit)) {
		const fields = Object.keys({ ...d.expected, ...d.received }).filter(
			(f) => !isDeepStrictEqual(d.expected[f], d.received[f]),
		);
		lines.push(
			`different ${d.key}: ${fields.map((f) => `${f} expected ${JSON.stringify(d.expected[f])} received ${JSON.stringify(d.received[f])}`).join(', ')}`,
		);
	}
	if (c.different.length > limit) lines.push(`… ${c.different.length - limit} more rows differ`);
	return lines.join('\n');
}

/** Rows as the API answers a statistics query now: identity → figures. */
export function apiRows(sandbox: Sandbox, body: Row): Map<string, string> {
	const rows = sandbox.data.statsRows(body) as IDataObject[];
	return figuresByIdentity(rows.map((row) => numericRow({ ...row })));
}
