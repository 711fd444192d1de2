import {
	deadlineWords,
	sentWords,
	tryAgainWords,
	type CallDeadline,
	type Within,
} from './callDeadline';

/**
 * Requests under way, per credential (its Base URL and user): the deadlines of the tool calls that
 * sent them, and how many others there are. A sign-in or refresh is asked for by n8n without saying
 * which node needs it: while every request of the credential under way is a tool call's, it keeps
 * to the earliest of their deadlines, so that no call waiting for it answers late.
 */
const underWay = new Map<string, { tool: Within[]; other: number }>();

/** A request of this credential is under way (with its call's deadline, for a tool call); call the function returned when it has ended. */
export function noteUnderWay(who: string, call: Within | undefined): () => void {
	const entry = underWay.get(who) ?? { tool: [], other: 0 };
	underWay.set(who, entry);
	if (call) entry.tool.push(call);
	else entry.other++;
	let done = false;
	return () => {
		if (done) return;
		done = true;
		if (call) entry.tool.splice(entry.tool.indexOf(call), 1);
		else entry.other--;
		if (entry.tool.length === 0 && entry.other <= 0 && underWay.get(who) === entry)
			underWay.delete(who);
	};
}

/**
 * The deadline a renewal of this credential keeps to: the earliest deadline of the tool calls
 * under way, when every request of the credential under way is a tool call's; else none.
 */
export function toolCallsDeadline(who: string): Within | undefined {
	const entry = underWay.get(who);
	if (!entry || entry.other > 0 || entry.tool.length === 0) return undefined;
	return { endsAt: Math.min(...entry.tool.map((call) => call.endsAt)) };
}

/**
 * A wait that keeps to a deadline (a tool call's): when it must end by, and the error thrown
 * instead of a longer wait, given how long the wait would be (ms) and whether the path is blocked
 * after a 429.
 */
export interface WaitBound extends Within {
	error: (waitMs: number, blocked: boolean) => Error;
}

export interface RateLimitWords {
	/** The literal URL path. */
	path: string;
	requests: number;
	windowMs: number;
	/** How long until the call would go through (ms). */
	waitMs: number;
	/**
	 * Why: the path's requests are used up (`used`); the API answered an earlier request 429 and
	 * the path is blocked (`blocked`); it answered this call 429 (`429`), asking to wait
	 * (`retryAfter`).
	 */
	cause: 'used' | 'blocked' | '429' | 'retryAfter';
	/** The sign-in or the token's renewal, instead of the call's own request. */
	step?: string;
	/** What a 429's Retry-After asked for (ms), when it did. */
	askedMs?: number;
	/** The call, for what it sent before it stopped. */
	call?: CallDeadline;
}

/** "a minute", "3 s": the window in words. */
function windowWords(ms: number): string {
	if (ms === 60_000) return 'a minute';
	if (ms % 60_000 === 0) return `${ms / 60_000} minutes`;
	return `${Math.round(ms / 100) / 10} s`;
}

/** The path in words a model understands, where it is easy; the literal path always follows. */
function pathWords(path: string): string {
	const ad = /\/advertisement\/(?:[a-z_]+\/)?(\d+)\/?$/.exec(path);
	if (ad) return `ad ${ad[1]}: ${path}`;
	if (/\/advertisement\/(?:[a-z_]+\/)?$/.test(path)) return `the ads list: ${path}`;
	if (/\/audiences\/?$/.test(path)) return `audiences: ${path}`;
	if (/upload_media/.test(path)) return `media upload: ${path}`;
	if (/\/api\/(?:v\d+\/)?(?:stat|report)/.test(path)) return `statistics: ${path}`;
	if (/\/login$/.test(path)) return `sign-in: ${path}`;
	if (/\/access-token$/.test(path)) return `token renewal: ${path}`;
	return path;
}

/**
 * The message of a tool call that does not wait: the path's limit, in how many seconds to try
 * again ("try again in N s", N rounded up so that the same call then goes through), that nothing
 * was sent or performed, and why the call did not wait.
 */
export function rateLimitWaitMessage(words: RateLimitWords): string {
	const tryAgain = tryAgainWords(words.waitMs);
	const limit = `${words.requests} requests ${words.windowMs === 60_000 ? 'a minute' : `in ${windowWords(words.windowMs)}`} for each URL path`;
	const who = words.step ? `${words.step} for this call` : "this call's path";
	const where = `${who} (${pathWords(words.path)})`;
	const sent = sentWords(words.call);
	const bound = deadlineWords();
	if (words.cause === 'used') {
		return `The Ad Cabinet API allows ${limit}, and ${where} has used them: ${tryAgain}. ${sent} ${bound}`;
	}
	if (words.cause === 'blocked') {
		return `The Ad Cabinet API allows ${limit} and answered an earlier request 429 (rate limit exceeded), so ${where} is blocked for the rest of its window (a request sent into the block would extend it): ${tryAgain}. ${sent} ${bound}`;
	}
	const why =
		words.cause === 'retryAfter'
			? `the API answered 429 (rate limit exceeded) for ${where} and asked to wait ${Math.max(1, Math.ceil((words.askedMs ?? words.waitMs) / 1000))} s`
			: `the API answered 429 (rate limit exceeded) for ${where}, and a path stays blocked for the rest of its window (it allows ${limit})`;
	return `The Ad Cabinet API refused this call for now: ${why}: ${tryAgain}. The API performs nothing it answers 429. ${sent} ${bound}`;
}
