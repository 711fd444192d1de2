import type { IDataObject } from 'n8n-workflow';
import { SESSION, type CredentialView } from './credentialView';
import { refresh, withRefreshToken } from './refresh';
import { firstReport, forgetRefusals, refusalKey, storedRefusal } from './refusals';
import {
	ACCESS_TOKEN_REFUSED,
	CREDENTIAL,
	NOT_PERFORMED,
	RenewalFailed,
	refusedSignIn,
	SIGN_IN_STEP,
} from './renewalMessages';
import type { HttpHelper } from './renewalRequest';
import { forgetObtained } from './secrets';
import { noteRepeat } from './sendCounts';
import { ownsSession, PASTED_MARK, randomKey, sessionOwner, wasSent } from './session';
import { signIn } from './signIn';

/**
 * How long a renewed token answers for requests that met the token it replaced: a request that
 * read the old token just before the renewal settled gets its 401 a moment later, and must not
 * renew again.
 */
export const SHARED_FOR_MS = 10_000;

async function obtain(helper: HttpHelper, view: CredentialView): Promise<IDataObject> {
	const method = view.authMethod;
	const baseUrl = view.baseUrl;
	if (!/^https?:\/\/[^\s/?#]+/i.test(baseUrl)) {
		throw new RenewalFailed(
			method === 'password' ? 'sign-in' : 'refresh',
			`${method === 'password' ? SIGN_IN_STEP : 'Renewing the access token'} failed: Base URL in ${CREDENTIAL} must be an http:// or https:// address (https://client.adstat.pro for the real service), got "${baseUrl}". ${NOT_PERFORMED}`,
		);
	}
	// A session obtained for these fields keeps its key; a new one gets a new key.
	const owned = ownsSession(view) && view.session.key !== '';
	const key = owned ? view.session.key : randomKey();
	const session = { [SESSION.owner]: sessionOwner(view, key), [SESSION.key]: key };
	if (method === 'refreshToken') return await withRefreshToken(helper, view, session);
	// Username and Password: the refresh token of the last sign-in while it works, else sign in. A
	// transient failure of the refresh is retried first; only a refused refresh token, or one that
	// kept failing, leads to a sign-in.
	const kept = ownsSession(view) ? view.session.refreshToken : '';
	if (kept !== '') {
		const outcome = await refresh(helper, view, kept);
		if ('token' in outcome) {
			return {
				...session,
				[SESSION.token]: outcome.token,
				[SESSION.refreshToken]: kept,
			};
		}
	}
	return await signIn(helper, view, session);
}

interface Shared {
	renewal: Promise<IDataObject>;
	/** When it settled with a token (Date.now() time); undefined while under way. */
	settledAt?: number;
	/** The token it obtained, once settled. */
	token?: string;
}

/** Renewals under way or just done, by whose session and the token that expired. */
const shared = new Map<string, Shared>();

function sweep(now: number): void {
	for (const [key, entry] of shared) {
		if (entry.settledAt !== undefined && entry.settledAt < now - SHARED_FOR_MS) shared.delete(key);
	}
}

/**
 * Whose renewals a request may share: the credential's own Session Key (a random value each
 * credential gets with its first token and keeps until its fields are edited), with the fields
 * that sign in. Two credentials of one account never share it, so neither is handed a token the
 * other's later renewals have ended. Empty when the credential holds no session of its own yet
 * (new, or edited since): nothing then tells it from another new credential of the same account.
 */
function sharerOf(view: CredentialView): string {
	if (!ownsSession(view) || view.session.key === '') return '';
	return view.session.key;
}

/**
 * The API answered 401 to a request sent with `token`: a renewal that obtained it is no longer
 * handed out, so the next request that meets the token it replaced renews at the API (refresh
 * first, then sign-in) instead of receiving a token the API has refused.
 */
export function dropRefused(token: string): void {
	if (token === '' || token === PASTED_MARK) return;
	for (const [key, entry] of shared) {
		if (entry.token === token) shared.delete(key);
	}
}

/**
 * The credential's preAuthentication: obtains an access token by refresh or sign-in. Requests
 * of the same credential that meet the same expired token while its renewal is under way, or up
 * to SHARED_FOR_MS after it (the parallel statistics parts, several items, a request that read
 * the token just before it was renewed) share that renewal instead of each renewing again. A
 * credential without a session of its own shares a renewal only while it is under way. With
 * Access Token there is nothing to obtain: the hidden token field gets a mark, so that n8n asks
 * again only after a 401.
 */
export async function renewSession(this: HttpHelper, view: CredentialView): Promise<IDataObject> {
	if (view.authMethod === 'accessToken') {
		// After a 401 the same pasted token would only be refused again: no repeat.
		if (wasSent(view)) throw new RenewalFailed('access-token', ACCESS_TOKEN_REFUSED);
		return { [SESSION.token]: PASTED_MARK };
	}
	// Asked after a 401: the token this request carried was refused.
	if (wasSent(view)) dropRefused(view.session.token);
	const now = Date.now();
	sweep(now);
	const sharer = sharerOf(view);
	const key = `${refusalKey(view)}\u0000${sharer}\u0000${view.session.token}`;
	let entry = shared.get(key);
	if (!entry) {
		const renewal = obtain(this, view);
		const created: Shared = { renewal };
		entry = created;
		shared.set(key, created);
		renewal.then(
			(session) => {
				const token = session[SESSION.token];
				// A token is handed out after it settled only within the credential that obtained it. A
				// refused sign-in (no token) belongs to the username and password, as its pause does.
				if (sharer === '' && typeof token === 'string' && token !== '') {
					if (shared.get(key) === created) shared.delete(key);
					return;
				}
				created.settledAt = Date.now();
				if (typeof token === 'string') created.token = token;
			},
			// A failure is not shared afterwards: a refused sign-in is remembered on its own, and
			// anything else is tried again by the next request.
			() => {
				if (shared.get(key) === created) shared.delete(key);
			},
		);
	}
	const session = { ...(await entry.renewal) };
	// Asked after a 401 (a request was already sent with this object): n8n sends it again now,
	// unless the session holds a refused sign-in, which authenticate reports instead of sending.
	if (wasSent(view) && session[SESSION.token] !== '') noteRepeat();
	return session;
}

/**
 * The error for a request that must not be sent: the credential holds a refused sign-in of its
 * username and password, and the pause after it is not over. Undefined when it may be sent.
 */
export function heldBack(view: CredentialView): RenewalFailed | undefined {
	const refusal = storedRefusal(view);
	if (!refusal || refusal.until <= Date.now()) return undefined;
	return new RenewalFailed('sign-in', refusedSignIn(refusal, !firstReport(refusal)));
}

/** Forgets shared renewals, remembered refusals and obtained tokens (tests). */
export function forgetSharedRenewals(): void {
	shared.clear();
	forgetRefusals();
	forgetObtained();
}
