import type { IDataObject } from 'n8n-workflow';
import { SESSION, type CredentialView } from './credentialView';
import {
	forgetRefusal,
	refusalInForce,
	refusalKey,
	refusalText,
	rememberRefusal,
	storedRefusal,
} from './refusals';
import {
	addressTrouble,
	CREDENTIAL,
	NOT_PERFORMED,
	RenewalFailed,
	refusedSignIn,
	said,
	SIGN_IN_STEP,
} from './renewalMessages';
import { parsed, renewalOwner, renewalPace, sendRenewal, type HttpHelper } from './renewalRequest';
import { rememberObtained, secretsOf } from './secrets';

const SIGN_IN_PATH = '/api/v2/login';

/**
 * Signs in with the credential's username and password and returns the session with both tokens.
 * A refused sign-in returns a session that holds the refusal instead: n8n stores it in the
 * credential, so no process sends the same username and password again until the credential is
 * edited or the pause is over. An empty field is said before anything is sent.
 */
export async function signIn(
	helper: HttpHelper,
	view: CredentialView,
	session: IDataObject,
): Promise<IDataObject> {
	const username = view.username.trim();
	const password = view.password;
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
	const fingerprint = refusalKey(view);
	const stored = storedRefusal(view);
	const refused =
		refusalInForce(fingerprint) ?? (stored && stored.until > Date.now() ? stored : undefined);
	if (refused) throw new RenewalFailed('sign-in', refusedSignIn(refused, true));
	const url = `${view.baseUrl}${SIGN_IN_PATH}`;
	const secrets = secretsOf(view);
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
		renewalPace(view, SIGN_IN_PATH),
		undefined,
		renewalOwner(view),
	);
	if ('failure' in result) {
		const failure = result.failure;
		if (failure.status === 401 || failure.status === 403) {
			const refusal = rememberRefusal(fingerprint, said(failure, secrets), Date.now(), stored);
			// Not thrown here: returned, n8n keeps it in the credential, where every process reads it,
			// and the credential's authenticate reports it instead of sending the request. The access
			// token stays empty, so n8n asks preAuthentication again before each request: that holds
			// the same fields back until the pause is over, and signs in at once when they are edited.
			return {
				...session,
				[SESSION.token]: '',
				[SESSION.refreshToken]: '',
				[SESSION.refusal]: refusalText(refusal),
			};
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
		[SESSION.refusal]: '',
	};
}
