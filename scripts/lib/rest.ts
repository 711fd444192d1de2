/** The slice of n8n's internal REST API the checks and `npm run dev` use, as the editor calls it. */

export const OWNER = {
	email: 'owner@ad-cabinet.test',
	firstName: 'Ad Cabinet',
	lastName: 'Developer',
	password: 'AdCabinet-dev-1',
};

export class RestError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}

/**
 * Whether a fetch failed because the server closed the connection before its answer: a kept-alive
 * socket the server had just closed, or a file served while it was being rewritten. A GET may be
 * sent again after it; nothing else may.
 */
function connectionClosed(error: unknown): boolean {
	const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
	return error instanceof TypeError && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET');
}

/** A GET, sent again (up to 3 times) when the connection closes before the answer. */
export async function getAgainIfClosed(url: string, timeoutMs = 15_000): Promise<Response> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
		} catch (error) {
			if (!connectionClosed(error) || attempt >= 3) throw error;
		}
	}
}

export class N8nRest {
	private cookie = '';

	constructor(readonly baseUrl: string) {}

	async request<T>(method: string, path: string, body?: unknown, timeoutMs = 30_000): Promise<T> {
		const send = async () =>
			await fetch(`${this.baseUrl}${path}`, {
				method,
				headers: {
					...(body === undefined ? {} : { 'content-type': 'application/json' }),
					...(this.cookie ? { cookie: this.cookie } : {}),
					// n8n rejects state-changing REST calls without a browser-like origin.
					origin: this.baseUrl,
					'browser-id': 'ad-cabinet-e2e',
				},
				body: body === undefined ? undefined : JSON.stringify(body),
				signal: AbortSignal.timeout(timeoutMs),
			});
		let response: Response;
		try {
			response = await send();
		} catch (error) {
			// A kept-alive socket n8n closed while this process was busy (a synchronous npm command
			// blocks its event loop): a GET is sent again on a new connection; a write never is.
			if (method !== 'GET' || !connectionClosed(error)) throw error;
			response = await send();
		}
		const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
		if (setCookie) this.cookie = setCookie.split(';')[0];
		const text = await response.text();
		if (!response.ok) {
			throw new RestError(
				response.status,
				`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`,
			);
		}
		const parsed = text ? (JSON.parse(text) as unknown) : undefined;
		// REST controllers wrap their answer in { data }; the static type files do not.
		return (
			path.startsWith('/rest/') && parsed && typeof parsed === 'object' && 'data' in parsed
				? (parsed as { data: unknown }).data
				: parsed
		) as T;
	}

	/** Creates the instance owner on a fresh instance, or logs in when one exists. */
	async signIn(): Promise<void> {
		try {
			await this.request('POST', '/rest/owner/setup', OWNER);
		} catch (error) {
			if (!(error instanceof RestError) || error.status !== 400) throw error;
			await this.request('POST', '/rest/login', {
				emailOrLdapLoginId: OWNER.email,
				password: OWNER.password,
			});
		}
	}

	/**
	 * One of the type files n8n serves its editor (/types/nodes.json, /types/credentials.json).
	 * n8n rewrites them after a package is installed or updated; a read in the middle gets the file
	 * empty or cut short, or the connection closed, so an unreadable one is read again, up to 10
	 * times a second apart.
	 */
	async typeFile<T>(path: string): Promise<T> {
		for (let attempt = 1; ; attempt++) {
			try {
				const file = await this.request<T | undefined>('GET', path);
				if (file === undefined) throw new SyntaxError(`${path} was empty`);
				return file;
			} catch (error) {
				const again = error instanceof SyntaxError || connectionClosed(error);
				if (!again || attempt >= 10) throw error;
				await new Promise((resolve) => setTimeout(resolve, 1_000));
			}
		}
	}

	/** A GET that returns the raw response, for files and icons. */
	async fetchRaw(path: string): Promise<Response> {
		return await fetch(`${this.baseUrl}${path}`, {
			headers: this.cookie ? { cookie: this.cookie } : {},
			signal: AbortSignal.timeout(15_000),
		});
	}
}
