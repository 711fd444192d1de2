import type { IHttpRequestOptions } from 'n8n-workflow';
import type { CredentialView } from './credentialView';
import { dropRefused, heldBack } from './renewal';
import { noteSend, tokenSentLast } from './sendCounts';
import { bearerTokenOf, markSent } from './session';

/**
 * The token's life, behind the few calls the credential and the transport make: the credential's
 * hooks (renewSession as preAuthentication, authFor as authenticate), the view they and every
 * request read the credential into, the secrets to keep out of errors, and the counts of what
 * n8n sent again after a renewal.
 */
export {
	credentialViewOf,
	renewsItself,
	SESSION,
	viewOf,
	type CredentialView,
	type PaceLimit,
} from './credentialView';
export { forgetSharedRenewals, renewSession, SHARED_FOR_MS } from './renewal';
export { RenewalFailed } from './renewalMessages';
export { renewalOwner } from './renewalRequest';
export { secretsOf } from './secrets';
export { repeatsSoFar, sendsOf } from './sendCounts';

/**
 * The credential's authenticate: the request about to be sent, with its bearer token. A refused
 * sign-in of these very username and password, within its pause, is thrown instead: nothing is
 * sent. Without a token yet for these fields the request goes without one; the API answers 401
 * and n8n renews, then repeats it once.
 */
export function authFor(
	view: CredentialView,
	requestOptions: IHttpRequestOptions,
): IHttpRequestOptions {
	const refused = heldBack(view);
	if (refused) throw refused;
	const token = bearerTokenOf(view);
	// preAuthentication then knows it was asked after a 401: with Access Token the pasted token
	// was refused; otherwise n8n sends the request again with the renewed token (see renewSession).
	markSent(view);
	const headers = { ...(requestOptions.headers ?? {}) };
	if (token !== '') headers.Authorization = `Bearer ${token}`;
	const authenticated = { ...requestOptions, headers };
	// Counts each send of the request, n8n's own repeat after a renewal included, for the pacer.
	noteSend(requestOptions, authenticated, token);
	return authenticated;
}

/**
 * The API answered 401 to requests built with these options after n8n had renewed the token:
 * the tokens their last sends carried are not handed out again by a shared renewal.
 */
export function refusedWith(sent: object[]): void {
	for (const options of sent) dropRefused(tokenSentLast(options) ?? '');
}
