import {
	apiMessage,
	connectionWords,
	noteRenewalFailure,
	RENEWAL_FAILED,
	type Failure,
} from '../transport/apiFailure';
import { clockTime, duration, type Refusal } from './refusals';
import { scrub } from './secrets';

export const CREDENTIAL = 'the Ad Cabinet API credential';
export const NOT_PERFORMED =
	'The request itself was not performed, so running it again after the fix is safe.';
export const SIGN_IN_STEP = 'Sign-in to the Ad Cabinet API';
const REFRESH_STEP = 'Renewing the access token with the refresh token';

type RenewalStep = 'sign-in' | 'refresh' | 'access-token';

/**
 * Sign-in or refresh failed, or a token was refused for good. The message stands alone: which
 * step, what the API said, what to change in the credential. It carries no status or code of its
 * own, so that n8n shows the message as written (in a node's error and in the credential Test) and
 * nothing retries it.
 */
export class RenewalFailed extends Error {
	readonly adCabinetRenewal: RenewalStep;

	constructor(step: RenewalStep, message: string) {
		super(message);
		this.name = RENEWAL_FAILED;
		this.adCabinetRenewal = step;
		noteRenewalFailure(message, step);
	}
}

/** What the API said, in brackets (with its status unless told not to), never echoing a secret. */
export function said(failure: Failure, secrets: string[], withStatus = true): string {
	if (failure.status === undefined && failure.body === undefined) {
		const why = connectionWords(failure);
		return why ? ` (${scrub(why, secrets)})` : '';
	}
	const words = apiMessage(failure)?.replace(/[.\s]+$/, '');
	const status = withStatus && failure.status !== undefined ? String(failure.status) : undefined;
	if (!status) return words ? ` (${scrub(words, secrets)})` : '';
	return ` (${status}${words ? `: ${scrub(words, secrets)}` : ''})`;
}

function hostOf(url: string): string {
	try {
		return new URL(url).host;
	} catch {
		return url;
	}
}

/** ", after 5 attempts" when a transient failure was retried. */
function tried(attempts: number): string {
	return attempts > 1 ? ` after ${attempts} attempts` : '';
}

/**
 * Why a sign-in or refresh request failed, when the reason is the address or the service rather
 * than the username, password or token: no answer, a redirect, a 404, a rate limit, a server error.
 */
export function addressTrouble(
	step: string,
	url: string,
	failure: Failure,
	secrets: string[],
	attempts = 1,
): string | undefined {
	const base = `Base URL (${hostOf(url)})`;
	if (failure.deadlineMs !== undefined) {
		return `${step} failed: ${hostOf(url)} did not finish answering within ${failure.deadlineMs / 1000} s${tried(attempts)}. Check Base URL in ${CREDENTIAL} and that n8n can reach that address, then run again.`;
	}
	if (failure.status === undefined) {
		return `${step} failed${tried(attempts)}: the ${base} could not be reached${said(failure, secrets)}. Check Base URL in ${CREDENTIAL} and that n8n can reach that address.`;
	}
	if (failure.status >= 300 && failure.status < 400) {
		return `${step} failed: the ${base} answered ${failure.status} with a redirect, which is not followed, so nothing secret was sent on. Check Base URL in ${CREDENTIAL}: it must be the API's own address (https://client.adstat.pro for the real service).`;
	}
	if (failure.status === 404 || failure.status === 405) {
		return `${step} failed: ${url} answered ${failure.status}, so there is no Ad Cabinet API at this Base URL. Check Base URL in ${CREDENTIAL} (https://client.adstat.pro for the real service).`;
	}
	if (failure.status === 429) {
		return `${step} failed${tried(attempts)}: the API limits requests and answered 429${said(failure, secrets, false)}, and its block would outlast the time a renewal may wait. Wait a minute, then run again.`;
	}
	if (failure.status >= 500) {
		return `${step} failed${tried(attempts)}: the API answered ${failure.status}${said(failure, secrets, false)}. It is a fault on the service's side: try again later, and check Base URL in ${CREDENTIAL} if it persists.`;
	}
	return undefined;
}

/** The refused sign-in, first met or remembered: when the next attempt is, and how to retry now. */
export function refusedSignIn(refusal: Refusal, remembered: boolean, now = Date.now()): string {
	const when = remembered
		? `n8n did not send the sign-in again: the API refused this username and password at ${clockTime(refusal.at)}, and n8n tries them again at ${clockTime(refusal.until)} (in ${duration(refusal.until - now)})`
		: `n8n tries this username and password again at ${clockTime(refusal.until)} (in ${duration(refusal.pauseMs)}), not before, so that repeated attempts do not lock the account`;
	return `${SIGN_IN_STEP} failed: the API refused the username or password${refusal.said}. Check Username and Password in ${CREDENTIAL} (the ones you sign in to the cabinet with), save it and run again: ${when}. Editing the credential tries again at once. ${NOT_PERFORMED}`;
}

const SWITCH_OVER = `Paste a new Refresh Token into ${CREDENTIAL}, or switch Sign-in Method to Username and Password so that n8n signs in again by itself when a refresh token runs out.`;

/** The refused refresh token (Refresh Token method), first met or remembered. */
export function refusedRefreshToken(
	refusal: Refusal,
	remembered: boolean,
	now = Date.now(),
): string {
	const when = remembered
		? `n8n did not send it again: the API refused this refresh token at ${clockTime(refusal.at)}, and n8n tries it again at ${clockTime(refusal.until)} (in ${duration(refusal.until - now)})`
		: `n8n tries this refresh token again at ${clockTime(refusal.until)} (in ${duration(refusal.pauseMs)}), not before`;
	return `${REFRESH_STEP} failed: the API refused the refresh token${refusal.said}. A refresh token lasts 30 days from sign-in and cannot be renewed itself. ${SWITCH_OVER} Editing the credential tries again at once; until then ${when}. ${NOT_PERFORMED}`;
}

/** A refresh that failed for another reason than a refused token. */
export function failedRefresh(
	url: string,
	failure: Failure,
	secrets: string[],
	attempts: number,
): string {
	const address =
		failure.status === 200
			? `${REFRESH_STEP} failed: ${url} answered without an access token, so it is probably not the Ad Cabinet API. Check Base URL in ${CREDENTIAL}.`
			: addressTrouble(REFRESH_STEP, url, failure, secrets, attempts);
	return `${address ?? `${REFRESH_STEP} failed: the API refused the request${said(failure, secrets)}. ${SWITCH_OVER}`} ${NOT_PERFORMED}`;
}

/** With the Access Token method a refused token is not sent again: only a new one helps. */
export const ACCESS_TOKEN_REFUSED = `The Ad Cabinet API refused the pasted access token (401): it is wrong, expired (it lasts 1 hour on the real service) or revoked, and n8n does not send the same token again. Paste a new token into Access Token in ${CREDENTIAL}, or switch Sign-in Method to Username and Password so that n8n renews the token by itself. Then run again; the request was not performed, so running it again is safe.`;

/** The renewed token was refused too, and so was the one read back from the credential. */
export const RENEWED_TOKEN_REFUSED = `The Ad Cabinet API refused the access token (401) even after n8n renewed it and read the credential once more for a token another n8n process may have stored. The likely cause is another client signing in with the same account (another n8n instance, a script or a browser session): services that keep one session per account end the earlier tokens when a new one is issued. Give this n8n an account of its own, or stop the other client, then run again. The request was not performed, so running it again is safe.`;
