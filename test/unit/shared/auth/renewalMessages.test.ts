import { forgetObtained, rememberObtained } from '../../../../nodes/shared/auth/secrets';
import {
	ACCESS_TOKEN_REFUSED,
	addressTrouble,
	failedRefresh,
	NOT_PERFORMED,
	RENEWED_TOKEN_REFUSED,
	RenewalFailed,
	refusedRefreshToken,
	refusedSignIn,
	said,
	SIGN_IN_STEP,
} from '../../../../nodes/shared/auth/renewalMessages';
import type { Refusal } from '../../../../nodes/shared/auth/refusals';
import { readFailure, renewalFailureIn } from '../../../../nodes/shared/transport/apiFailure';

const URL = 'https://client.example.test/api/v2/login';
const SECRET = 'pa55-word-secret';

/** Refused at 10:00:00 UTC, for 5 minutes. */
const REFUSAL: Refusal = {
	at: Date.parse('2026-03-01T10:00:00Z'),
	until: Date.parse('2026-03-01T10:05:00Z'),
	pauseMs: 5 * 60_000,
	said: ' (401: Incorrect username or password)',
};

beforeEach(() => forgetObtained());

describe('RenewalFailed: a failed sign-in or refresh as n8n shows it', () => {
	test('its message is kept as written and its step is found again through the errors n8n wraps it in', () => {
		const failed = new RenewalFailed('sign-in', 'Sign-in failed: because.');
		expect(failed.message).toBe('Sign-in failed: because.');
		const wrapped = { name: 'NodeApiError', cause: { name: 'Error', cause: failed } };
		expect(renewalFailureIn(wrapped)).toEqual({
			message: 'Sign-in failed: because.',
			step: 'sign-in',
		});
		// Not retried: a wrong password stays wrong.
		expect(readFailure(wrapped)).toEqual({ renewal: 'Sign-in failed: because.' });
	});

	test('a refused pasted token reads as the API answer it was (401)', () => {
		const failure = readFailure(new RenewalFailed('access-token', ACCESS_TOKEN_REFUSED));
		expect(failure).toEqual({ renewal: ACCESS_TOKEN_REFUSED, status: 401 });
	});
});

describe('said: what the API answered, quoted without a secret', () => {
	test('the status and the words, a password or an obtained token masked', () => {
		rememberObtained('obtained-token-4242');
		const failure = {
			status: 401,
			body: { detail: `No user with password ${SECRET} or token obtained-token-4242.` },
		};
		expect(said(failure, [SECRET])).toBe(' (401: No user with password *** or token ***)');
		expect(said(failure, [SECRET], false)).toBe(' (No user with password *** or token ***)');
	});

	test('no answer: what happened to the connection, in words; nothing at all: nothing', () => {
		expect(said({ code: 'ECONNREFUSED' }, [])).toBe(' (the connection was refused)');
		expect(said({}, [])).toBe('');
	});
});

describe('addressTrouble: when the address or the service is at fault, not the password', () => {
	const trouble = (failure: Parameters<typeof addressTrouble>[2], attempts = 1) =>
		addressTrouble(SIGN_IN_STEP, URL, failure, [SECRET], attempts);

	test('a redirect is not followed, so nothing secret was sent on', () => {
		expect(trouble({ status: 302 })).toBe(
			"Sign-in to the Ad Cabinet API failed: the Base URL (client.example.test) answered 302 with a redirect, which is not followed, so nothing secret was sent on. Check Base URL in the Ad Cabinet API credential: it must be the API's own address (https://client.adstat.pro for the real service).",
		);
	});

	test('404 or 405: no Ad Cabinet API at that Base URL', () => {
		expect(trouble({ status: 404 })).toMatch(
			/^Sign-in to the Ad Cabinet API failed: https:\/\/client\.example\.test\/api\/v2\/login answered 404, so there is no Ad Cabinet API at this Base URL\./,
		);
	});

	test('no answer, a deadline, a rate limit and a server fault each say how often it was tried', () => {
		expect(trouble({ code: 'ECONNREFUSED' }, 5)).toBe(
			'Sign-in to the Ad Cabinet API failed after 5 attempts: the Base URL (client.example.test) could not be reached (the connection was refused). Check Base URL in the Ad Cabinet API credential and that n8n can reach that address.',
		);
		expect(trouble({ code: 'ETIMEDOUT', deadlineMs: 30_000 }, 2)).toBe(
			'Sign-in to the Ad Cabinet API failed: client.example.test did not finish answering within 30 s after 2 attempts. Check Base URL in the Ad Cabinet API credential and that n8n can reach that address, then run again.',
		);
		expect(trouble({ status: 429, body: { detail: 'Slow down' } })).toBe(
			'Sign-in to the Ad Cabinet API failed: the API limits requests and answered 429 (Slow down), and its block would outlast the time a renewal may wait. Wait a minute, then run again.',
		);
		expect(trouble({ status: 503 }, 5)).toMatch(
			/^Sign-in to the Ad Cabinet API failed after 5 attempts: the API answered 503\. It is a fault on the service's side/,
		);
	});

	test('a refusal of the fields themselves (401, 400) is not the address', () => {
		expect(trouble({ status: 401 })).toBeUndefined();
		expect(trouble({ status: 400 })).toBeUndefined();
	});
});

describe('a refused sign-in says when the next attempt is and how to try now', () => {
	test('first met: the pause begins now', () => {
		expect(refusedSignIn(REFUSAL, false, REFUSAL.at)).toBe(
			`Sign-in to the Ad Cabinet API failed: the API refused the username or password (401: Incorrect username or password). Check Username and Password in the Ad Cabinet API credential (the ones you sign in to the cabinet with), save it and run again: n8n tries this username and password again at 10:05:00 UTC (in 5 minutes), not before, so that repeated attempts do not lock the account. Editing the credential tries again at once. ${NOT_PERFORMED}`,
		);
	});

	test('remembered: the sign-in was not sent again, and the time left is counted from now', () => {
		const message = refusedSignIn(REFUSAL, true, REFUSAL.at + 60_000);
		expect(message).toContain(
			'n8n did not send the sign-in again: the API refused this username and password at 10:00:00 UTC, and n8n tries them again at 10:05:00 UTC (in 4 minutes)',
		);
		expect(message).toMatch(/running it again after the fix is safe\.$/);
	});

	test('a refused refresh token: it lasts 30 days and cannot be renewed; paste a new one or sign in', () => {
		const message = refusedRefreshToken(REFUSAL, false, REFUSAL.at);
		expect(message).toMatch(
			/^Renewing the access token with the refresh token failed: the API refused the refresh token \(401: Incorrect username or password\)\. A refresh token lasts 30 days from sign-in and cannot be renewed itself\. Paste a new Refresh Token/,
		);
		expect(message).toContain('n8n tries this refresh token again at 10:05:00 UTC (in 5 minutes)');
	});
});

describe('failedRefresh: a refresh that failed for another reason', () => {
	test('an answer without an access token is probably not the API', () => {
		expect(failedRefresh(URL, { status: 200 }, [], 1)).toBe(
			`Renewing the access token with the refresh token failed: ${URL} answered without an access token, so it is probably not the Ad Cabinet API. Check Base URL in the Ad Cabinet API credential. ${NOT_PERFORMED}`,
		);
	});

	test('another refusal quotes the API, masked, and says what to change', () => {
		const message = failedRefresh(
			URL,
			{ status: 400, body: { detail: `bad ${SECRET}` } },
			[SECRET],
			1,
		);
		expect(message).toMatch(
			/^Renewing the access token with the refresh token failed: the API refused the request \(400: bad \*\*\*\)\. Paste a new Refresh Token/,
		);
		expect(message).not.toContain(SECRET);
	});
});

describe('the refusals that only a new token helps', () => {
	test('a refused pasted token names the fix and that running again is safe', () => {
		expect(ACCESS_TOKEN_REFUSED).toMatch(
			/^The Ad Cabinet API refused the pasted access token \(401\)/,
		);
		expect(ACCESS_TOKEN_REFUSED).toContain('Paste a new token into Access Token');
		expect(ACCESS_TOKEN_REFUSED).toMatch(/running it again is safe\.$/);
	});

	test('a renewed token refused twice names the likely cause: another client of the same account', () => {
		expect(RENEWED_TOKEN_REFUSED).toContain('another client signing in with the same account');
		expect(RENEWED_TOKEN_REFUSED).toMatch(
			/The request was not performed, so running it again is safe\.$/,
		);
	});
});
