import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { SESSION, viewOf } from '../../../../nodes/shared/auth/credentialView';
import { forgetSharedRenewals, renewSession } from '../../../../nodes/shared/auth/renewal';
import { repeatsSoFar } from '../../../../nodes/shared/auth/sendCounts';
import { forgetRefusals } from '../../../../nodes/shared/auth/refusals';
import { bearerTokenOf, markSent, sessionOwner } from '../../../../nodes/shared/auth/session';
import { deferred, httpError, settle } from '../../../support/fakeContext';
import {
	BASE,
	beforeRequest,
	failureOf,
	helper,
	login,
	PASSWORD,
	passwordCredential,
	PASTED_REFRESH,
	refresh,
	signedIn,
} from '../../../support/renewalContext';

const authMethodOf = (credentials: ICredentialDataDecryptedObject) =>
	viewOf(credentials).authMethod;

beforeEach(() => forgetSharedRenewals());
afterEach(() => jest.restoreAllMocks());

describe('renewal: the refresh token while it works, sign-in when it does not', () => {
	test("an expired access token is renewed with the last sign-in's refresh token, in a header named refresh_token", async () => {
		const { self, httpRequest } = helper(() => ({ access_token: 'acc-2', token_type: 'Bearer' }));
		const credentials = signedIn(passwordCredential());
		const output = await renewSession.call(self, viewOf(credentials));
		expect(httpRequest).toHaveBeenCalledTimes(1);
		expect(httpRequest.mock.calls[0][0]).toMatchObject({
			method: 'GET',
			url: `${BASE}/api/v2/access-token`,
			headers: { refresh_token: 'kept-refresh-1' },
		});
		expect(httpRequest.mock.calls[0][0].headers).not.toHaveProperty('Authorization');
		// The refresh token is kept as it is: refreshing does not renew it.
		expect(output).toEqual({
			[SESSION.token]: 'acc-2',
			[SESSION.refreshToken]: 'kept-refresh-1',
			[SESSION.owner]: credentials[SESSION.owner],
			[SESSION.key]: credentials[SESSION.key],
		});
	});

	test('a refused refresh token falls back to signing in again', async () => {
		const { self, httpRequest } = helper((options) => {
			if (refresh(options))
				throw httpError(401, { detail: 'Refresh Token Expired', status_code: 401 });
			return { access_token: 'acc-3', refresh_token: 'ref-3' };
		});
		const output = await renewSession.call(self, viewOf(signedIn(passwordCredential())));
		expect(httpRequest.mock.calls.map(([o]) => (login(o) ? 'sign-in' : 'refresh'))).toEqual([
			'refresh',
			'sign-in',
		]);
		expect(output).toMatchObject({ [SESSION.token]: 'acc-3', [SESSION.refreshToken]: 'ref-3' });
	});

	test('after the username or password changed, the old session is not used: n8n signs in with the new ones', async () => {
		const { self, httpRequest } = helper(() => ({ access_token: 'acc-4', refresh_token: 'ref-4' }));
		const before = signedIn(passwordCredential());
		const edited = { ...before, password: 'a-new-password' };
		// Requests carry no token until the renewal: the API answers 401 and n8n renews.
		expect(bearerTokenOf(viewOf(edited))).toBe('');
		await renewSession.call(self, viewOf(edited));
		expect(httpRequest).toHaveBeenCalledTimes(1);
		expect(login(httpRequest.mock.calls[0][0])).toBe(true);
	});

	test('Refresh Token: the pasted token renews the access token', async () => {
		const { self, httpRequest } = helper(() => ({ access_token: 'acc-5' }));
		const credentials = {
			authMethod: 'refreshToken',
			refreshToken: PASTED_REFRESH,
			baseUrl: BASE,
			[SESSION.token]: '',
		};
		const output = await renewSession.call(self, viewOf(credentials));
		expect(httpRequest.mock.calls[0][0].headers).toMatchObject({ refresh_token: PASTED_REFRESH });
		expect(
			bearerTokenOf(viewOf({ ...credentials, ...output } as ICredentialDataDecryptedObject)),
		).toBe('acc-5');
	});

	test('Refresh Token that expired, with no username and password: paste a new one or switch to Username and Password', async () => {
		const { self, httpRequest } = helper(() => {
			throw httpError(401, { detail: 'Refresh Token Expired', status_code: 401 });
		});
		const credentials = {
			authMethod: 'refreshToken',
			refreshToken: PASTED_REFRESH,
			baseUrl: BASE,
			// Values left from another method are not used: only the fields the method shows count.
			username: 'left@over.test',
			password: PASSWORD,
		};
		const error = await failureOf(renewSession.call(self, viewOf(credentials)));
		expect(error.message).toMatch(
			/^Renewing the access token with the refresh token failed: the API refused the refresh token \(401: Refresh Token Expired\)\. A refresh token lasts 30 days from sign-in and cannot be renewed itself\. Paste a new Refresh Token into the Ad Cabinet API credential, or switch Sign-in Method to Username and Password so that n8n signs in again by itself when a refresh token runs out\. Editing the credential tries again at once; until then n8n tries this refresh token again at \d\d:\d\d:\d\d UTC \(in 5 minutes\), not before\. The request itself was not performed, so running it again after the fix is safe\.$/,
		);
		expect(error.message).not.toContain(PASTED_REFRESH);
		expect(httpRequest).toHaveBeenCalledTimes(1);
	});

	test('Refresh Token left empty: said before anything is sent', async () => {
		const { self, httpRequest } = helper(() => ({}));
		const error = await failureOf(
			renewSession.call(self, viewOf({ authMethod: 'refreshToken', baseUrl: BASE })),
		);
		expect(error.message).toContain('Sign-in Method is Refresh Token but Refresh Token is empty');
		expect(httpRequest).not.toHaveBeenCalled();
	});

	test('Access Token: used as it is, nothing is obtained (the hidden token field gets a mark only)', async () => {
		const { self, httpRequest } = helper(() => ({}));
		const credentials = {
			authMethod: 'accessToken',
			accessToken: ' pasted-access ',
			baseUrl: BASE,
		};
		expect(await renewSession.call(self, viewOf(credentials))).toEqual({ [SESSION.token]: '-' });
		expect(httpRequest).not.toHaveBeenCalled();
		expect(bearerTokenOf(viewOf(credentials))).toBe('pasted-access');
	});

	test('a credential saved with only an access token (before the sign-in methods) is read as Access Token', () => {
		expect(authMethodOf({ accessToken: 'legacy', baseUrl: BASE })).toBe('accessToken');
		expect(bearerTokenOf(viewOf({ accessToken: 'legacy', baseUrl: BASE }))).toBe('legacy');
		expect(authMethodOf({ baseUrl: BASE })).toBe('password');
	});
});

describe('requests that find the same expired token at once share one renewal', () => {
	test('eight parallel requests: one sign-in, every one gets its token', async () => {
		const answer = deferred<unknown>();
		const { self, httpRequest } = helper(async () => await answer.promise);
		const credentials = passwordCredential();
		const calls = Array.from(
			{ length: 8 },
			async () => await renewSession.call(self, viewOf({ ...credentials })),
		);
		await settle();
		answer.resolve({ access_token: 'acc-6', refresh_token: 'ref-6' });
		const outputs = await Promise.all(calls);
		expect(httpRequest).toHaveBeenCalledTimes(1);
		for (const output of outputs) expect(output[SESSION.token]).toBe('acc-6');
	});

	test('a refused sign-in is shared by the requests waiting on it, kept in the credential for every process, and edited fields sign in at once', async () => {
		let refuse = true;
		const { self, httpRequest } = helper(() => {
			if (refuse) throw httpError(401, { detail: 'Incorrect username or password' });
			return { access_token: 'acc-7', refresh_token: 'ref-7' };
		});
		const credentials = passwordCredential();
		const both = await Promise.allSettled([
			beforeRequest(self, credentials),
			beforeRequest(self, credentials),
		]);
		expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected']);
		expect(httpRequest).toHaveBeenCalledTimes(1);
		// What n8n stored: no token, the refusal, and whose fields it was.
		const stored = {
			...credentials,
			...(await renewSession.call(self, viewOf(credentials))),
		} as ICredentialDataDecryptedObject;
		expect(stored[SESSION.token]).toBe('');
		expect(JSON.parse(String(stored[SESSION.refusal]))).toMatchObject({ pauseMs: 5 * 60_000 });
		await settle();
		refuse = false;
		// Another process, which never met the refusal, does not send the same fields within the pause...
		forgetRefusals();
		await expect(beforeRequest(self, stored)).rejects.toThrow(/n8n did not send the sign-in again/);
		expect(httpRequest).toHaveBeenCalledTimes(1);
		// ...but an edited credential is sent at once.
		const edited = await beforeRequest(self, { ...stored, password: 'the-new-one' });
		expect(edited).toMatchObject({ [SESSION.token]: 'acc-7', [SESSION.refusal]: '' });
		expect(httpRequest).toHaveBeenCalledTimes(2);
	});

	test('after the pause the stored refusal lets one sign-in through, and a second refusal doubles the pause', async () => {
		const { self, httpRequest } = helper(() => {
			throw httpError(401, { detail: 'Incorrect username or password' });
		});
		const first = {
			...passwordCredential(),
			...(await renewSession.call(self, viewOf(passwordCredential()))),
		} as ICredentialDataDecryptedObject;
		forgetRefusals();
		const later = Date.now() + 5 * 60_000 + 1;
		jest.spyOn(Date, 'now').mockReturnValue(later);
		const second = await renewSession.call(self, viewOf(first));
		expect(httpRequest).toHaveBeenCalledTimes(2);
		expect(JSON.parse(String(second[SESSION.refusal]))).toMatchObject({
			pauseMs: 10 * 60_000,
			at: later,
		});
	});
});

describe('renewal under faults', () => {
	test('a refresh that fails transiently is retried before any sign-in', async () => {
		jest.spyOn(Math, 'random').mockReturnValue(0);
		let refreshes = 0;
		const { self, httpRequest } = helper((options) => {
			if (refresh(options) && ++refreshes < 3) throw httpError(502, { detail: 'Bad gateway' });
			return { access_token: 'acc-8' };
		});
		const output = await renewSession.call(self, viewOf(signedIn(passwordCredential())));
		expect(output[SESSION.token]).toBe('acc-8');
		expect(httpRequest.mock.calls.map(([o]) => (login(o) ? 'sign-in' : 'refresh'))).toEqual([
			'refresh',
			'refresh',
			'refresh',
		]);
	});

	test('a request that met the old token a moment after the renewal settled reads the renewed token', async () => {
		const { self, httpRequest } = helper(() => ({ access_token: 'acc-9' }));
		const credentials = signedIn(passwordCredential());
		expect((await renewSession.call(self, viewOf({ ...credentials })))[SESSION.token]).toBe(
			'acc-9',
		);
		await settle();
		expect((await renewSession.call(self, viewOf({ ...credentials })))[SESSION.token]).toBe(
			'acc-9',
		);
		expect(httpRequest).toHaveBeenCalledTimes(1);
		// A request with the renewed token that is refused renews again.
		const renewed = { ...credentials, [SESSION.token]: 'acc-9' };
		await renewSession.call(self, viewOf(renewed));
		expect(httpRequest).toHaveBeenCalledTimes(2);
	});

	test('Refresh Token: a refused refresh token is remembered too; editing it tries again at once', async () => {
		const { self, httpRequest } = helper(() => {
			throw httpError(401, { detail: 'Invalid Refresh Token' });
		});
		const credentials = { authMethod: 'refreshToken', refreshToken: PASTED_REFRESH, baseUrl: BASE };
		await failureOf(renewSession.call(self, viewOf(credentials)));
		const again = await failureOf(renewSession.call(self, viewOf(credentials)));
		expect(again.message).toMatch(
			/n8n did not send it again: the API refused this refresh token at \d\d:\d\d:\d\d UTC, and n8n tries it again at/,
		);
		expect(again.message).not.toContain(PASTED_REFRESH);
		expect(httpRequest).toHaveBeenCalledTimes(1);
		await failureOf(
			renewSession.call(self, viewOf({ ...credentials, refreshToken: 'another-one-99' })),
		);
		expect(httpRequest).toHaveBeenCalledTimes(2);
	});

	test('Access Token: after a 401 to a request sent with it, the same token is not sent again', async () => {
		const { self, httpRequest } = helper(() => ({}));
		const credentials = { authMethod: 'accessToken', accessToken: 'pasted-access', baseUrl: BASE };
		// Before the first request (or in a credential Test): nothing to do.
		await renewSession.call(self, viewOf(credentials));
		markSent(viewOf(credentials));
		const error = await failureOf(renewSession.call(self, viewOf(credentials)));
		expect(error.message).toMatch(
			/^The Ad Cabinet API refused the pasted access token \(401\).*Paste a new token into Access Token/,
		);
		expect(error.message).not.toContain('pasted-access');
		expect(httpRequest).not.toHaveBeenCalled();
	});
});

describe('renewal: the requests n8n sends again, counted for the pacer', () => {
	test('a renewal asked after a 401 counts one repeat; one asked before the first request counts none', async () => {
		const { self } = helper(() => ({ access_token: 'acc-7', refresh_token: 'ref-7' }));
		const before = repeatsSoFar();
		// n8n asks before the first request when the hidden token is empty: nothing was sent yet.
		await renewSession.call(self, viewOf(passwordCredential()));
		expect(repeatsSoFar()).toBe(before);
		// After a 401 n8n hands preAuthentication the object the refused request was sent with.
		const sent = signedIn(passwordCredential());
		markSent(viewOf(sent));
		await renewSession.call(self, viewOf(sent));
		expect(repeatsSoFar()).toBe(before + 1);
	});

	test('a renewal that fails, or holds a refused sign-in, counts no repeat: n8n does not send the request again', async () => {
		const { self } = helper(() => {
			throw httpError(401, { detail: 'Invalid credentials' });
		});
		const before = repeatsSoFar();
		const refused = passwordCredential();
		markSent(viewOf(refused));
		const output = await renewSession.call(self, viewOf(refused));
		expect(output[SESSION.refusal]).not.toBe('');
		expect(repeatsSoFar()).toBe(before);
		const sent = passwordCredential({ username: '' });
		markSent(viewOf(sent));
		await expect(renewSession.call(self, viewOf(sent))).rejects.toThrow();
		expect(repeatsSoFar()).toBe(before);
	});
});

describe('a renewal is shared within its own credential, and never a token the API refused', () => {
	/** A stand-in API: each sign-in or refresh gives the next token, acc-1, acc-2, … */
	function counting() {
		let issued = 0;
		return helper(() => ({ access_token: `acc-${++issued}`, refresh_token: `ref-${issued}` }));
	}
	/** The credential after n8n stored what a renewal returned. */
	const stored = (credentials: ICredentialDataDecryptedObject, output: object) =>
		({ ...credentials, ...output }) as ICredentialDataDecryptedObject;
	/** preAuthentication after the API answered 401 to a request sent with this credential. */
	async function after401(self: ReturnType<typeof helper>['self'], credentials: object) {
		const view = viewOf(credentials as ICredentialDataDecryptedObject);
		markSent(view);
		return await renewSession.call(self, view);
	}

	test('a new credential of the same account signs in itself, not handed the token another credential obtained', async () => {
		const { self, httpRequest } = counting();
		const first = stored(
			passwordCredential(),
			await renewSession.call(self, viewOf(passwordCredential())),
		);
		expect(first[SESSION.token]).toBe('acc-1');
		// The first credential renewed twice meanwhile.
		const renewedOnce = stored(first, await after401(self, first));
		await after401(self, renewedOnce);
		expect(httpRequest).toHaveBeenCalledTimes(3);
		const second = await renewSession.call(self, viewOf(passwordCredential()));
		expect(httpRequest).toHaveBeenCalledTimes(4);
		expect(login(httpRequest.mock.calls[3][0])).toBe(true);
		expect(second[SESSION.token]).toBe('acc-4');
		expect(second[SESSION.key]).not.toBe(first[SESSION.key]);
	});

	test('the same expired token in two credentials of one account: each renews on its own', async () => {
		const { self, httpRequest } = counting();
		const one = signedIn(passwordCredential());
		const other = { ...one, [SESSION.key]: 'session-key-2' };
		other[SESSION.owner] = sessionOwner(viewOf(other), 'session-key-2');
		expect((await after401(self, one))[SESSION.token]).toBe('acc-1');
		expect((await after401(self, other))[SESSION.token]).toBe('acc-2');
		// Within one credential the renewal is still shared.
		expect((await after401(self, { ...one }))[SESSION.token]).toBe('acc-1');
		expect(httpRequest).toHaveBeenCalledTimes(2);
	});

	test('a renewed token refused with a 401 is not handed out again: the next request that met the token before it renews at the API, refresh first', async () => {
		const { self, httpRequest } = counting();
		const credentials = signedIn(passwordCredential());
		const renewed = stored(credentials, await after401(self, { ...credentials }));
		expect(renewed[SESSION.token]).toBe('acc-1');
		// The API refuses acc-1 at once: the request sent with it renews again.
		expect((await after401(self, renewed))[SESSION.token]).toBe('acc-2');
		// A request that still carried the token before acc-1 is not handed acc-1.
		const late = await after401(self, { ...credentials });
		expect(late[SESSION.token]).toBe('acc-3');
		expect(httpRequest.mock.calls.map(([o]) => (refresh(o) ? 'refresh' : 'sign-in'))).toEqual([
			'refresh',
			'refresh',
			'refresh',
		]);
	});
});
