import type { IDataObject, INodeParameters } from 'n8n-workflow';

/** The sandbox's frozen "now"; the period below is relative to it. */
export const SANDBOX_NOW = '2026-03-10T12:34:00.000Z';

const DAY = 86_400_000;

export interface StatsWorkload {
	baseUrl: string;
	clientApiUrl: string;
	token: string;
	/** Whole days of statistics, ending the day before SANDBOX_NOW. */
	days: number;
	/** The Stats node's Requests at Once; its default when absent. */
	parallelRequests?: number;
	/** The credential's rate limit (pacing); off when absent. */
	rateLimit?: { requests: number; windowSeconds: number };
	/** The HTTP Request node's pagination interval between requests (ms); none when absent. */
	requestIntervalMs?: number;
}

/** Grouping by ad over whole days: 1,200 seeded ads make ~850 rows a day, ~100,000 in 118 days. */
export function statsParameters(workload: StatsWorkload): INodeParameters {
	const end = Date.parse(SANDBOX_NOW.slice(0, 10)) - 1000;
	const start = Date.parse(SANDBOX_NOW.slice(0, 10)) - workload.days * DAY;
	return {
		resource: 'statistic',
		operation: 'getAll',
		period: 'custom',
		periodFrom: new Date(start).toISOString(),
		periodTo: new Date(end).toISOString(),
		periodGroupingUnit: 'day',
		grouping: ['ad'],
		currency: 'EUR',
		returnAll: true,
		filters: {},
		options:
			workload.parallelRequests === undefined
				? {}
				: { parallelRequests: workload.parallelRequests },
	};
}

/** The body of the first statistics page the Stats node sends for these parameters, byte for byte. */
export function statsBody(workload: StatsWorkload): Record<string, unknown> {
	const p = statsParameters(workload);
	return {
		period_from: p.periodFrom,
		period_to: p.periodTo,
		period_grouping_unit: p.periodGroupingUnit,
		currency_code: p.currency,
		order_by: 'period',
		grouping: p.grouping,
		limit: 500,
	};
}

export function credentialsOf(workload: StatsWorkload) {
	return {
		accessToken: workload.token,
		baseUrl: workload.baseUrl,
		clientApiUrl: workload.clientApiUrl,
		...(workload.rateLimit
			? {
					rateLimitRequests: workload.rateLimit.requests,
					rateLimitWindow: workload.rateLimit.windowSeconds,
				}
			: {}),
	};
}

/** What a subject hands back: enough to check that every subject got the same rows. */
export interface RowsDigest {
	rows: number;
	viewsSum: number;
	first: string;
	last: string;
	/** A hash of every row's period, ad, views and clicks in order: same rows, same order. */
	order: string;
}

export interface RowSource {
	length: number;
	at(index: number): IDataObject;
}

export function digest(rows: RowSource): RowsDigest {
	let viewsSum = 0;
	let hash = 0x811c9dc5;
	for (let i = 0; i < rows.length; i++) {
		const row = rows.at(i);
		viewsSum += Number(row.views);
		const text = `${String(row.period_date)}|${String(row.ad_id)}|${String(row.views)}|${String(row.clicks)};`;
		for (let c = 0; c < text.length; c++) hash = Math.imul(hash ^ text.charCodeAt(c), 0x01000193);
	}
	const key = (i: number) =>
		i >= 0 && i < rows.length
			? `${String(rows.at(i).period_date)}/${String(rows.at(i).ad_id)}`
			: '';
	return {
		rows: rows.length,
		viewsSum,
		first: key(0),
		last: key(rows.length - 1),
		order: (hash >>> 0).toString(16),
	};
}

/** The rows as JSON, in UTF-8 bytes, without building one string of them all. */
export function jsonBytes(rows: RowSource): number {
	let bytes = 2 + Math.max(0, rows.length - 1);
	for (let i = 0; i < rows.length; i++) bytes += Buffer.byteLength(JSON.stringify(rows.at(i)));
	return bytes;
}
