import type { CredentialView } from './credentialView';

/**
 * What the hidden access token holds with the Access Token method: a mark, not a token, so that
 * n8n asks preAuthentication again only after a 401 (an empty expirable field is renewed before
 * every request). One character, so that no scrubbing of secrets ever touches it.
 */
export const PASTED_MARK = '-';

/** Credential objects a request was sent with (n8n hands the same object to both hooks). */
const sentWith = new WeakSet<object>();

/** authenticate: a request is about to be sent with this credential. */
export function markSent(view: CredentialView): void {
	sentWith.add(view.identity);
}

/**
 * Whether a request was already sent with this very credential object: preAuthentication is then
 * called because the API answered 401, not before a first request or for a credential Test.
 */
export function wasSent(view: CredentialView): boolean {
	return sentWith.has(view.identity);
}

/** A 53-bit string hash (two 32-bit multiply-xor lanes): tells whether the fields changed. */
export function hash(value: string): string {
	let h1 = 0xdeadbeef;
	let h2 = 0x41c6ce57;
	for (let i = 0; i < value.length; i++) {
		const c = value.charCodeAt(i);
		h1 = Math.imul(h1 ^ c, 2654435761);
		h2 = Math.imul(h2 ^ c, 1597334677);
	}
	h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
	h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
	return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/** A random key of 128 bits or so, for the fingerprint. */
export function randomKey(): string {
	let key = '';
	for (let i = 0; i < 4; i++) key += Math.floor(Math.random() * 2 ** 32).toString(36);
	return key;
}

/** The method, Base URL and the fields that sign in, as one text (never stored or shown). */
export function signInFields(view: CredentialView): string {
	const method = view.authMethod;
	const secret =
		method === 'password'
			? `${view.username}\u0000${view.password}`
			: method === 'refreshToken'
				? view.refreshToken
				: view.accessToken.trim();
	return `${method}\u0000${view.baseUrl}\u0000${secret}`;
}

/**
 * Who a session belongs to: a hash of the sign-in fields keyed with `key`, a random value kept in
 * the credential's password-type field. Without the key the fingerprint cannot be checked against
 * guessed passwords; and n8n shows neither field when the credential is opened. A session obtained
 * with other values (the user edited the credential) is not used: the next request renews it.
 */
export function sessionOwner(view: CredentialView, key?: string): string {
	const salt = key ?? view.session.key;
	return `v2:${hash(`${salt}\u0000${signInFields(view)}\u0000${salt}`)}`;
}

/** The fingerprint the versions before 2 wrote (unkeyed): still read, never written. */
function legacyOwner(view: CredentialView): string {
	const method = view.authMethod;
	const secret =
		method === 'password' ? `${view.username}\u0000${view.password}` : view.refreshToken;
	return `v1:${hash(`${method}\u0000${view.baseUrl}\u0000${secret}`)}`;
}

/** Whether the session in the credential was obtained with the fields it holds now. */
export function ownsSession(view: CredentialView): boolean {
	const owner = view.session.owner;
	if (owner === '') return false;
	if (owner.startsWith('v1:')) return owner === legacyOwner(view);
	return view.session.key !== '' && owner === sessionOwner(view);
}

/**
 * The bearer token a request carries: the pasted one with Access Token, otherwise the one sign-in
 * or refresh obtained for these very fields. Empty when there is none yet: the API then answers
 * 401 and n8n renews the credential and repeats the request.
 */
export function bearerTokenOf(view: CredentialView): string {
	if (view.authMethod === 'accessToken') return view.accessToken.trim();
	if (!ownsSession(view)) return '';
	return view.session.token;
}
