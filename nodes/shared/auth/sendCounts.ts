/**
 * How many times n8n sent one request. After a 401, n8n renews the token and sends the request
 * again by itself, inside its own helper: only the credential's authenticate hook sees each send.
 * n8n hands that hook the options the package gave it on the first send, and on the repeat the
 * options the hook returned the first time; both are traced back to the package's own object.
 */
const firstOptions = new WeakMap<object, object>();
const sendCounts = new WeakMap<object, number>();
/** The bearer token the last send of a request carried ('' for none). */
const lastTokens = new WeakMap<object, string>();

/** authenticate: `given` is about to be sent, as `returned`, carrying `token`. */
export function noteSend(given: object, returned: object, token = ''): void {
	const first = firstOptions.get(given) ?? given;
	firstOptions.set(returned, first);
	sendCounts.set(first, (sendCounts.get(first) ?? 0) + 1);
	lastTokens.set(first, token);
}

/**
 * The bearer token the last send of the request built with these options carried: the one the
 * API refused when that send was answered 401. Undefined when never seen.
 */
export function tokenSentLast(options: object): string | undefined {
	return lastTokens.get(options);
}

/** How many times the request built with these options was sent; undefined when never seen. */
export function sendsOf(options: object): number | undefined {
	return sendCounts.get(options);
}

/** Requests this process let n8n send again after a 401, with a renewed token. */
let repeats = 0;

/** preAuthentication after a 401 renewed the token: n8n sends the request again now. */
export function noteRepeat(): void {
	repeats += 1;
}

/**
 * How many requests n8n has sent again after a 401 in this process so far. A request during
 * which the count did not move was sent once (a declarative request, whose options n8n builds,
 * is counted this way).
 */
export function repeatsSoFar(): number {
	return repeats;
}
