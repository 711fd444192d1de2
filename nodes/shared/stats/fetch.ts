import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { CREDENTIAL_TYPE, MAX_PAGE_SIZE, PATHS } from '../constants';
import { apiRequest, type ConnectionOptions, type RequestContext } from '../transport/request';
import type { StatsQuery } from './query';

/** spec 2.1: one page of POST /api/v1/stats/page. */
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
	itemIndex?: number;
	connection?: ConnectionOptions;
	/** Receives each page's rows as they arrive, so a long run never holds pages twice. */
	onRows: (rows: IDataObject[], page: StatsPage) => void;
}

export interface StatsFetchResult {
	columns?: IDataObject[];
	count?: number;
	rowsReceived: number;
	pages: number;
}

/**
 * Pulls statistics by cursor (spec 4.1 rules 3-4): the first request carries the query, each next
 * one only `cursor`, until the API answers a null cursor or `maxRows` rows have arrived. Pages are
 * reads, so each is retried on transient failures without restarting the run.
 */
export async function fetchStats(
	this: RequestContext,
	query: StatsQuery,
	options: StatsFetch,
): Promise<StatsFetchResult> {
	const maxRows = options.maxRows ?? Infinity;
	const pageSize = Math.min(options.pageSize ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE, maxRows);
	const credentials = await this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE);
	let body: IDataObject = { ...query, limit: pageSize };
	const seen = new Set<string>();
	const result: StatsFetchResult = { rowsReceived: 0, pages: 0 };
	for (;;) {
		const page = (await apiRequest.call(this, {
			api: 'base',
			method: 'POST',
			path: PATHS.statsPage,
			body,
			idempotent: true,
			credentials,
			itemIndex: options.itemIndex,
			connection: options.connection,
		})) as StatsPage | undefined;
		if (!page || !Array.isArray(page.rows)) {
			throw new NodeApiError(this.getNode(), { page: result.pages + 1 }, {
				message:
					'The statistics answer has no "rows" array, so it is not a statistics page. It only reads data, so running it again is safe.',
				description: 'The API answered POST /api/v1/stats/page with an unexpected shape.',
				itemIndex: options.itemIndex,
			});
		}
		result.pages++;
		if (result.pages === 1) {
			result.columns = page.columns;
			result.count = page.count;
		}
		let rows = page.rows;
		const room = maxRows - result.rowsReceived;
		if (rows.length > room) rows = rows.slice(0, room);
		result.rowsReceived += rows.length;
		options.onRows(rows, page);
		const cursor = page.cursor;
		if (cursor === null || cursor === undefined || cursor === '' || result.rowsReceived >= maxRows) {
			return result;
		}
		if (seen.has(cursor)) {
			throw new NodeApiError(this.getNode(), { page: result.pages }, {
				message:
					'The statistics API returned the same cursor twice, so paging stopped to avoid an endless loop. Try again or narrow the period; it only reads data, so that is safe.',
				itemIndex: options.itemIndex,
			});
		}
		seen.add(cursor);
		// spec 4.1 rule 4: the next-page request shown carries only the cursor.
		body = { cursor };
	}
}
