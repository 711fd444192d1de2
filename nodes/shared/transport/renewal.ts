import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { apiMessage, readFailure, RENEWAL_FAILED, type Failure } from './failure';

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
} as const;

export const SIGN_IN_PATH = '/api/v2/login';
export const REFRESH_PATH = '/api/v2/access-token';

/** How long sign-in and refresh may take. */
const RENEWAL_TIMEOUT_MS = 30_000;

const CREDENTIAL = 'the Ad Cabinet API credential';
const NOT_PERFORMED =
	'The request itself was not performed, so running it again after the fix is safe.';

export type RenewalStep = 'sign-in' | 'refresh';

/**
 * Sign-in or refresh failed. The message stands alone: which step, what the API said, what to
 * change in the credential. It carries no status or code of its own, so that n8n shows the message
 * as written (in a node's error and in the credential Test) and nothing retries it.
 */
export class RenewalFailed extends Error {
	readonly adCabinetRenewal: RenewalStep;

	constructor(step: RenewalStep, message: string) {
		super(message);
		this.name = RENEWAL_FAILED;
		this.adCabinetRenewal = step;
	}
}

function text(credentials: ICredentialDataDecryptedObject, key: string): string {
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

function baseUrlOf(credentials: ICredentialDataDecryptedObject): string {
	return text(credentials, 'baseUrl').trim().replace(/\/+$/, '');
}

/** A 53-bit string hash (two 32-bit multiply-xor lanes): tells whether the fields changed. */
function hash(value: string): string {
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

/**
 * Who a session belongs to: the method, Base URL and the fields that sign in. A session obtained
 * with other values (the user edited the credential) is not used: the next request renews it.
 */
export function sessionOwner(credentials: ICredentialDataDecryptedObject): string {
	const method = authMethodOf(credentials);
	const secret =
		method === 'password'
			? `${text(credentials, 'username')}\u0000${text(credentials, 'password')}`
			: text(credentials, 'refreshToken');
	return `v1:${hash(`${method}\u0000${baseUrlOf(credentials)}\u0000${secret}`)}`;
}

/**
 * The bearer token a request carries: the pasted one with Access Token, otherwise the one sign-in
 * or refresh obtained for these very fields. Empty when there is none yet: the API then answers
 * 401 and n8n renews the credential and repeats the request.
 */
export function bearerTokenOf(credentials: ICredentialDataDecryptedObject): string {
	if (authMethodOf(credentials) === 'accessToken') return text(credentials, 'accessToken').trim();
	if (text(credentials, SESSION.owner) !== sessionOwner(credentials)) return '';
	return text(credentials, SESSION.token);
}

type Answer = Record<string, unknown>;

function parsed(answer: unknown): Answer | undefined {
	let value = answer;
	if (typeof value === 'string') {
		try {
			value = JSON.parse(value) as unknown;
		} catch {
			return undefined;
		}
	}
	return value !== null && typeof value === 'object' && !Array.isArray(value)
		? (value as Answer)
		: undefined;
}

function scrubbed(value: string, secrets: string[]): string {
	let out = value;
	for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('***');
	return out;
}

/** What the API said, in brackets (with its status unless told not to), never echoing a secret. */
function said(failure: Failure, secrets: string[], withStatus = true): string {
	const words = apiMessage(failure)?.replace(/[.\s]+$/, '');
	const status = withStatus
		? failure.status !== undefined
			? String(failure.status)
			: failure.code
		: undefined;
	if (!status) return words ? ` (${scrubbed(words, secrets)})` : '';
	return ` (${status}${words ? `: ${scrubbed(words, secrets)}` : ''})`;
}

function hostOf(url: string): string {
	try {
		return new URL(url).host;
	} catch {
		return url;
	}
}

/**
 * Why a sign-in or refresh request failed, when the reason is the address rather than the
 * username, password or token: no answer, a redirect, a 404, a server error.
 */
function addressTrouble(
	step: string,
	url: string,
	failure: Failure,
	secrets: string[],
): string | undefined {
	const base = `Base URL (${hostOf(url)})`;
	if (failure.status === undefined) {
		return `${step} failed: the ${base} could not be reached${said(failure, secrets)}. Check Base URL in ${CREDENTIAL} and that n8n can reach that address.`;
	}
	if (failure.status >= 300 && failure.status < 400) {
		return `${step} failed: the ${base} answered ${failure.status} with a redirect, which is not followed, so nothing secret was sent on. Check Base URL in ${CREDENTIAL}: it must be the API's own address (https://client.adstat.pro for the real service).`;
	}
	if (failure.status === 404 || failure.status === 405) {
		return `${step} failed: ${url} answered ${failure.status}, so there is no Ad Cabinet API at this Base URL. Check Base URL in ${CREDENTIAL} (https://client.adstat.pro for the real service).`;
	}
	if (failure.status === 429) {
		return `${step} failed: the API limits requests and answered 429${said(failure, secrets, false)}. Wait a minute, then run again.`;
	}
	if (failure.status >= 500) {
		return `${step} failed: the API answered ${failure.status}${said(failure, secrets, false)}. It is a fault on the service's side: try again later, and check Base URL in ${CREDENTIAL} if it persists.`;
	}
	return undefined;
}

interface HttpHelper {
	helpers: { httpRequest: IHttpRequestHelper['helpers']['httpRequest'] };
}

type Sent = { answer: unknown } | { failure: Failure };

async function request(helper: HttpHelper, options: IHttpRequestOptions): Promise<Sent> {
	try {
		const answer: unknown = await helper.helpers.httpRequest({
			...options,
			disableFollowRedirect: true,
			timeout: RENEWAL_TIMEOUT_MS,
		});
		return { answer };
	} catch (error) {
		// Only the status, body and code are read: the error's request data holds the password.
		return { failure: readFailure(error) };
	}
}

function secretsIn(credentials: ICredentialDataDecryptedObject): string[] {
	return ['password', 'refreshToken', 'accessToken', SESSION.token, SESSION.refreshToken]
		.map((key) => text(credentials, key))
		.filter((value) => value !== '');
}

async function signIn(
	helper: HttpHelper,
	credentials: ICredentialDataDecryptedObject,
	baseUrl: string,
	owner: string,
): Promise<IDataObject> {
	const username = text(credentials, 'username').trim();
	const password = text(credentials, 'password');
	if (username === '' || password === '') {
		const missing =
			username === '' && password === ''
				? 'Username and Password are'
				: username === ''
					? 'Username is'
					: 'Password is';
		throw new RenewalFailed(
			'sign-in',
			`Sign-in to the Ad Cabinet API failed: ${missing} empty in ${CREDENTIAL}, and Sign-in Method is Username and Password. Fill in the username and password you use for the cabinet, or choose Access Token and paste a token. ${NOT_PERFORMED}`,
		);
	}
	const url = `${baseUrl}${SIGN_IN_PATH}`;
	const secrets = secretsIn(credentials);
	// The real service takes a form body, not JSON (the JSON {login, password} form was removed).
	const result = await request(helper, {
		method: 'POST',
		url,
		headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
		body: `username=${encodeURIComponent(username)}&password=${encodeURIComponent(password)}`,
		json: true,
	});
	if ('failure' in result) {
		const failure = result.failure;
		if (failure.status === 401 || failure.status === 403) {
			throw new RenewalFailed(
				'sign-in',
				`Sign-in to the Ad Cabinet API failed: the API refused the username or password${said(failure, secrets)}. Check Username and Password in ${CREDENTIAL} (the ones you sign in to the cabinet with), save it and run again. ${NOT_PERFORMED}`,
			);
		}
		const address = addressTrouble('Sign-in to the Ad Cabinet API', url, failure, secrets);
		throw new RenewalFailed(
			'sign-in',
			`${address ?? `Sign-in to the Ad Cabinet API failed: the API refused the sign-in${said(failure, secrets)}. Check Username, Password and Base URL in ${CREDENTIAL}.`} ${NOT_PERFORMED}`,
		);
	}
	const body = parsed(result.answer);
	const access = body?.access_token;
	const refresh = body?.refresh_token;
	if (typeof access !== 'string' || access === '') {
		throw new RenewalFailed(
			'sign-in',
			`Sign-in to the Ad Cabinet API failed: ${url} answered without an access token, so it is probably not the Ad Cabinet API. Check Base URL in ${CREDENTIAL} (https://client.adstat.pro for the real service). ${NOT_PERFORMED}`,
		);
	}
	return {
		[SESSION.token]: access,
		[SESSION.refreshToken]: typeof refresh === 'string' ? refresh : '',
		[SESSION.owner]: owner,
	};
}

type RefreshOutcome = { token: string } | { refused: Failure } | { failed: Failure };

async function refresh(
	helper: HttpHelper,
	baseUrl: string,
	refreshToken: string,
): Promise<RefreshOutcome> {
	const result = await request(helper, {
		method: 'GET',
		url: `${baseUrl}${REFRESH_PATH}`,
		// The real service reads the refresh token from a header named refresh_token, not Authorization.
		headers: { refresh_token: refreshToken, Accept: 'application/json' },
		json: true,
	});
	if ('failure' in result) {
		const status = result.failure.status;
		return status === 401 || status === 403
			? { refused: result.failure }
			: { failed: result.failure };
	}
	const access = parsed(result.answer)?.access_token;
	if (typeof access !== 'string' || access === '') return { failed: { status: 200 } };
	return { token: access };
}

function refreshFailure(
	credentials: ICredentialDataDecryptedObject,
	baseUrl: string,
	outcome: { refused: Failure } | { failed: Failure },
): RenewalFailed {
	const secrets = secretsIn(credentials);
	const step = 'Renewing the access token with the refresh token';
	const switchOver = `Paste a new Refresh Token into ${CREDENTIAL}, or switch Sign-in Method to Username and Password so that n8n signs in again by itself when a refresh token runs out.`;
	if ('refused' in outcome) {
		return new RenewalFailed(
			'refresh',
			`${step} failed: the API refused the refresh token${said(outcome.refused, secrets)}. A refresh token lasts 30 days from sign-in and cannot be renewed itself. ${switchOver} ${NOT_PERFORMED}`,
		);
	}
	const url = `${baseUrl}${REFRESH_PATH}`;
	const address =
		outcome.failed.status === 200
			? `${step} failed: ${url} answered without an access token, so it is probably not the Ad Cabinet API. Check Base URL in ${CREDENTIAL}.`
			: addressTrouble(step, url, outcome.failed, secrets);
	return new RenewalFailed(
		'refresh',
		`${address ?? `${step} failed: the API refused the request${said(outcome.failed, secrets)}. ${switchOver}`} ${NOT_PERFORMED}`,
	);
}

async function obtain(
	helper: HttpHelper,
	credentials: ICredentialDataDecryptedObject,
): Promise<IDataObject> {
	const method = authMethodOf(credentials);
	const owner = sessionOwner(credentials);
	const baseUrl = baseUrlOf(credentials);
	if (!/^https?:\/\/[^\s/?#]+/i.test(baseUrl)) {
		throw new RenewalFailed(
			method === 'password' ? 'sign-in' : 'refresh',
			`${method === 'password' ? 'Sign-in to the Ad Cabinet API' : 'Renewing the access token'} failed: Base URL in ${CREDENTIAL} must be an http:// or https:// address (https://client.adstat.pro for the real service), got "${baseUrl}". ${NOT_PERFORMED}`,
		);
	}
	if (method === 'refreshToken') {
		const pasted = text(credentials, 'refreshToken').trim();
		if (pasted === '') {
			throw new RenewalFailed(
				'refresh',
				`Renewing the access token failed: Sign-in Method is Refresh Token but Refresh Token is empty in ${CREDENTIAL}. Paste a refresh token, or switch Sign-in Method to Username and Password. ${NOT_PERFORMED}`,
			);
		}
		const outcome = await refresh(helper, baseUrl, pasted);
		if ('token' in outcome) return { [SESSION.token]: outcome.token, [SESSION.owner]: owner };
		throw refreshFailure(credentials, baseUrl, outcome);
	}
	// Username and Password: the refresh token of the last sign-in while it works, else sign in.
	const kept =
		text(credentials, SESSION.owner) === owner ? text(credentials, SESSION.refreshToken) : '';
	if (kept !== '') {
		const outcome = await refresh(helper, baseUrl, kept);
		if ('token' in outcome) return { [SESSION.token]: outcome.token, [SESSION.owner]: owner };
	}
	return await signIn(helper, credentials, baseUrl, owner);
}

/** Renewals under way, by whose session and the token that expired. */
const shared = new Map<string, Promise<IDataObject>>();

/**
 * The credential's preAuthentication: obtains an access token by refresh or sign-in. Requests
 * that meet the same expired token while its renewal is under way (the parallel statistics parts,
 * several items) share that renewal instead of each signing in. With Access Token there is nothing
 * to obtain.
 */
export async function renewSession(
	this: HttpHelper,
	credentials: ICredentialDataDecryptedObject,
): Promise<IDataObject> {
	if (authMethodOf(credentials) === 'accessToken') return {};
	const key = `${sessionOwner(credentials)}\u0000${text(credentials, SESSION.token)}`;
	let renewal = shared.get(key);
	if (!renewal) {
		renewal = obtain(this, credentials);
		shared.set(key, renewal);
		// Once settled it is forgotten: a later request renews again, and a failure is tried again.
		const forget = () => shared.delete(key);
		renewal.then(forget, forget);
	}
	return { ...(await renewal) };
}

/** Forgets shared renewals (tests). */
export function forgetSharedRenewals(): void {
	shared.clear();
}
