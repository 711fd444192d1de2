import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { CREDENTIAL_TYPE } from '../constants';

/**
 * How the credential gets its access token (the real service: an access token lives 1 hour, a
 * refresh token 30 days). `password` and `refreshToken` renew it by themselves through n8n's
 * preAuthentication; `accessToken` uses the pasted token as it is.
 */
const AUTH_METHODS = ['password', 'refreshToken', 'accessToken'] as const;
type AuthMethod = (typeof AUTH_METHODS)[number];

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

/** What sign-in or refresh stored in the credential's hidden fields, as text ('' when empty). */
interface StoredSession {
	token: string;
	refreshToken: string;
	owner: string;
	key: string;
	refusal: string;
}

/**
 * The rate limit the credential sets: at most `requests` request starts in any `windowMs`, per
 * credential and URL path (the pacer in the transport keeps to it).
 */
export interface PaceLimit {
	requests: number;
	windowMs: number;
}

/**
 * The credential as the package uses it, read once where n8n hands it over (the credential's
 * hooks, a node's request). Text fields are '' when empty or not text; nothing below this view
 * reads the credential's raw fields.
 */
export interface CredentialView {
	/**
	 * The object n8n handed over, only to recognise it again: n8n gives the same object to
	 * preAuthentication and to authenticate, which tells a renewal after a 401 from a first one.
	 */
	readonly identity: object;
	/** As saved ('' when not chosen); the naming map checks it when a request is made. */
	platform: string;
	authMethod: AuthMethod;
	/** Without surrounding spaces and trailing slashes, as every request uses it. */
	baseUrl: string;
	clientApiUrl: string;
	username: string;
	password: string;
	/** The pasted refresh token (Refresh Token method). */
	refreshToken: string;
	/** The pasted access token (Access Token method), as typed. */
	accessToken: string;
	session: StoredSession;
	/** The API's rate limit per URL path; undefined when pacing is off (0 requests). */
	pace: PaceLimit | undefined;
}

function text(credentials: ICredentialDataDecryptedObject, key: string): string {
	const value = credentials[key];
	return typeof value === 'string' ? value : '';
}

function address(credentials: ICredentialDataDecryptedObject, key: string): string {
	return text(credentials, key).trim().replace(/\/+$/, '');
}

/** A credential without a sign-in method (saved before there was a choice) holding a token uses it. */
function authMethodIn(credentials: ICredentialDataDecryptedObject): AuthMethod {
	const method = credentials.authMethod;
	if (typeof method === 'string' && (AUTH_METHODS as readonly string[]).includes(method)) {
		return method as AuthMethod;
	}
	return text(credentials, 'accessToken') !== '' ? 'accessToken' : 'password';
}

/** Rate Limit Requests in each Rate Limit Window (seconds, 60 when missing); 0 turns pacing off. */
function paceIn(credentials: ICredentialDataDecryptedObject): PaceLimit | undefined {
	const requests = Number(credentials.rateLimitRequests);
	const windowSeconds = Number(credentials.rateLimitWindow ?? 60);
	if (!Number.isFinite(requests) || requests < 1) return undefined;
	if (!Number.isFinite(windowSeconds) || windowSeconds <= 0) return undefined;
	return { requests: Math.floor(requests), windowMs: windowSeconds * 1000 };
}

function platformIn(credentials: ICredentialDataDecryptedObject): string {
	const value = credentials.platform;
	if (value === undefined || value === null) return '';
	return typeof value === 'string' ? value : String(value);
}

/** Reads the credential n8n handed over into the view: the one place its fields are read. */
export function viewOf(credentials: ICredentialDataDecryptedObject): CredentialView {
	return {
		identity: credentials,
		platform: platformIn(credentials),
		authMethod: authMethodIn(credentials),
		baseUrl: address(credentials, 'baseUrl'),
		clientApiUrl: address(credentials, 'clientApiUrl'),
		username: text(credentials, 'username'),
		password: text(credentials, 'password'),
		refreshToken: text(credentials, 'refreshToken'),
		accessToken: text(credentials, 'accessToken'),
		session: {
			token: text(credentials, SESSION.token),
			refreshToken: text(credentials, SESSION.refreshToken),
			owner: text(credentials, SESSION.owner),
			key: text(credentials, SESSION.key),
			refusal: text(credentials, SESSION.refusal),
		},
		pace: paceIn(credentials),
	};
}

/** What every n8n function context that runs with the credential offers. */
interface WithCredentials {
	getCredentials(type: string): Promise<ICredentialDataDecryptedObject>;
}

/** The credential of the node that runs, read into the view when a request is made. */
export async function credentialViewOf(ctx: WithCredentials): Promise<CredentialView> {
	return viewOf(await ctx.getCredentials(CREDENTIAL_TYPE));
}

/** Whether the credential renews its own token (Username and Password, Refresh Token). */
export function renewsItself(view: CredentialView): boolean {
	return view.authMethod !== 'accessToken';
}
