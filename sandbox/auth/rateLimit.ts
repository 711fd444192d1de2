import type { Platform } from '../platform';

/** At most `requests` requests in any `windowSeconds` seconds, per user and path. */
export interface RateLimit {
	requests: number;
	windowSeconds: number;
}

/** The real service's limit: 10 requests per 60 s for each (user, URL path). */
export const REAL_RATE_LIMIT: RateLimit = { requests: 10, windowSeconds: 60 };

export const RATE_LIMIT_EXCEEDED = 'Rate limit exceeded';

/** On by default in the real form; the spec shows no limit. */
export function defaultRateLimit(platform: Platform): RateLimit | null {
	return platform === 'telegram' ? { ...REAL_RATE_LIMIT } : null;
}

const USAGE =
	'must be "off" or "<requests>/<seconds>" such as "10/60" (requests a whole number of at least 1, seconds greater than 0)';

/**
 * `"10/60"`, `"off"`, `{ requests, windowSeconds }` or null (off). Throws with the rule when the
 * value fits none of them.
 */
export function parseRateLimit(value: unknown): RateLimit | null {
	if (value === null || value === 'off') return null;
	let requests: number;
	let windowSeconds: number;
	if (typeof value === 'string') {
		const match = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*$/.exec(value);
		if (!match) throw new Error(`rate limit ${USAGE}, got ${JSON.stringify(value)}`);
		requests = Number(match[1]);
		windowSeconds = Number(match[2]);
	} else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
		const limit = value as Record<string, unknown>;
		requests = limit.requests as number;
		windowSeconds = limit.windowSeconds as number;
	} else {
		throw new Error(`rate limit ${USAGE}, got ${JSON.stringify(value)}`);
	}
	if (
		!Number.isInteger(requests) ||
		requests < 1 ||
		!(windowSeconds > 0) ||
		!Number.isFinite(windowSeconds)
	)
		throw new Error(`rate limit ${USAGE}, got ${JSON.stringify(value)}`);
	return { requests, windowSeconds };
}

export function formatRateLimit(limit: RateLimit | null): string {
	return limit ? `${limit.requests}/${limit.windowSeconds}` : 'off';
}

interface PathState {
	/** Start times of the requests let through within the last window, oldest first. */
	starts: number[];
	/** While now is before this, every request is refused and pushes it a window further. */
	blockedUntil: number;
}

interface RateLimitState {
	rateLimit: string;
	countRenewals: boolean;
	requests: number | null;
	windowSeconds: number | null;
	/** 429 answers given since start (or the last reset of the counts). */
	answered429: number;
	/** Blocks started since start (or the last reset of the counts). */
	blocks: number;
	/** Paths blocked now, with the service time their block lifts at unless extended. */
	blocked: { path: string; until: string }[];
}

/**
 * The real service's rate limit (its docs, "Limits"): per user and literal URL path
 * (`/telegram/1` and `/telegram/2` are two paths: the docs leave it open, so the sandbox takes the
 * reading that is harder on clients).
 *
 * - A request that would be the (requests + 1)-th within the window is refused with 429 and starts
 *   a block of one window.
 * - Every request sent during a block is refused too, and the block then lasts a full window from
 *   that request: only a client that waits a whole window after its last refused request gets in.
 * - Refused requests do not count towards the window.
 */
export class RateLimiter {
	private limit: RateLimit | null;
	private readonly paths = new Map<string, PathState>();
	/**
	 * Whether sign-in and refresh count too. The real service says requests without a user are not
	 * counted; a service that counts them is a harder case for clients, so the sandbox can be one.
	 */
	countRenewals = false;
	private answered = 0;
	private blockCount = 0;

	constructor(limit: RateLimit | null) {
		this.limit = limit;
	}

	get settings(): RateLimit | null {
		return this.limit ? { ...this.limit } : null;
	}

	/** A new limit starts from a clean slate (no window history, no blocks). */
	set(limit: RateLimit | null): void {
		this.limit = limit ? { ...limit } : null;
		this.paths.clear();
	}

	/** Forgets the windows and blocks; `counts` also zeroes the 429 and block counts. */
	reset(counts = false): void {
		this.paths.clear();
		if (counts) {
			this.answered = 0;
			this.blockCount = 0;
		}
	}

	get answered429(): number {
		return this.answered;
	}

	/** True when the request may proceed; false when it is to be answered 429. */
	admit(userId: number, path: string, nowMs: number): boolean {
		const limit = this.limit;
		if (!limit) return true;
		const windowMs = limit.windowSeconds * 1000;
		const key = `${userId} ${path}`;
		let state = this.paths.get(key);
		if (!state) {
			state = { starts: [], blockedUntil: 0 };
			this.paths.set(key, state);
		}
		if (nowMs < state.blockedUntil) {
			state.blockedUntil = nowMs + windowMs;
			this.answered += 1;
			return false;
		}
		while (state.starts.length > 0 && state.starts[0] <= nowMs - windowMs) state.starts.shift();
		if (state.starts.length >= limit.requests) {
			state.blockedUntil = nowMs + windowMs;
			state.starts.length = 0;
			this.answered += 1;
			this.blockCount += 1;
			return false;
		}
		state.starts.push(nowMs);
		return true;
	}

	state(nowMs: number): RateLimitState {
		const blocked: { path: string; until: string }[] = [];
		for (const [key, state] of this.paths) {
			if (nowMs < state.blockedUntil)
				blocked.push({
					path: key.slice(key.indexOf(' ') + 1),
					until: new Date(state.blockedUntil).toISOString(),
				});
		}
		return {
			rateLimit: formatRateLimit(this.limit),
			countRenewals: this.countRenewals,
			requests: this.limit?.requests ?? null,
			windowSeconds: this.limit?.windowSeconds ?? null,
			answered429: this.answered,
			blocks: this.blockCount,
			blocked,
		};
	}
}
