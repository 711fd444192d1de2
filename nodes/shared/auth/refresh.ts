import type { IDataObject } from 'n8n-workflow';
import type { Failure } from '../transport/apiFailure';
import { SESSION, type CredentialView } from './credentialView';
import { forgetRefusal, refusalInForce, refusalKey, rememberRefusal } from './refusals';
import {
	CREDENTIAL,
	failedRefresh,
	NOT_PERFORMED,
	RenewalFailed,
	refusedRefreshToken,
	said,
} from './renewalMessages';
import { parsed, renewalOwner, renewalPace, sendRenewal, type HttpHelper } from './renewalRequest';
import { rememberObtained, secretsOf } from './secrets';

export const REFRESH_PATH = '/api/v2/access-token';

type RefreshOutcome =
	{ token: string } | { refused: Failure } | { failed: Failure; attempts: number };

/** One refresh: a new access token for the refresh token, or why there is none. */
export async function refresh(
	helper: HttpHelper,
	view: CredentialView,
	refreshToken: string,
): Promise<RefreshOutcome> {
	const result = await sendRenewal(
		helper,
		{
			method: 'GET',
			url: `${view.baseUrl}${REFRESH_PATH}`,
			// The real service reads the refresh token from a header named refresh_token, not Authorization.
			headers: { refresh_token: refreshToken, Accept: 'application/json' },
			json: true,
		},
		renewalPace(view, REFRESH_PATH),
		undefined,
		renewalOwner(view),
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

/**
 * The Refresh Token method: the pasted refresh token renews the access token. A refused one is
 * not sent again until the pause after the refusal is over or the credential is edited.
 */
export async function withRefreshToken(
	helper: HttpHelper,
	view: CredentialView,
	session: IDataObject,
): Promise<IDataObject> {
	const pasted = view.refreshToken.trim();
	if (pasted === '') {
		throw new RenewalFailed(
			'refresh',
			`Renewing the access token failed: Sign-in Method is Refresh Token but Refresh Token is empty in ${CREDENTIAL}. Paste a refresh token, or switch Sign-in Method to Username and Password. ${NOT_PERFORMED}`,
		);
	}
	const fingerprint = refusalKey(view);
	const refused = refusalInForce(fingerprint);
	if (refused) throw new RenewalFailed('refresh', refusedRefreshToken(refused, true));
	const outcome = await refresh(helper, view, pasted);
	if ('token' in outcome) {
		forgetRefusal(fingerprint);
		return { ...session, [SESSION.token]: outcome.token };
	}
	const secrets = secretsOf(view);
	if ('refused' in outcome) {
		const refusal = rememberRefusal(fingerprint, said(outcome.refused, secrets));
		throw new RenewalFailed('refresh', refusedRefreshToken(refusal, false));
	}
	const url = `${view.baseUrl}${REFRESH_PATH}`;
	throw new RenewalFailed('refresh', failedRefresh(url, outcome.failed, secrets, outcome.attempts));
}
