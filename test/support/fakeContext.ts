import {
	NodeApiError,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type INode,
	type JsonObject,
} from 'n8n-workflow';

/**
 * Small stand-ins for n8n's function contexts, for unit tests of code that sends requests. The
 * request helper answers as n8n's `httpRequestWithAuthentication` does: a full response object, or
 * a thrown axios-like error (`response: { status, data, headers }`) or network error (`code`).
 */

export const TOKEN = 'unit-secret-token-7f3a91c2';

export const NODE: INode = {
	id: 'node-1',
	name: 'Ad Cabinet',
	type: 'n8n-nodes-ad-cabinet.adCabinetStats',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

export function credentials(overrides: IDataObject = {}): ICredentialDataDecryptedObject {
	return {
		baseUrl: 'https://api.example.test/',
		clientApiUrl: 'https://client.example.test',
		accessToken: TOKEN,
		...overrides,
	};
}

/** What the helper throws for an HTTP answer outside 2xx. */
export function httpError(
	status: number,
	data: unknown = {},
	headers: Record<string, string> = {},
): Error & { response: { status: number; data: unknown; headers: Record<string, string> } } {
	return Object.assign(new Error(`Request failed with status code ${status}`), {
		response: { status, data, headers },
	});
}

/** What the helper throws when no answer came. */
export function networkError(
	code: string,
	message = `${code} on the way`,
): Error & { code: string } {
	return Object.assign(new Error(message), { code });
}

/** What n8n's helper really throws: the transport error wrapped in a NodeApiError. */
export function wrappedByN8n(error: Error): NodeApiError {
	return new NodeApiError(NODE, error as unknown as JsonObject);
}

/** The full response our own requests ask for (`returnFullResponse`, text body). */
export function fullResponse(
	body: unknown,
	statusCode = 200,
): { body: string; statusCode: number; headers: IDataObject } {
	return { body: typeof body === 'string' ? body : JSON.stringify(body), statusCode, headers: {} };
}

export type Answer = (options: IHttpRequestOptions, call: number) => unknown;

interface Fake {
	ctx: IExecuteFunctions;
	/** The helper; its calls are the requests made. */
	request: jest.Mock;
	getCredentials: jest.Mock;
	/** The options of each request, in order. */
	sent: () => IHttpRequestOptions[];
}

/**
 * An IExecuteFunctions-like context whose request helper runs `answer` for each request: what it
 * returns is the answer, what it throws is thrown as n8n's helper would.
 */
export function fakeContext(
	answer: Answer,
	options: { credentials?: ICredentialDataDecryptedObject; parameters?: IDataObject } = {},
): Fake {
	let calls = 0;
	const request = jest.fn(async function (
		this: unknown,
		_type: string,
		requestOptions: IHttpRequestOptions,
	) {
		calls++;
		return await answer(requestOptions, calls);
	});
	const getCredentials = jest.fn(async () => options.credentials ?? credentials());
	const parameters = options.parameters ?? {};
	const ctx = {
		getNode: () => NODE,
		getCredentials,
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) =>
			name in parameters ? parameters[name] : fallback,
		continueOnFail: () => false,
		helpers: { httpRequestWithAuthentication: request },
	} as unknown as IExecuteFunctions;
	return {
		ctx,
		request,
		getCredentials,
		sent: () => request.mock.calls.map((call) => call[1] as IHttpRequestOptions),
	};
}

/** A promise with its resolve and reject at hand, to hold a request open. */
export function deferred<T = unknown>(): {
	promise: Promise<T>;
	resolve: (value: T) => void;
	reject: (error: unknown) => void;
} {
	let resolve!: (value: T) => void;
	let reject!: (error: unknown) => void;
	const promise = new Promise<T>((res, rej) => {
		resolve = res;
		reject = rej;
	});
	return { promise, resolve, reject };
}

/** Lets every queued promise callback run. */
export async function settle(): Promise<void> {
	for (let i = 0; i < 10; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
