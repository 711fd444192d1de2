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

export class N8nRest {
	private cookie = '';

	constructor(readonly baseUrl: string) {}

	async request<T>(method: string, path: string, body?: unknown, timeoutMs = 30_000): Promise<T> {
		const response = await fetch(`${this.baseUrl}${path}`, {
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
	 * cut short, so an unreadable one is read again, up to 10 times a second apart.
	 */
	async typeFile<T>(path: string): Promise<T> {
		for (let attempt = 1; ; attempt++) {
			try {
				return await this.request<T>('GET', path);
			} catch (error) {
				if (!(error instanceof SyntaxError) || attempt >= 10) throw error;
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
