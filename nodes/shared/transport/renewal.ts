import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import type { Failure } from './failure';
import { forgetObtained, rememberObtained } from './obtainedTokens';
import { signIn } from './signIn';
import {
	firstReport,
	forgetRefusal,
	forgetRefusals,
	refusalInForce,
	refusalKey,
	rememberRefusal,
	storedRefusal,
} from './refusals';
import {
	ACCESS_TOKEN_REFUSED,
	CREDENTIAL,
	failedRefresh,
	NOT_PERFORMED,
	RenewalFailed,
	refusedRefreshToken,
	refusedSignIn,
	said,
	SIGN_IN_STEP,
} from './renewalMessages';
import { parsed, renewalPace, sendRenewal, type HttpHelper } from './renewalRequest';
import {
	authMethodOf,
	baseUrlOf,
	ownsSession,
	PASTED_MARK,
	randomKey,
	secretsIn,
	SESSION,
	sessionOwner,
	text,
	wasSent,
} from './session';

export {
	AUTH_METHODS,
	authMethodOf,
	bearerTokenOf,
	markSent,
	SESSION,
	sessionOwner,
	type AuthMethod,
} from './session';
export { RenewalFailed, type RenewalStep } from './renewalMessages';

export const REFRESH_PATH = '/api/v2/access-token';

/**
 * How long a renewed token answers for requests that met the token it replaced: a request that
 * read the old token just before the renewal settled gets its 401 a moment later, and must not
 * renew again.
 */
export const SHARED_FOR_MS = 10_000;

type RefreshOutcome =
	{ token: string } | { refused: Failure } | { failed: Failure; attempts: number };

async function refresh(
	helper: HttpHelper,
	credentials: ICredentialDataDecryptedObject,
	refreshToken: string,
): Promise<RefreshOutcome> {
	const result = await sendRenewal(
		helper,
		{
			method: 'GET',
			url: `${baseUrlOf(credentials)}${REFRESH_PATH}`,
			// The real service reads the refresh token from a header named refresh_token, not Authorization.
			headers: { refresh_token: refreshToken, Accept: 'application/json' },
			json: true,
		},
		renewalPace(credentials, REFRESH_PATH),
	);
	if ('failure' in result) {
		const status = result.failure.status;
		return status === 401 || status === 403
			? { refused: result.failure }
			: { failed: result.failure, attempts: result.attempts };
	}
	const access = parsed(result.answer)?.access_token;
	if (typeof access !== 'string' || access === '') {
		return { failed: { status: 200 }, attempts: result.attempts };
	}
	rememberObtained(access);
	return { token: access };
}

async function withRefreshToken(
	helper: HttpHelper,
	credentials: ICredentialDataDecryptedObject,
	session: IDataObject,
): Promise<IDataObject> {
	const pasted = text(credentials, 'refreshToken').trim();
	if (pasted === '') {
		throw new RenewalFailed(
			'refresh',
			`Renewing the access token failed: Sign-in Method is Refresh Token but Refresh Token is empty in ${CREDENTIAL}. Paste a refresh token, or switch Sign-in Method to Username and Password. ${NOT_PERFORMED}`,
		);
	}
	const fingerprint = refusalKey(credentials);
	const refused = refusalInForce(fingerprint);
	if (refused) throw new RenewalFailed('refresh', refusedRefreshToken(refused, true));
	const outcome = await refresh(helper, credentials, pasted);
	if ('token' in outcome) {
		forgetRefusal(fingerprint);
		return { ...session, [SESSION.token]: outcome.token };
	}
	const secrets = secretsIn(credentials);
	if ('refused' in outcome) {
		const refusal = rememberRefusal(fingerprint, said(outcome.refused, secrets));
		throw new RenewalFailed('refresh', refusedRefreshToken(refusal, false));
	}
	const url = `${baseUrlOf(credentials)}${REFRESH_PATH}`;
	throw new RenewalFailed('refresh', failedRefresh(url, outcome.failed, secrets, outcome.attempts));
}

async function obtain(
	helper: HttpHelper,
	credentials: ICredentialDataDecryptedObject,
): Promise<IDataObject> {
	const method = authMethodOf(credentials);
	const baseUrl = baseUrlOf(credentials);
	if (!/^https?:\/\/[^\s/?#]+/i.test(baseUrl)) {
		throw new RenewalFailed(
			method === 'password' ? 'sign-in' : 'refresh',
			`${method === 'password' ? SIGN_IN_STEP : 'Renewing the access token'} failed: Base URL in ${CREDENTIAL} must be an http:// or https:// address (https://client.adstat.pro for the real service), got "${baseUrl}". ${NOT_PERFORMED}`,
		);
	}
	// A session obtained for these fields keeps its key; a new one gets a new key.
	const owned = ownsSession(credentials) && text(credentials, SESSION.key) !== '';
	const key = owned ? text(credentials, SESSION.key) : randomKey();
	const session = { [SESSION.owner]: sessionOwner(credentials, key), [SESSION.key]: key };
	if (method === 'refreshToken') return await withRefreshToken(helper, credentials, session);
	// Username and Password: the refresh token of the last sign-in while it works, else sign in. A
	// transient failure of the refresh is retried first; only a refused refresh token, or one that
	// kept failing, leads to a sign-in.
	const kept = ownsSession(credentials) ? text(credentials, SESSION.refreshToken) : '';
	if (kept !== '') {
		const outcome = await refresh(helper, credentials, kept);
		if ('token' in outcome) {
			return {
				...session,
				[SESSION.token]: outcome.token,
				[SESSION.refreshToken]: kept,
			};
		}
	}
	return await signIn(helper, credentials, baseUrl, session);
}

interface Shared {
	renewal: Promise<IDataObject>;
	/** When it settled with a token (Date.now() time); undefined while under way. */
	settledAt?: number;
}

/** Renewals under way or just done, by whose session and the token that expired. */
const shared = new Map<string, Shared>();

function sweep(now: number): void {
	for (const [key, entry] of shared) {
		if (entry.settledAt !== undefined && entry.settledAt < now - SHARED_FOR_MS) shared.delete(key);
	}
}

/**
 * The credential's preAuthentication: obtains an access token by refresh or sign-in. Requests
 * that meet the same expired token while its renewal is under way, or up to SHARED_FOR_MS after
 * it (the parallel statistics parts, several items, a request that read the token just before it
 * was renewed) share that renewal instead of each renewing again. With Access Token there is
 * nothing to obtain: the hidden token field gets a mark, so that n8n asks again only after a 401.
 */
export async function renewSession(
	this: HttpHelper,
	credentials: ICredentialDataDecryptedObject,
): Promise<IDataObject> {
	if (authMethodOf(credentials) === 'accessToken') {
		// After a 401 the same pasted token would only be refused again: no repeat.
		if (wasSent(credentials)) throw new RenewalFailed('access-token', ACCESS_TOKEN_REFUSED);
		return { [SESSION.token]: PASTED_MARK };
	}
	const now = Date.now();
	sweep(now);
	const key = `${refusalKey(credentials)}\u0000${text(credentials, SESSION.token)}`;
	let entry = shared.get(key);
	if (!entry) {
		const renewal = obtain(this, credentials);
		const created: Shared = { renewal };
		entry = created;
		shared.set(key, created);
		renewal.then(
			() => {
				created.settledAt = Date.now();
			},
			// A failure is not shared afterwards: a refused sign-in is remembered on its own, and
			// anything else is tried again by the next request.
			() => shared.delete(key),
		);
	}
	const session = { ...(await entry.renewal) };
	// Asked after a 401 (a request was already sent with this object): n8n sends it again now,
	// unless the session holds a refused sign-in, which authenticate reports instead of sending.
	if (wasSent(credentials) && session[SESSION.token] !== '') repeats += 1;
	return session;
}

/**
 * The error for a request that must not be sent: the credential holds a refused sign-in of its
 * username and password, and the pause after it is not over. Undefined when it may be sent.
 */
export function heldBack(credentials: ICredentialDataDecryptedObject): RenewalFailed | undefined {
	const refusal = storedRefusal(credentials);
	if (!refusal || refusal.until <= Date.now()) return undefined;
	return new RenewalFailed('sign-in', refusedSignIn(refusal, !firstReport(refusal)));
}

/** Requests this process let n8n send again after a 401, with a renewed token. */
let repeats = 0;

/**
 * How many requests n8n has sent again after a 401 in this process so far. A request during
 * which the count did not move was sent once.
 */
export function repeatsSoFar(): number {
	return repeats;
}

/** Forgets shared renewals, remembered refusals and obtained tokens (tests). */
export function forgetSharedRenewals(): void {
	shared.clear();
	forgetRefusals();
	forgetObtained();
}
