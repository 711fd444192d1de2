import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/**
 * How the credential gets its access token (the real service: an access token lives 1 hour, a
 * refresh token 30 days). `password` and `refreshToken` renew it by themselves through n8n's
 * preAuthentication; `accessToken` uses the pasted token as it is.
 */
export const AUTH_METHODS = ['password', 'refreshToken', 'accessToken'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

/**
 * The credential's hidden properties that hold what sign-in or refresh gave. n8n calls
 * preAuthentication when the expirable one (the access token) is empty or the API answered 401,
 * and stores every key it returns.
 */
export const SESSION = {
	/** The access token obtained (expirable). */
	token: 'sessionToken',
	/** The refresh token the last sign-in gave (Username and Password only). */
	refreshToken: 'sessionRefreshToken',
	/** Whose session it is: a fingerprint of the fields that obtained it, so an edit starts anew. */
	owner: 'sessionFor',
	/** The random key of that fingerprint, so that the fingerprint tells nothing of the password. */
	key: 'sessionKey',
	/**
	 * A refused sign-in, kept in the credential so that every n8n process (main and each queue-mode
	 * worker) holds back the same username and password until the pause is over or they are edited.
	 */
	refusal: 'sessionRefusal',
} as const;

/**
 * What the hidden access token holds with the Access Token method: a mark, not a token, so that
 * n8n asks preAuthentication again only after a 401 (an empty expirable field is renewed before
 * every request). One character, so that no scrubbing of secrets ever touches it.
 */
export const PASTED_MARK = '-';

/** Credential objects a request was sent with (n8n hands the same object to both hooks). */
const sentWith = new WeakSet<object>();

/** authenticate: a request is about to be sent with these credentials. */
export function markSent(credentials: ICredentialDataDecryptedObject): void {
	sentWith.add(credentials);
}

/**
 * Whether a request was already sent with this very object: preAuthentication is then called
 * because the API answered 401, not before a first request or for a credential Test.
 */
export function wasSent(credentials: ICredentialDataDecryptedObject): boolean {
	return sentWith.has(credentials);
}

export function text(credentials: ICredentialDataDecryptedObject, key: string): string {
	const value = credentials[key];
	return typeof value === 'string' ? value : '';
}

/**
 * The sign-in method. A credential without one (saved before there was a choice) is read as
 * Access Token when it holds one.
 */
export function authMethodOf(credentials: ICredentialDataDecryptedObject): AuthMethod {
	const method = credentials.authMethod;
	if (typeof method === 'string' && (AUTH_METHODS as readonly string[]).includes(method)) {
		return method as AuthMethod;
	}
	return text(credentials, 'accessToken') !== '' ? 'accessToken' : 'password';
}

export function baseUrlOf(credentials: ICredentialDataDecryptedObject): string {
	return text(credentials, 'baseUrl').trim().replace(/\/+$/, '');
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
export function signInFields(credentials: ICredentialDataDecryptedObject): string {
	const method = authMethodOf(credentials);
	const secret =
		method === 'password'
			? `${text(credentials, 'username')}\u0000${text(credentials, 'password')}`
			: method === 'refreshToken'
				? text(credentials, 'refreshToken')
				: text(credentials, 'accessToken').trim();
	return `${method}\u0000${baseUrlOf(credentials)}\u0000${secret}`;
}

/**
 * Who a session belongs to: a hash of the sign-in fields keyed with `key`, a random value kept in
 * the credential's password-type field. Without the key the fingerprint cannot be checked against
 * guessed passwords; and n8n shows neither field when the credential is opened. A session obtained
 * with other values (the user edited the credential) is not used: the next request renews it.
 */
export function sessionOwner(credentials: ICredentialDataDecryptedObject, key?: string): string {
	const salt = key ?? text(credentials, SESSION.key);
	return `v2:${hash(`${salt}\u0000${signInFields(credentials)}\u0000${salt}`)}`;
}

/** The fingerprint the versions before 2 wrote (unkeyed): still read, never written. */
function legacyOwner(credentials: ICredentialDataDecryptedObject): string {
	const method = authMethodOf(credentials);
	const secret =
		method === 'password'
			? `${text(credentials, 'username')}\u0000${text(credentials, 'password')}`
			: text(credentials, 'refreshToken');
	return `v1:${hash(`${method}\u0000${baseUrlOf(credentials)}\u0000${secret}`)}`;
}

/** Whether the session in the credential was obtained with the fields it holds now. */
export function ownsSession(credentials: ICredentialDataDecryptedObject): boolean {
	const owner = text(credentials, SESSION.owner);
	if (owner === '') return false;
	if (owner.startsWith('v1:')) return owner === legacyOwner(credentials);
	return text(credentials, SESSION.key) !== '' && owner === sessionOwner(credentials);
}

/**
 * The bearer token a request carries: the pasted one with Access Token, otherwise the one sign-in
 * or refresh obtained for these very fields. Empty when there is none yet: the API then answers
 * 401 and n8n renews the credential and repeats the request.
 */
export function bearerTokenOf(credentials: ICredentialDataDecryptedObject): string {
	if (authMethodOf(credentials) === 'accessToken') return text(credentials, 'accessToken').trim();
	if (!ownsSession(credentials)) return '';
	return text(credentials, SESSION.token);
}

/** The secrets a credential holds, to be masked wherever an answer of the API is quoted. */
export function secretsIn(credentials: ICredentialDataDecryptedObject): string[] {
	return [
		'password',
		'refreshToken',
		'accessToken',
		SESSION.token,
		SESSION.refreshToken,
		SESSION.key,
	]
		.map((key) => text(credentials, key))
		.filter((value) => value !== '' && value !== PASTED_MARK);
}
