import { sleep, type ICredentialDataDecryptedObject, type INode } from 'n8n-workflow';

/** At most `requests` request starts in any `windowMs`, per credential and URL path. */
export interface PaceLimit {
	requests: number;
	windowMs: number;
}

interface PathState {
	/** Start times of the requests let through within the last window, oldest first. */
	starts: number[];
	/** No request starts before this (after a 429: the rest of the window plus one second). */
	blockedUntil: number;
	/** The turn of the last request waiting: requests on one path start in the order they asked. */
	queue: Promise<unknown>;
	waiting: number;
}

/** Path states kept before idle ones are dropped (an ad's own path is a path of its own). */
const MAX_PATHS = 2_000;

/**
 * Keeps the requests of one n8n process within the API's rate limit (the real service: 10 requests
 * per 60 s for each user and URL path, and a request sent while blocked extends the block). It is
 * a sliding window per credential and literal path, shared by everything in the process: input
 * items, the parallel statistics parts, trigger polls, dropdowns and other executions. Queue-mode
 * workers are processes of their own and each pace themselves.
 */
export class Pacer {
	private readonly paths = new Map<string, PathState>();

	/** A little past the window's edge, so that a request never arrives at the API early. */
	private static margin(limit: PaceLimit): number {
		return 100 + Math.ceil(limit.windowMs / 100);
	}

	private state(key: string): PathState {
		let state = this.paths.get(key);
		if (!state) {
			if (this.paths.size >= MAX_PATHS) this.prune();
			state = { starts: [], blockedUntil: 0, queue: Promise.resolve(), waiting: 0 };
			this.paths.set(key, state);
		}
		return state;
	}

	private prune(): void {
		const now = Date.now();
		for (const [key, state] of this.paths) {
			const last = state.starts[state.starts.length - 1] ?? 0;
			if (state.waiting === 0 && state.blockedUntil <= now && last < now - 3_600_000) this.paths.delete(key);
		}
		// Still full: the oldest idle paths go first.
		for (const [key, state] of this.paths) {
			if (this.paths.size < MAX_PATHS) break;
			if (state.waiting === 0 && state.blockedUntil <= now) this.paths.delete(key);
		}
	}

	/**
	 * Waits until one more request may start on this path, records its start and returns how long
	 * it waited (ms). Requests on one path are let through in the order they asked.
	 */
	async admit(key: string, limit: PaceLimit): Promise<number> {
		const state = this.state(key);
		state.waiting++;
		const turn = state.queue.then(async () => {
			let waited = 0;
			for (;;) {
				const now = Date.now();
				while (state.starts.length && state.starts[0] <= now - limit.windowMs) state.starts.shift();
				let until = state.blockedUntil;
				if (state.starts.length >= limit.requests) {
					until = Math.max(until, state.starts[state.starts.length - limit.requests] + limit.windowMs + Pacer.margin(limit));
				}
				if (until <= now) {
					state.starts.push(now);
					return waited;
				}
				await sleep(until - now);
				waited += until - now;
			}
		});
		state.queue = turn.catch(() => undefined);
		try {
			return await turn;
		} finally {
			state.waiting--;
		}
	}

	/** The API answered 429: nothing more on this path for the rest of the window plus one second. */
	block(key: string, limit: PaceLimit): void {
		const state = this.state(key);
		state.blockedUntil = Math.max(state.blockedUntil, Date.now() + limit.windowMs + 1_000);
	}

	/** When the path is blocked until (0 when it is not): for tests and messages. */
	blockedUntil(key: string): number {
		return this.paths.get(key)?.blockedUntil ?? 0;
	}

	/** Forgets every path (tests). */
	reset(): void {
		this.paths.clear();
	}
}

/** The one pacer of this n8n process. */
export const pacer = new Pacer();

/** The credential's limit, or undefined when pacing is off (0 requests, or a credential without it). */
export function paceLimitOf(credentials: ICredentialDataDecryptedObject): PaceLimit | undefined {
	const requests = Number(credentials.rateLimitRequests);
	const windowSeconds = Number(credentials.rateLimitWindow ?? 60);
	if (!Number.isFinite(requests) || requests < 1) return undefined;
	if (!Number.isFinite(windowSeconds) || windowSeconds <= 0) return undefined;
	// A credential that renews its token: when a token has just expired, n8n's request helper renews
	// it and sends the request again by itself, a request the pacer never sees (and the API may
	// count the refused one too). One place of each window is kept free for that repeat.
	const renews = credentials.authMethod === 'password' || credentials.authMethod === 'refreshToken';
	const allowed = Math.floor(requests) - (renews && requests > 1 ? 1 : 0);
	return { requests: allowed, windowMs: windowSeconds * 1000 };
}

/**
 * Which budget a request draws on: the credential (its saved ID when n8n gives one, else its Base
 * URL and user) and the literal URL path. Two credentials of one user share the service's budget
 * without knowing it.
 */
export function paceKey(node: INode, credentials: ICredentialDataDecryptedObject, url: string): string {
	const saved = node.credentials?.adCabinetApi?.id;
	const who = saved ?? `${String(credentials.baseUrl ?? '')}|${String(credentials.username ?? '')}`;
	let path = url;
	try {
		path = new URL(url, 'http://relative.invalid').pathname;
	} catch {
		// Not a URL: the text itself is the path.
	}
	return `${who}\u0000${path}`;
}

/** What send() needs to pace one request, or undefined when the credential turns pacing off. */
export function pacingFor(
	node: INode,
	credentials: ICredentialDataDecryptedObject,
	url: string,
	onWait?: (ms: number) => void,
): { key: string; limit: PaceLimit; onWait?: (ms: number) => void } | undefined {
	const limit = paceLimitOf(credentials);
	return limit ? { key: paceKey(node, credentials, url), limit, onWait } : undefined;
}
