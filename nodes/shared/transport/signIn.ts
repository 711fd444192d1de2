import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import { rememberObtained } from './obtainedTokens';
import { forgetRefusal, refusalInForce, refusalKey, rememberRefusal } from './refusals';
import {
	addressTrouble,
	CREDENTIAL,
	NOT_PERFORMED,
	RenewalFailed,
	refusedSignIn,
	said,
	SIGN_IN_STEP,
} from './renewalMessages';
import { parsed, renewalPace, sendRenewal, type HttpHelper } from './renewalRequest';
import { secretsIn, SESSION, text } from './session';

export const SIGN_IN_PATH = '/api/v2/login';

/**
 * Signs in with the credential's username and password and returns the session with both tokens.
 * A refused sign-in is remembered, so the same username and password are not sent again until the
 * credential is edited or the pause is over; an empty field is said before anything is sent.
 */
export async function signIn(
	helper: HttpHelper,
	credentials: ICredentialDataDecryptedObject,
	baseUrl: string,
	session: IDataObject,
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
			`${SIGN_IN_STEP} failed: ${missing} empty in ${CREDENTIAL}, and Sign-in Method is Username and Password. Fill in the username and password you use for the cabinet, or choose Access Token and paste a token. ${NOT_PERFORMED}`,
		);
	}
	const fingerprint = refusalKey(credentials);
	const refused = refusalInForce(fingerprint);
	if (refused) throw new RenewalFailed('sign-in', refusedSignIn(refused, true));
	const url = `${baseUrl}${SIGN_IN_PATH}`;
	const secrets = secretsIn(credentials);
	// The real service takes a form body, not JSON (the JSON {login, password} form was removed).
	const result = await sendRenewal(
		helper,
		{
			method: 'POST',
			url,
			headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
			body: `username=${encodeURIComponent(username)}&password=${encodeURIComponent(password)}`,
			json: true,
		},
		renewalPace(credentials, SIGN_IN_PATH),
	);
	if ('failure' in result) {
		const failure = result.failure;
		if (failure.status === 401 || failure.status === 403) {
			const refusal = rememberRefusal(fingerprint, said(failure, secrets));
			throw new RenewalFailed('sign-in', refusedSignIn(refusal, false));
		}
		const address = addressTrouble(SIGN_IN_STEP, url, failure, secrets, result.attempts);
		throw new RenewalFailed(
			'sign-in',
			`${address ?? `${SIGN_IN_STEP} failed: the API refused the sign-in${said(failure, secrets)}. Check Username, Password and Base URL in ${CREDENTIAL}.`} ${NOT_PERFORMED}`,
		);
	}
	const body = parsed(result.answer);
	const access = body?.access_token;
	const refresh = body?.refresh_token;
	if (typeof access !== 'string' || access === '') {
		throw new RenewalFailed(
			'sign-in',
			`${SIGN_IN_STEP} failed: ${url} answered without an access token, so it is probably not the Ad Cabinet API. Check Base URL in ${CREDENTIAL} (https://client.adstat.pro for the real service). ${NOT_PERFORMED}`,
		);
	}
	forgetRefusal(fingerprint);
	rememberObtained(access, refresh);
	return {
		...session,
		[SESSION.token]: access,
		[SESSION.refreshToken]: typeof refresh === 'string' ? refresh : '',
	};
}
