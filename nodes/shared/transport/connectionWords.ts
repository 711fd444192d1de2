import type { Failure } from './apiFailure';

/**
 * A failed connection in words. n8n replaces the whole message of an error that mentions one of
 * Node's connection codes (ECONNRESET and the like) with a generic sentence of its own whenever the
 * error is wrapped again: by a Stop and Error node fed from an error output, by an error workflow,
 * by an agent's tool. Our messages say what was sent and whether repeating is safe, so they name
 * the failure in words and leave the code to the error's `httpCode` and description.
 */
const WORDS: Record<string, string> = {
	ECONNRESET: 'the connection was reset before the answer arrived',
	ECONNREFUSED: 'the connection was refused',
	ECONNABORTED: 'the connection was aborted',
	ETIMEDOUT: 'the connection timed out',
	ESOCKETTIMEDOUT: 'the connection timed out',
	ENOTFOUND: 'the host name was not found',
	EAI_AGAIN: 'the host name could not be looked up (the DNS server did not answer)',
	EHOSTUNREACH: 'the host is unreachable',
	EADDRNOTAVAIL: 'the address is not available',
	EPIPE: 'the connection was closed while the request was being sent',
};

/** Every code n8n rewrites a message for, whether or not it is a connection's. */
const REWRITTEN_CODES =
	'ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|ERRADDRINUSE|EADDRNOTAVAIL|ECONNABORTED|EHOSTUNREACH|EAI_AGAIN|ENOENT|EISDIR|ENOTDIR|EACCES|EEXIST|EPERM|GETADDRINFO';
const REWRITTEN = new RegExp(`\\b(${REWRITTEN_CODES})\\b`, 'gi');
const IS_REWRITTEN = new RegExp(`^(${REWRITTEN_CODES})$`, 'i');

/** Text with every code n8n rewrites a message for taken out, spaces tidied. */
export function withoutRewrittenCodes(text: string): string {
	return text
		.replace(REWRITTEN, '')
		.replace(/\(\s*\)/g, '')
		.replace(/\s{2,}/g, ' ')
		.replace(/\s+([:,.)])/g, '$1')
		.trim();
}

/** Why a request got no answer, in words a user reads: from the code when it is known. */
export function connectionWords(failure: Pick<Failure, 'code' | 'message'>): string | undefined {
	const known = failure.code ? WORDS[failure.code.toUpperCase()] : undefined;
	if (known) return known;
	const said = failure.message ? withoutRewrittenCodes(failure.message) : '';
	if (failure.code && !IS_REWRITTEN.test(failure.code))
		return said ? `${failure.code}: ${said}` : failure.code;
	return said || undefined;
}
