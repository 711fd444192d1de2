import type { INode } from 'n8n-workflow';

/**
 * The longest a tool call waits for the API's rate limit (or a Retry-After) before it answers.
 * An MCP client gives up on a request after 60 s by default, and the answer must also pass through
 * n8n and the model in that time: a wait of at most 20 s leaves room for both. A longer wait
 * becomes an error that says when to try again, and nothing is sent for the call.
 */
export const TOOL_MAX_WAIT_MS = 20_000;

let maxWaitMs = TOOL_MAX_WAIT_MS;

/** The bound in force: TOOL_MAX_WAIT_MS, unless a test set a shorter one. */
export function toolMaxWaitMs(): number {
	return maxWaitMs;
}

/** Sets the bound (tests, to keep them short); undefined restores TOOL_MAX_WAIT_MS. */
export function setToolMaxWaitForTests(ms: number | undefined): void {
	maxWaitMs = ms ?? TOOL_MAX_WAIT_MS;
}

/**
 * Whether the node runs as a tool: for the AI Agent, for the MCP Server Trigger calling it
 * directly, or for the agent's engine requests. n8n gives every node that is usableAsTool a tool
 * variant whose type name ends in `Tool` (e.g. `n8n-nodes-ad-cabinet.adCabinetAdsTool`), and a
 * workflow holds that type for a node connected as a tool; n8n's own `@tool` display option reads
 * the same suffix.
 */
export function isToolCall(ctx: { getNode(): INode }): boolean {
	return ctx.getNode().type.endsWith('Tool');
}

/**
 * Requests under way, per credential (its Base URL and user), split by whether a tool call sent
 * them. A sign-in or refresh is asked for by n8n without saying which node needs it: it keeps to
 * the tool's bound when every request of the credential under way is a tool call's.
 */
const underWay = new Map<string, { tool: number; other: number }>();

/** A request of this credential is under way; call the function returned when it has ended. */
export function noteUnderWay(who: string, tool: boolean): () => void {
	const entry = underWay.get(who) ?? { tool: 0, other: 0 };
	underWay.set(who, entry);
	if (tool) entry.tool++;
	else entry.other++;
	let done = false;
	return () => {
		if (done) return;
		done = true;
		if (tool) entry.tool--;
		else entry.other--;
		if (entry.tool <= 0 && entry.other <= 0 && underWay.get(who) === entry) underWay.delete(who);
	};
}

/** Whether the requests of this credential under way are all tool calls' (and there is one). */
export function onlyToolCalls(who: string): boolean {
	const entry = underWay.get(who);
	return entry !== undefined && entry.tool > 0 && entry.other <= 0;
}

/**
 * A bound on a wait (a tool call's): the longest wait taken, and the error thrown instead of a
 * longer one, given how long the wait would be (ms) and whether the path is blocked after a 429.
 */
export interface WaitBound {
	maxWaitMs: number;
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
	const seconds = Math.max(1, Math.ceil(words.waitMs / 1000));
	const limit = `${words.requests} requests ${words.windowMs === 60_000 ? 'a minute' : `in ${windowWords(words.windowMs)}`} for each URL path`;
	const who = words.step ? `${words.step} for this call` : "this call's path";
	const where = `${who} (${pathWords(words.path)})`;
	const bound = `(A tool call does not wait longer than ${Math.round(toolMaxWaitMs() / 1000)} s for the rate limit, so that the AI client does not give up first.)`;
	const nothingSent = 'Nothing was sent for this call, so trying again then is safe.';
	if (words.cause === 'used') {
		return `The Ad Cabinet API allows ${limit}, and ${where} has used them: try again in ${seconds} s. ${nothingSent} ${bound}`;
	}
	if (words.cause === 'blocked') {
		return `The Ad Cabinet API allows ${limit} and answered an earlier request 429 (rate limit exceeded), so ${where} is blocked for the rest of its window (a request sent into the block would extend it): try again in ${seconds} s. ${nothingSent} ${bound}`;
	}
	const why =
		words.cause === 'retryAfter'
			? `the API answered 429 (rate limit exceeded) for ${where} and asked to wait ${seconds} s`
			: `the API answered 429 (rate limit exceeded) for ${where}, and a path stays blocked for the rest of its window (it allows ${limit})`;
	return `The Ad Cabinet API refused this call for now: ${why}: try again in ${seconds} s. The API performs nothing it answers 429, and nothing more was sent for this call, so trying again then is safe. ${bound}`;
}
