import type { Sandbox } from '../../sandbox';

/** The instant the sandbox tests freeze the clock at. */
export const TEST_NOW = '2026-03-10T12:34:00Z';

// `any` by default: tests read response bodies of many shapes and assert them field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface ApiResponse<T = any> {
	status: number;
	headers: Headers;
	text: string;
	/** Parsed JSON, or undefined when the body is empty or not JSON. */
	body: T;
}

/** Starts one sandbox per test file; the getter throws if used before beforeAll ran. */
async function toResponse(response: Response): Promise<ApiResponse> {
	const text = await response.text();
	let body: unknown;
	try {
		body = text === '' ? undefined : JSON.parse(text);
	} catch {
		body = undefined;
	}
	// `any` keeps test assertions on response bodies short; the shape is what the tests assert.
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	return { status: response.status, headers: response.headers, text, body: body as any };
}

interface RequestOptions {
	query?: Record<string, string | number | (string | number)[]>;
	json?: unknown;
	form?: FormData;
	/** Defaults to the sandbox token; null sends no Authorization header. */
	token?: string | null;
	headers?: Record<string, string>;
	rawBody?: string;
}

/** A small HTTP client for one of the sandbox's two addresses. */
export function apiClient(sandbox: () => Sandbox, api: 'base' | 'client') {
	const request = async (method: string, path: string, options: RequestOptions = {}) => {
		const sb = sandbox();
		const url = new URL(`${api === 'base' ? sb.baseUrl : sb.clientApiUrl}${path}`);
		for (const [key, value] of Object.entries(options.query ?? {})) {
			for (const v of Array.isArray(value) ? value : [value])
				url.searchParams.append(key, String(v));
		}
		const headers: Record<string, string> = { ...options.headers };
		const token = options.token === undefined ? sb.token : options.token;
		if (token !== null) headers.authorization = `Bearer ${token}`;
		let body: string | FormData | undefined = options.rawBody;
		if (options.json !== undefined) {
			headers['content-type'] = 'application/json';
			body = JSON.stringify(options.json);
		} else if (options.form) {
			body = options.form;
		}
		return toResponse(await fetch(url, { method, headers, body }));
	};
	return {
		request,
		get: (path: string, options?: RequestOptions) => request('GET', path, options),
		post: (path: string, options?: RequestOptions) => request('POST', path, options),
		put: (path: string, options?: RequestOptions) => request('PUT', path, options),
		patch: (path: string, options?: RequestOptions) => request('PATCH', path, options),
		delete: (path: string, options?: RequestOptions) => request('DELETE', path, options),
	};
}

/** Fetches with an exact URL string (no normalization of the path). */
export async function rawFetch(url: string, init: RequestInit = {}): Promise<ApiResponse> {
	return toResponse(await fetch(url, init));
}
