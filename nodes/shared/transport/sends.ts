/**
 * How many times n8n sent one request. After a 401, n8n renews the token and sends the request
 * again by itself, inside its own helper: only the credential's authenticate hook sees each send.
 * n8n hands that hook the options the package gave it on the first send, and on the repeat the
 * options the hook returned the first time; both are traced back to the package's own object.
 */
const firstOptions = new WeakMap<object, object>();
const sendCounts = new WeakMap<object, number>();

/** authenticate: `given` is about to be sent, as `returned`. */
export function noteSend(given: object, returned: object): void {
	const first = firstOptions.get(given) ?? given;
	firstOptions.set(returned, first);
	sendCounts.set(first, (sendCounts.get(first) ?? 0) + 1);
}

/** How many times the request built with these options was sent; undefined when never seen. */
export function sendsOf(options: object): number | undefined {
	return sendCounts.get(options);
}
