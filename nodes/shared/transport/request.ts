import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';
import { CREDENTIAL_TYPE, type ApiBase } from '../constants';
import { baseUrlFrom } from './baseUrl';
import { toNodeApiError } from './errors';
import { InvalidJsonResponse, type Failure } from './failure';
import { withRetry } from './retry';

export type RequestContext =
	| IExecuteFunctions
	| IExecuteSingleFunctions
	| ILoadOptionsFunctions
	| IPollFunctions;

export interface ApiRequest {
	api: ApiBase;
	method: IHttpRequestMethods;
	path: string;
	qs?: IDataObject;
	body?: IDataObject | FormData;
	/** Reads may be retried; defaults to true for GET only. Stats POSTs pass true: they only read. */
	idempotent?: boolean;
	itemIndex?: number;
	/** Per-operation advice for a failed status, e.g. which ID was not found. */
	hint?: (failure: Failure) => string | undefined;
	/** Reuse credentials across the pages of one run instead of decrypting them per request. */
	credentials?: ICredentialDataDecryptedObject;
	/** Expect no JSON (e.g. 204); the body is returned as received. */
	expectJson?: boolean;
	timeout?: number;
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
 * One request to the API through n8n's authenticated HTTP helper (keeping n8n's proxy, SSL and
 * credential handling), with retries for reads and API failures mapped to NodeApiError.
 */
export async function apiRequest<T = unknown>(this: RequestContext, request: ApiRequest): Promise<T> {
	const credentials: ICredentialDataDecryptedObject =
		request.credentials ?? (await this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE));
	const idempotent = request.idempotent ?? request.method === 'GET';
	const isForm = typeof FormData !== 'undefined' && request.body instanceof FormData;
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrlFrom(credentials, request.api)}${request.path}`,
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
	if (request.timeout) options.timeout = request.timeout;
	return await withRetry(
		async () => {
			const response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				options,
			)) as { body: unknown; statusCode: number };
			return (request.expectJson === false
				? response.body
				: parseJson(response.body, response.statusCode)) as T;
		},
		idempotent,
		(failure, attempts) =>
			toNodeApiError(this.getNode(), failure, {
				itemIndex: request.itemIndex,
				idempotent,
				attempts,
				hint: request.hint?.(failure),
				secrets: [String(credentials.accessToken ?? '')],
			}),
	);
}
