import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodePropertyRouting,
} from 'n8n-workflow';
import { CREDENTIAL_TYPE } from '../constants';
import { guardItem } from '../perItem';
import { pagingStoppedEarly } from '../returnAll';
import { platformNames, type PlatformNames } from '../platform';
import { checkResolvedBaseUrl } from './baseUrl';
import { secretsOf } from './errors';
import { InvalidJsonResponse, type Failure } from './failure';
import { pacingFor } from './pacing';
import { authMethodOf } from './session';
import { runDeadline, send } from './send';

type RequestOptions = DeclarativeRestApiSettings.HttpRequestOptions;

/**
 * The `count` of the last list page each item of a running node received. A list's postReceive
 * reads the whole answer, but the pager sees only the items made of it; the count is handed over
 * here, by execution, node and item.
 */
const listCounts = new Map<string, number>();

function countKey(ctx: IExecuteSingleFunctions | IExecutePaginationFunctions, itemIndex: number): string {
	let execution = '';
	try {
		execution = ctx.getExecutionId() ?? '';
	} catch {
		// A context without an execution (a test's stand-in) shares the empty key.
	}
	return `${execution}\u0000${ctx.getNode().name}\u0000${itemIndex}`;
}

export interface RoutedOperation {
	/** Defaults to true for GET. */
	idempotent?: boolean;
	/**
	 * Checks (and may complete) the request routing built from the parameters; throws
	 * NodeOperationError before anything is sent. `names` is the naming map of the credential's
	 * platform: a path or field that names the platform is written from it here.
	 */
	prepare?: (
		this: IExecuteSingleFunctions,
		options: RequestOptions,
		names: PlatformNames,
	) => void | Promise<void>;
	/** Offset pages (`offset` and `limit` query parameters): honours the operation's Return All / Limit parameters. */
	offsetPages?: { pageSize: number; offsetParameter: string; limitParameter: string };
	hint?: (this: IExecuteSingleFunctions, failure: Failure, names: PlatformNames) => string | undefined;
	/** The item to output when the API answered a write with an empty body (postReceive gave no item): built from the body that was sent. */
	onEmptyAnswer?: (this: IExecuteSingleFunctions, sent: IDataObject) => IDataObject;
}

/** Fails the attempt (so it is retried) when a 2xx body was not JSON, e.g. cut short in transit. */
export function requireJsonBody(response: IN8nHttpFullResponse): void {
	if (typeof response.body === 'string' && response.body.trim() !== '') {
		throw new InvalidJsonResponse(response.statusCode);
	}
}

function itemsAreObjects(items: INodeExecutionData[]): boolean {
	return items.every((item) => item.json !== null && typeof item.json === 'object');
}

/** The id of a listed record, when it has one. */
function idOf(item: INodeExecutionData): string | undefined {
	const id = (item.json as IDataObject).id;
	return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

async function pageThrough(
	ctx: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
	send: (options: RequestOptions) => Promise<INodeExecutionData[]>,
	pages: NonNullable<RoutedOperation['offsetPages']>,
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

/**
 * Routing for one declarative operation. RoutingNode hands a custom pagination function the only
 * handle on the requests it sends, and calls it only when `send.paginate` is set; that flag is how
 * n8n opts an operation into the hook, so writes carry it too and page nothing (only `offsetPages`
 * pages). Every operation goes through this one: validation before any
 * request, retries for reads, API errors mapped to NodeApiError, offset paging where asked, pairedItem
 * on every output item, and Continue On Fail with the failing item's pairing kept.
 */
export function routed(operation: RoutedOperation = {}): INodePropertyRouting {
	async function run(
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const itemIndex = this.getItemIndex();
		const idempotent = operation.idempotent ?? (requestData.options.method ?? 'GET') === 'GET';
		return await guardItem(this, itemIndex, async () => {
			const credentials = await this.getCredentials(CREDENTIAL_TYPE);
			const names = platformNames(credentials, this.getNode(), itemIndex);
			await operation.prepare?.call(this, requestData.options, names);
			checkResolvedBaseUrl(this.getNode(), credentials, requestData.options.baseURL, itemIndex);
			const runEndsAt = runDeadline();
			const sendPage = async (options: RequestOptions) =>
				await send(
					this,
					{ routing: { ...requestData, options }, ctx: this },
					{
						idempotent,
						itemIndex,
						hint: (failure) => operation.hint?.call(this, failure, names),
						secrets: secretsOf(credentials),
						timeoutMs: typeof options.timeout === 'number' && options.timeout > 0 ? options.timeout : undefined,
						runEndsAt,
						pace: pacingFor(this.getNode(), credentials, String(options.url ?? '')),
						renews: authMethodOf(credentials) !== 'accessToken',
						accept: (answer) => {
							const items = answer as INodeExecutionData[];
							if (!itemsAreObjects(items)) throw new InvalidJsonResponse(200);
							return items;
						},
					},
				);
			const items = operation.offsetPages
				? await pageThrough(this, requestData, sendPage, operation.offsetPages)
				: await sendPage(requestData.options);
			if (items.length || !operation.onEmptyAnswer) return items;
			const sent = (requestData.options.body ?? {}) as IDataObject;
			return [{ json: operation.onEmptyAnswer.call(this, sent) }];
		});
	}
	return { send: { paginate: true }, operations: { pagination: run } };
}

/**
 * postReceive step that turns a list answer into one item per record: the body itself when it is an
 * array, else the array under one of `keys` (`data`, `items`, `results`: the API's lists use each of them). Scalars become
 * `{ [scalarKey]: value }`. A body cut short in transit is failed so the read is retried.
 */
export function listToItems(keys: string[] = [], scalarKey = 'value') {
	return async function (
		this: IExecuteSingleFunctions,
		_items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		requireJsonBody(response);
		const body = response.body as unknown;
		let list: unknown = body;
		if (!Array.isArray(list) && body !== null && typeof body === 'object') {
			const key = keys.find((k) => Array.isArray((body as IDataObject)[k]));
			list = key === undefined ? undefined : (body as IDataObject)[key];
		}
		if (!Array.isArray(list)) {
			throw new InvalidJsonResponse(response.statusCode);
		}
		const count = (body as IDataObject | null)?.count;
		if (typeof count === 'number' && Number.isFinite(count) && !Array.isArray(body)) {
			// Bounded: lists read without the pager leave their count behind.
			if (listCounts.size >= 1_000) listCounts.delete(listCounts.keys().next().value as string);
			listCounts.set(countKey(this, this.getItemIndex()), count);
		}
		return list.map((entry: unknown) => ({
			json:
				entry !== null && typeof entry === 'object' && !Array.isArray(entry)
					? (entry as IDataObject)
					: { [scalarKey]: entry as IDataObject[string] },
		}));
	};
}

/** postReceive step for a single-record answer; an empty answer (e.g. 204) becomes `fallback`. */
export function recordToItem(fallback?: (this: IExecuteSingleFunctions) => IDataObject) {
	return async function (
		this: IExecuteSingleFunctions,
		_items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		const body = response.body as unknown;
		if (body === undefined || body === null || body === '') {
			return [{ json: fallback ? fallback.call(this) : {} }];
		}
		requireJsonBody(response);
		if (typeof body !== 'object' || Array.isArray(body))
			throw new InvalidJsonResponse(response.statusCode);
		return [{ json: body as IDataObject }];
	};
}
