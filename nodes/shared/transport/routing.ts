import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodePropertyRouting,
} from 'n8n-workflow';
import {
	credentialViewOf,
	renewsItself,
	renewalOwner,
	secretsOf,
	type CredentialView,
} from '../auth';
import { itemOutcome, writeEnded } from '../endOfWrites';
import { guardItem } from '../perItem';
import { platformNames, type PlatformNames } from '../platform';
import { checkResolvedBaseUrl } from './baseUrl';
import { InvalidJsonResponse, type Failure } from './apiFailure';
import { noteListCount, pageThrough, type OffsetPages } from './offsetPages';
import { pacingFor } from './pacing';
import { runDeadline, send } from './send';
import type { WriteGuard } from '../writes';
import { writeTurn, type WriteTurn } from '../writeTurn';

type RequestOptions = DeclarativeRestApiSettings.HttpRequestOptions;

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
	offsetPages?: OffsetPages;
	hint?: (
		this: IExecuteSingleFunctions,
		failure: Failure,
		names: PlatformNames,
	) => string | undefined;
	/** The item to output when the API answered a write with an empty body (postReceive gave no item): built from the body that was sent. */
	onEmptyAnswer?: (this: IExecuteSingleFunctions, sent: IDataObject) => IDataObject;
	/**
	 * Runs after `prepare`, with the request exactly as it would be sent: may refuse it, output an item
	 * instead of sending (a dry run, a write that would change nothing), or ask to hear how it ended.
	 */
	guardWrite?: (
		this: IExecuteSingleFunctions,
		options: RequestOptions,
		names: PlatformNames,
	) => Promise<WriteGuard | undefined>;
	/**
	 * A read that an answer of a moment ago may serve (runs after `prepare`): an `answer` is output
	 * and nothing is sent; otherwise `keep` is handed the items the read output.
	 */
	recent?: (
		this: IExecuteSingleFunctions,
		options: RequestOptions,
		names: PlatformNames,
		credentials: CredentialView,
	) => { answer?: IDataObject; keep: (items: INodeExecutionData[]) => void };
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

/**
 * Routing for one declarative operation. RoutingNode hands a custom pagination function the only
 * handle on the requests it sends, and calls it only when `send.paginate` is set; that flag is how
 * n8n opts an operation into the hook, so writes carry it too and page nothing (only `offsetPages`
 * pages). Every operation goes through this one: validation before any
 * request, writes one at a time in item order, retries for reads, API errors mapped to NodeApiError, offset paging where asked, pairedItem
 * on every output item, and Continue On Fail with the failing item's pairing kept.
 */
export function routed(operation: RoutedOperation = {}): INodePropertyRouting {
	async function run(
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const itemIndex = this.getItemIndex();
		const idempotent = operation.idempotent ?? (requestData.options.method ?? 'GET') === 'GET';
		const work = async (turn?: WriteTurn): Promise<INodeExecutionData[]> => {
			const credentials = await credentialViewOf(this);
			const names = platformNames(credentials, this.getNode(), itemIndex);
			await operation.prepare?.call(this, requestData.options, names);
			checkResolvedBaseUrl(this.getNode(), credentials, requestData.options.baseURL, itemIndex);
			const guard = await operation.guardWrite?.call(this, requestData.options, names);
			// The guard may have run while the write of the item before was under way: this item's
			// write, or its output without one, waits for it. Not sent: the guard hears of it.
			await turn?.wait().catch((error: unknown) => {
				if (guard && 'settle' in guard)
					void Promise.resolve(guard.settle?.(undefined)).catch(() => undefined);
				throw error;
			});
			if (guard && 'output' in guard) return [{ json: guard.output }];
			const recent = operation.recent?.call(this, requestData.options, names, credentials);
			if (recent?.answer) return [{ json: recent.answer }];
			const settle = guard?.settle;
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
						timeoutMs:
							typeof options.timeout === 'number' && options.timeout > 0
								? options.timeout
								: undefined,
						runEndsAt,
						pace: pacingFor(this.getNode(), credentials, String(options.url ?? '')),
						renews: renewsItself(credentials),
						owner: renewalOwner(credentials),
						accept: (answer) => {
							const items = answer as INodeExecutionData[];
							if (!itemsAreObjects(items)) throw new InvalidJsonResponse(200);
							return items;
						},
					},
				);
			let items: INodeExecutionData[] | undefined;
			try {
				items = operation.offsetPages
					? await pageThrough(this, requestData, sendPage, operation.offsetPages)
					: await sendPage(requestData.options);
			} finally {
				// A write that failed is heard of too, so nothing waits on it for good.
				if (items === undefined) void Promise.resolve(settle?.(undefined)).catch(() => undefined);
			}
			if (!items.length && operation.onEmptyAnswer) {
				const sent = (requestData.options.body ?? {}) as IDataObject;
				items = [{ json: operation.onEmptyAnswer.call(this, sent) }];
			}
			await settle?.(items);
			recent?.keep(items);
			return items;
		};
		// Taken before the first await: that is when the items arrive here in their order.
		const turn = operation.guardWrite ? writeTurn(this) : undefined;
		return await guardItem(this, itemIndex, async () => {
			if (!turn) return await work();
			let ok = false;
			let items: INodeExecutionData[];
			try {
				await turn.guardWait();
				items = await work(turn);
				ok = true;
			} finally {
				await turn.done(ok);
				await writeEnded(this, turn.isLast());
			}
			// Outside the turn: what the item waits for runs after the execution's last write.
			await itemOutcome(this);
			return items;
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
			noteListCount(this, this.getItemIndex(), count);
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
