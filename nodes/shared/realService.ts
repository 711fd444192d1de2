import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeExecutionData,
} from 'n8n-workflow';
import { credentialViewOf, type CredentialView } from './auth';
import { MAX_PAGE_SIZE, PAGE_BOUND_SLACK } from './constants';
import { apiError } from './transport/nodeErrors';
import {
	apiRequest,
	connectionOptions,
	type ConnectionOptions,
	type RequestContext,
} from './transport/request';
import { pagingStoppedEarly, readLimit } from './returnAll';
import { invalidInput } from './validation';
import { eachItem } from './perItem';
import { pick } from './simplify';
import { PLATFORM_LABEL, platformNames, type PlatformNames } from './platform';

/**
 * Cabinets, campaigns and balances are endpoints of the real service (Telegram, Adstat) that the
 * Generic form does not have. With the credential in the Generic form they are refused before
 * anything is sent; `instead` says what to do without them (by default: type the IDs by hand).
 */
export async function realServiceCredentials(
	ctx: IExecuteFunctions | ILoadOptionsFunctions,
	itemIndex: number,
	what: string,
	instead = 'type the IDs by hand in the other operations',
): Promise<{
	credentials: CredentialView;
	paths: NonNullable<PlatformNames['accounts']>;
}> {
	const credentials = await credentialViewOf(ctx);
	const names = platformNames(credentials, ctx.getNode(), itemIndex);
	if (!names.accounts) {
		throw invalidInput(
			ctx.getNode(),
			PLATFORM_LABEL,
			`${what} exist only on the Telegram (Adstat) API; this credential's Platform is "${names.label}", whose API has no such endpoint. If your service is Telegram (Adstat), set Platform to it in the credential; otherwise ${instead}`,
			itemIndex,
		);
	}
	return { credentials, paths: names.accounts };
}

interface OffsetListRequest {
	path: string;
	qs: IDataObject;
	/** How many items to return at most (kept items, when `keep` is given). */
	limit: number;
	credentials: CredentialView;
	itemIndex?: number;
	connection?: ConnectionOptions;
	/** Where in the list to start; 0 by default. */
	offset?: number;
	/** Keeps only the items it accepts (a filter the API does not have); whole pages are then read. */
	keep?: (item: IDataObject) => boolean;
}

/**
 * A list the API pages by `offset` and `limit` and answers as `{items, count}`: read from `offset`
 * until `limit` items are kept or `count` is reached, at most 500 a request. `next` is the offset
 * of the first item not read, or undefined when the list has no more.
 */
export async function offsetPages(
	ctx: RequestContext,
	request: OffsetListRequest,
): Promise<{ items: IDataObject[]; next?: number }> {
	const out: IDataObject[] = [];
	const { itemIndex } = request;
	let offset = request.offset ?? 0;
	let count = Infinity;
	let requests = 0;
	let ended = false;
	const seen = new Set<string>();
	while (out.length < request.limit && offset < count) {
		const size = request.keep ? MAX_PAGE_SIZE : Math.min(MAX_PAGE_SIZE, request.limit - out.length);
		const body = (await apiRequest.call(ctx, {
			api: 'base',
			method: 'GET',
			path: request.path,
			qs: { ...request.qs, offset, limit: size },
			itemIndex,
			connection: request.connection,
			credentials: request.credentials,
		})) as { items?: unknown; count?: unknown } | undefined;
		requests++;
		const items = body && Array.isArray(body.items) ? (body.items as IDataObject[]) : undefined;
		if (!items) {
			throw apiError(ctx.getNode(), {
				message: `The Ad Cabinet API answered ${request.path} without an "items" list, so it is not the list asked for. It only reads data, so running it again is safe.`,
				itemIndex,
			});
		}
		if (typeof body?.count === 'number') count = body.count;
		// A server that ignores the offset answers the same records again: a page with nothing new
		// while the count says more exist is data that cannot be read this way.
		let fresh = 0;
		for (const item of items) {
			const key = JSON.stringify(item);
			if (!seen.has(key)) {
				seen.add(key);
				fresh++;
			}
		}
		if (fresh === 0 && items.length > 0 && Number.isFinite(count) && offset < count) {
			throw pagingStoppedEarly(ctx.getNode(), {
				path: request.path,
				listed: out.length,
				count,
				itemIndex,
			});
		}
		for (const item of items) {
			if (out.length >= request.limit) break;
			offset++;
			if (!request.keep || request.keep(item)) out.push(item);
		}
		if (items.length === 0) {
			if (Number.isFinite(count) && offset < count && out.length < request.limit) {
				throw pagingStoppedEarly(ctx.getNode(), {
					path: request.path,
					listed: out.length,
					count,
					itemIndex,
				});
			}
			ended = true;
			break;
		}
		if (Number.isFinite(count) && requests > Math.ceil(count / MAX_PAGE_SIZE) + PAGE_BOUND_SLACK) {
			throw apiError(ctx.getNode(), {
				message: `The Ad Cabinet API kept answering ${request.path} with more pages than its count of ${count} needs, so paging stopped. It only reads data, so running it again is safe.`,
				itemIndex,
			});
		}
	}
	return { items: out, next: ended || offset >= count ? undefined : offset };
}

/** The whole list (or its first `limit` items) for one item of a custom operation, with its Request Options. */
async function offsetList(
	ctx: IExecuteFunctions,
	itemIndex: number,
	request: Omit<OffsetListRequest, 'itemIndex' | 'connection'>,
): Promise<IDataObject[]> {
	const connection = connectionOptions(ctx, itemIndex);
	return (await offsetPages(ctx, { ...request, itemIndex, connection })).items;
}

interface RealServiceList {
	/** What the list holds, as the refusal for the Generic form names it ("Cabinets"). */
	what: string;
	path: (paths: NonNullable<PlatformNames['accounts']>) => string;
	/** The query of one item's filters (offset and limit are added by the paging). */
	query: (ctx: IExecuteFunctions, itemIndex: number) => IDataObject;
	/** What Simplify keeps of each record. */
	simpleFields: readonly string[];
}

/**
 * The execute function of a real-service list (cabinets, campaigns): for each item, Return All or
 * Limit, the query of its filters, pages by offset until the answer's count, Simplify.
 */
export function realServiceListOperation(list: RealServiceList) {
	return async function (this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			await eachItem(this, async (_item, i) => {
				const { credentials, paths } = await realServiceCredentials(this, i, list.what);
				const limit = readLimit(this.getNode(), i, (name) =>
					this.getNodeParameter(name, i, name === 'limit' ? 50 : false),
				);
				const qs = list.query(this, i);
				const records = await offsetList(this, i, {
					path: list.path(paths),
					qs,
					limit,
					credentials,
				});
				const simplify = this.getNodeParameter('simplify', i, true) as boolean;
				return records.map((record) => ({
					json: simplify ? pick(record, list.simpleFields) : record,
				}));
			}),
		];
	};
}
