import { LoggerProxy, type INode } from 'n8n-workflow';
import type { CredentialView, PaceLimit } from '../auth/credentialView';
import type { WaitBound } from '../toolCall';
import { fitsWithin, waitWithinCall } from '../callDeadline';

interface PathState {
	/** Start times of the requests let through within the last window, oldest first. */
	starts: number[];
	/** No request starts before this (after a 429: the rest of the window plus one second). */
	blockedUntil: number;
	/** The turn of the last request waiting: requests on one path start in the order they asked. */
	queue: Promise<unknown>;
	waiting: number;
	/**
	 * Requests under way that may still be sent again by n8n itself: when a token has just expired,
	 * n8n renews it and repeats the request, a repeat the pacer never sees. Each holds a place of
	 * the window until it ends, so that the repeats of requests sent together also fit.
	 */
	reserved: number;
}

/** How often a request waiting only for a reserved place looks again. */
const RESERVE_POLL_MS = 50;

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
			state = { starts: [], blockedUntil: 0, queue: Promise.resolve(), waiting: 0, reserved: 0 };
			this.paths.set(key, state);
		}
		return state;
	}

	private prune(): void {
		const now = Date.now();
		for (const [key, state] of this.paths) {
			const last = state.starts[state.starts.length - 1] ?? 0;
			if (
				state.waiting === 0 &&
				state.reserved === 0 &&
				state.blockedUntil <= now &&
				last < now - 3_600_000
			)
				this.paths.delete(key);
		}
		// Still full: the oldest idle paths go first.
		for (const [key, state] of this.paths) {
			if (this.paths.size < MAX_PATHS) break;
			if (state.waiting === 0 && state.reserved === 0 && state.blockedUntil <= now)
				this.paths.delete(key);
		}
	}

	/**
	 * When a request asking now would start, the requests queued ahead of it on the path taken into
	 * account (each takes the next free place of the window in turn). A place held for a request
	 * under way frees when that request ends, within seconds: it is counted as free here, and a
	 * request whose turn then comes later than foreseen is told so when its turn comes.
	 */
	private startsAt(state: PathState, limit: PaceLimit, reserve: boolean, now: number): number {
		const starts = state.starts.filter((start) => start > now - limit.windowMs);
		const places = Math.max(1, limit.requests - (reserve ? 1 : 0));
		let at = now;
		for (let i = 0; i <= state.waiting; i++) {
			at = Math.max(now, state.blockedUntil);
			if (starts.length >= places) {
				at = Math.max(at, starts[starts.length - places] + limit.windowMs + Pacer.margin(limit));
			}
			starts.push(at);
		}
		return at;
	}

	/**
	 * Waits until one more request may start on this path, records its start and returns how long
	 * it waited (ms). Requests on one path are let through in the order they asked. With a `bound`
	 * (a tool call's deadline), a wait that would end past it is not taken: its error is thrown at
	 * once, or when the request's turn comes, and the request takes no place, so nothing is sent for it.
	 */
	async admit(key: string, limit: PaceLimit, reserve = false, bound?: WaitBound): Promise<number> {
		const state = this.state(key);
		const asked = Date.now();
		if (bound) {
			const at = this.startsAt(state, limit, reserve, asked);
			if (!fitsWithin(bound, at - asked, asked))
				throw bound.error(at - asked, state.blockedUntil > asked);
		}
		state.waiting++;
		const turn = state.queue.then(async () => {
			let waited = 0;
			for (;;) {
				const now = Date.now();
				while (state.starts.length && state.starts[0] <= now - limit.windowMs) state.starts.shift();
				let until = state.blockedUntil;
				const places = limit.requests - state.reserved - (reserve ? 1 : 0);
				if (places <= 0 && state.reserved > 0) {
					// Every free place is reserved: only a request that ends frees one.
					until = Math.max(until, now + RESERVE_POLL_MS);
				} else if (state.starts.length >= Math.max(1, places)) {
					const oldest = state.starts[state.starts.length - Math.max(1, places)];
					let free = oldest + limit.windowMs + Pacer.margin(limit);
					// A request under way that ends frees its reserved place sooner.
					if (state.reserved > 0) free = Math.min(free, now + RESERVE_POLL_MS);
					until = Math.max(until, free);
				}
				if (until <= now) {
					state.starts.push(now);
					if (reserve) state.reserved++;
					return waited;
				}
				// A tool call whose turn came later than foreseen (a 429 meanwhile): it gives up its turn
				// without a start, and the requests behind it move up.
				const blocked = state.blockedUntil > now;
				if (waited === 0 && until - now >= 1_000 && fitsWithin(bound, until - now, now))
					logWait(key, limit, until - now);
				await waitWithinCall(bound, until - now, (ms) => (bound as WaitBound).error(ms, blocked));
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

	/**
	 * A request admitted with a reserve has ended. Each time n8n sent it again (after renewing the
	 * token) counts as a start now; the reserved place is free again.
	 */
	release(key: string, sentAgain: number): void {
		const state = this.paths.get(key);
		if (!state || state.reserved === 0) return;
		state.reserved--;
		const now = Date.now();
		for (let i = 0; i < sentAgain; i++) state.starts.push(now);
	}

	/** The API answered 429: nothing more on this path for the rest of the window plus one second. */
	block(key: string, limit: PaceLimit): void {
		const state = this.state(key);
		state.blockedUntil = Math.max(state.blockedUntil, Date.now() + limit.windowMs + 1_000);
	}

	/** How long a request asking now would wait on this path (ms), those queued ahead included. */
	waitFor(key: string, limit: PaceLimit, reserve = false): number {
		const now = Date.now();
		return this.startsAt(this.state(key), limit, reserve, now) - now;
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

/**
 * A wait of a second or more, in n8n's log at debug level (N8N_LOG_LEVEL=debug): why a workflow
 * sits still. The metadata names the path and the limit, never the credential.
 */
function logWait(key: string, limit: PaceLimit, ms: number): void {
	const path = key.slice(key.indexOf('\u0000') + 1);
	const seconds = Math.ceil(ms / 1000);
	const windowSeconds = limit.windowMs / 1000;
	LoggerProxy.debug(
		`Ad Cabinet API: waiting ${seconds} s before the next request to ${path}: the rate limit is ${limit.requests} requests in ${windowSeconds} s for each URL path`,
		{ rateLimitWait: { path, seconds, requests: limit.requests, windowSeconds } },
	);
}

/** The one pacer of this n8n process. */
export const pacer = new Pacer();

/**
 * The credential's limit, or undefined when pacing is off (0 requests, or a credential without it).
 * A credential that renews its token also needs a place for the repeat n8n sends after a 401:
 * send() holds one for each request under way (see Pacer.admit), so the whole budget is paced.
 */
export function paceLimitOf(view: CredentialView): PaceLimit | undefined {
	return view.pace;
}

/**
 * Which budget a request draws on: the credential (its saved ID when n8n gives one, else its Base
 * URL and user) and the literal URL path. Two credentials of one user share the service's budget
 * without knowing it.
 */
export function paceKey(node: INode, view: CredentialView, url: string): string {
	const saved = node.credentials?.adCabinetApi?.id;
	const who = saved ?? `${view.baseUrl}|${view.username}`;
	let path = url;
	try {
		path = new URL(withoutBase(url, view), 'http://relative.invalid').pathname;
	} catch {
		// Not a URL: the text itself is the path.
	}
	return `${who}\u0000${path}`;
}

/**
 * A request built by our own code carries the whole URL, one built by n8n's routing the path after
 * the Base URL: both must draw on one budget. A Base URL with a path of its own (a proxy's prefix)
 * is taken off, so that `https://proxy/adstat/api/x` and `/api/x` are one path.
 */
function withoutBase(url: string, view: CredentialView): string {
	for (const base of [view.baseUrl, view.clientApiUrl]) {
		const prefix = (base ?? '').replace(/\/+$/, '');
		if (prefix && url.startsWith(`${prefix}/`)) return url.slice(prefix.length);
	}
	return url;
}

/** What send() needs to pace one request, or undefined when the credential turns pacing off. */
export function pacingFor(
	node: INode,
	view: CredentialView,
	url: string,
	onWait?: (ms: number) => void,
): { key: string; limit: PaceLimit; onWait?: (ms: number) => void } | undefined {
	const limit = view.pace;
	return limit ? { key: paceKey(node, view, url), limit, onWait } : undefined;
}
