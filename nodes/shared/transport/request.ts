import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
} from 'n8n-workflow';
import {
	credentialViewOf,
	renewsItself,
	renewalOwner,
	secretsOf,
	type CredentialView,
} from '../auth';
import type { ApiBase } from '../constants';
import { platformNames, type PlatformNames } from '../platform';
import { invalidInput } from '../validation';
import { baseUrlFrom } from './baseUrl';
import { InvalidJsonResponse, type Failure } from './apiFailure';
import type { RequestGate } from './gate';
import { pacingFor } from './pacing';
import { DEFAULT_TIMEOUT_MS, send, type RequestContext } from './send';

export type { RequestContext };

interface ApiRequest {
	api: ApiBase;
	method: IHttpRequestMethods;
	/** The path, or for a path that names the platform, how to read it from the credential's naming map. */
	path: string | ((names: PlatformNames) => string);
	qs?: IDataObject;
	body?: IDataObject | FormData;
	/** Reads may be retried; defaults to true for GET only. Stats POSTs pass true: they only read. */
	idempotent?: boolean;
	itemIndex?: number;
	/** Per-operation advice for a failed status, e.g. which ID was not found. */
	hint?: (failure: Failure) => string | undefined;
	/** The credential read once for the pages of one run, instead of decrypting it per request. */
	credentials?: CredentialView;
	/** Expect no JSON (e.g. 204); the body is returned as received. */
	expectJson?: boolean;
	/** The node's Request Options (timeout, proxy, SSL), as declarative operations get them. */
	connection?: ConnectionOptions;
	/** Bounds the requests in flight that share it; a 429 answer slows them all down. */
	gate?: RequestGate;
	/** When the whole run must end (from runDeadline()); nothing is sent past it. */
	runEndsAt?: number;
	/** Told how long the API's rate limit made this request wait before it started. */
	onPaced?: (ms: number) => void;
}

export interface ConnectionOptions {
	timeout?: number;
	proxy?: IHttpRequestOptions['proxy'];
	skipSslCertificateValidation?: boolean;
}

export { DEFAULT_TIMEOUT_MS };

/**
 * n8n adds a "Request Options" collection (batching, timeout, proxy, SSL) to every declarative node;
 * custom operations read it here so those settings apply to all of a node's operations alike.
 */
export function connectionOptions(ctx: IExecuteFunctions, itemIndex: number): ConnectionOptions {
	const raw = ctx.getNodeParameter('requestOptions', itemIndex, {}) as IDataObject;
	const options: ConnectionOptions = {};
	if (typeof raw.timeout === 'number' && raw.timeout > 0) options.timeout = raw.timeout;
	if (raw.allowUnauthorizedCerts === true) options.skipSslCertificateValidation = true;
	if (typeof raw.proxy === 'string' && raw.proxy.trim() !== '') {
		let proxy: URL;
		try {
			proxy = new URL(raw.proxy.includes('://') ? raw.proxy : `http://${raw.proxy}`);
		} catch {
			throw invalidInput(
				ctx.getNode(),
				'Proxy (Request Options)',
				'must be an address such as http://proxy.example.com:8080 or proxy.example.com:8080',
				itemIndex,
				raw.proxy,
			);
		}
		options.proxy = {
			host: proxy.hostname,
			port: Number(proxy.port) || (proxy.protocol === 'https:' ? 443 : 80),
			protocol: proxy.protocol.replace(/:$/, ''),
			...(proxy.username
				? {
						auth: {
							username: decodeURIComponent(proxy.username),
							password: decodeURIComponent(proxy.password),
						},
					}
				: {}),
		};
	}
	return options;
}

const UNPARSEABLE = Symbol('unparseable');

function tryParse(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return UNPARSEABLE;
	}
}

function parseJson(body: unknown, status: number): unknown {
	if (typeof body !== 'string') return body;
	if (body.trim() === '') return undefined;
	const parsed = tryParse(body);
	if (parsed === UNPARSEABLE) throw new InvalidJsonResponse(status);
	return parsed;
}

/**
 * One request built here (a custom operation, a statistics page, a dropdown): the URL from the
 * credential, the node's Request Options, and a JSON answer parsed by us so that a body cut short
 * is caught and retried. It leaves through `send`.
 */
export async function apiRequest<T = unknown>(
	this: RequestContext,
	request: ApiRequest,
): Promise<T> {
	const credentials = request.credentials ?? (await credentialViewOf(this));
	const idempotent = request.idempotent ?? request.method === 'GET';
	const isForm = typeof FormData !== 'undefined' && request.body instanceof FormData;
	const path =
		typeof request.path === 'function'
			? request.path(platformNames(credentials, this.getNode(), request.itemIndex))
			: request.path;
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrlFrom(this.getNode(), credentials, request.api, request.itemIndex)}${path}`,
		qs: request.qs,
		body: request.body,
		arrayFormat: 'repeat',
		returnFullResponse: true,
		// Parse ourselves so a cut-short body is caught and retried rather than returned as text.
		json: false,
		encoding: 'text',
		headers: isForm ? {} : { Accept: 'application/json', 'Content-Type': 'application/json' },
	};
	if (request.body !== undefined && !isForm) options.body = JSON.stringify(request.body);
	options.timeout = request.connection?.timeout ?? DEFAULT_TIMEOUT_MS;
	if (request.connection?.proxy) options.proxy = request.connection.proxy;
	if (request.connection?.skipSslCertificateValidation) options.skipSslCertificateValidation = true;
	return await send(
		this,
		{ http: options },
		{
			idempotent,
			itemIndex: request.itemIndex,
			hint: request.hint,
			secrets: secretsOf(credentials),
			gate: request.gate,
			timeoutMs: options.timeout,
			runEndsAt: request.runEndsAt,
			pace: pacingFor(this.getNode(), credentials, options.url, request.onPaced),
			renews: renewsItself(credentials),
			owner: renewalOwner(credentials),
			accept: (answer) => {
				const response = answer as { body: unknown; statusCode: number };
				return (
					request.expectJson === false
						? response.body
						: parseJson(response.body, response.statusCode)
				) as T;
			},
		},
	);
}
