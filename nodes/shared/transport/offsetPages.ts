import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	INodeExecutionData,
} from 'n8n-workflow';
import { pagingStoppedEarly } from '../returnAll';

type RequestOptions = DeclarativeRestApiSettings.HttpRequestOptions;

/** How an operation's list is paged: the page size and the names of its offset and limit query parameters. */
export interface OffsetPages {
	pageSize: number;
	offsetParameter: string;
	limitParameter: string;
}

/**
 * The `count` of the last list page each item of a running node received. A list's postReceive
 * reads the whole answer, but the pager sees only the items made of it; the count is handed over
 * here, by execution, node and item.
 */
const listCounts = new Map<string, number>();

function countKey(
	ctx: IExecuteSingleFunctions | IExecutePaginationFunctions,
	itemIndex: number,
): string {
	let execution = '';
	try {
		execution = ctx.getExecutionId() ?? '';
	} catch {
		// A context without an execution (a test's stand-in) shares the empty key.
	}
	return `${execution}\u0000${ctx.getNode().name}\u0000${itemIndex}`;
}

/** Hands the `count` of a list page an item received to the pager (see listCounts). */
export function noteListCount(
	ctx: IExecuteSingleFunctions,
	itemIndex: number,
	count: number,
): void {
	// Bounded: lists read without the pager leave their count behind.
	if (listCounts.size >= 1_000) listCounts.delete(listCounts.keys().next().value as string);
	listCounts.set(countKey(ctx, itemIndex), count);
}

/** The id of a listed record, when it has one. */
function idOf(item: INodeExecutionData): string | undefined {
	const id = (item.json as IDataObject).id;
	return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/**
 * Reads offset pages through `send` until Return All or Limit is met or the list ends; a list that
 * stops before the `count` its pages announced fails rather than passing as complete.
 */
export async function pageThrough(
	ctx: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
	send: (options: RequestOptions) => Promise<INodeExecutionData[]>,
	pages: OffsetPages,
): Promise<INodeExecutionData[]> {
	const returnAll = ctx.getNodeParameter('returnAll', false) as boolean;
	const limit = returnAll ? Infinity : (ctx.getNodeParameter('limit', 50) as number);
	const results: INodeExecutionData[] = [];
	const seen = new Set<string>();
	const qs = (requestData.options.qs ?? {}) as IDataObject;
	let offset = Number(qs[pages.offsetParameter] ?? 0);
	const itemIndex = ctx.getItemIndex();
	const key = countKey(ctx, itemIndex);
	for (;;) {
		const size = Math.min(pages.pageSize, limit - results.length);
		listCounts.delete(key);
		const page = await send({
			...requestData.options,
			qs: { ...qs, [pages.offsetParameter]: offset, [pages.limitParameter]: size },
		});
		const count = listCounts.get(key);
		listCounts.delete(key);
		// A server that ignores the offset answers the same records again: a page that brings no
		// record not already listed ends the paging instead of looping for ever.
		let fresh = 0;
		for (const item of page) {
			const id = idOf(item);
			if (id !== undefined) {
				if (seen.has(id)) continue;
				seen.add(id);
			}
			fresh++;
			if (results.length < limit) results.push(item);
		}
		offset += page.length;
		if (results.length >= limit) return results;
		if (page.length < size || fresh === 0) {
			if (count !== undefined && seen.size < count && (fresh === 0 || offset < count)) {
				throw pagingStoppedEarly(ctx.getNode(), {
					path: String(requestData.options.url ?? ''),
					listed: results.length,
					count,
					itemIndex,
				});
			}
			return results;
		}
	}
}
