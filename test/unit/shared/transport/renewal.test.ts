import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';
import {
	authMethodOf,
	bearerTokenOf,
	forgetSharedRenewals,
	renewSession,
	RenewalFailed,
	SESSION,
	sessionOwner,
} from '../../../../nodes/shared/transport/renewal';
import { markSent } from '../../../../nodes/shared/transport/session';
import { deferred, httpError, networkError, settle } from '../../../support/fakeContext';

const BASE = 'https://client.example.test';
const PASSWORD = 'pa55-word-secret';
const PASTED_REFRESH = 'pasted-refresh-token-77aa';

type Answer = (options: IHttpRequestOptions) => unknown;

/** preAuthentication's `this` as n8n 2.x gives it: a plain httpRequest and nothing else. */
function helper(answer: Answer) {
	const httpRequest = jest.fn(async (options: IHttpRequestOptions) => await answer(options));
	return { self: { helpers: { httpRequest } }, httpRequest };
}

function passwordCredential(
	overrides: ICredentialDataDecryptedObject = {},
): ICredentialDataDecryptedObject {
	return {
		authMethod: 'password',
		username: 'ops@example.test',
		password: PASSWORD,
		baseUrl: `${BASE}/`,
		[SESSION.token]: '',
		...overrides,
	};
}

/** The credential after a successful sign-in, as n8n stores it. */
function signedIn(credentials: ICredentialDataDecryptedObject, refresh = 'kept-refresh-1') {
	return {
		...credentials,
		[SESSION.token]: 'old-access',
		[SESSION.refreshToken]: refresh,
		[SESSION.owner]: sessionOwner(credentials, 'session-key-1'),
		[SESSION.key]: 'session-key-1',
	};
}

const login = (options: IHttpRequestOptions) => options.url.endsWith('/api/v2/login');
const refresh = (options: IHttpRequestOptions) => options.url.endsWith('/api/v2/access-token');

async function failureOf(promise: Promise<unknown>): Promise<RenewalFailed> {
	const error = await promise.then(
		() => undefined,
		(e: unknown) => e,
	);
	expect(error).toBeInstanceOf(RenewalFailed);
	return error as RenewalFailed;
}

beforeEach(() => forgetSharedRenewals());
afterEach(() => jest.restoreAllMocks());

describe('sign-in with username and password', () => {
	test('POSTs a form body with username and password to {Base URL}/api/v2/login and keeps both tokens', async () => {
		const { self, httpRequest } = helper(() => ({
			user_id: 7,
			access_token: 'acc-1',
			refresh_token: 'ref-1',
		}));
		const credentials = passwordCredential();
		const output = await renewSession.call(self, credentials);
		expect(httpRequest).toHaveBeenCalledTimes(1);
		const sent = httpRequest.mock.calls[0][0];
		expect(sent).toMatchObject({
			method: 'POST',
			url: `${BASE}/api/v2/login`,
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
			disableFollowRedirect: true,
		});
		expect(new URLSearchParams(String(sent.body)).get('username')).toBe('ops@example.test');
		expect(new URLSearchParams(String(sent.body)).get('password')).toBe(PASSWORD);
		expect(output).toEqual({
			[SESSION.token]: 'acc-1',
			[SESSION.refreshToken]: 'ref-1',
			[SESSION.owner]: sessionOwner(credentials, String(output[SESSION.key])),
			[SESSION.key]: expect.stringMatching(/^[0-9a-z]{16,}$/),
		});
		// The obtained token is what requests then carry.
		expect(bearerTokenOf({ ...credentials, ...output } as ICredentialDataDecryptedObject)).toBe(
			'acc-1',
		);
	});

	test('special characters in the password reach the API intact', async () => {
		const { self, httpRequest } = helper(() => ({ access_token: 'a', refresh_token: 'r' }));
		await renewSession.call(self, passwordCredential({ password: 'p&w=1 +%ü' }));
		expect(new URLSearchParams(String(httpRequest.mock.calls[0][0].body)).get('password')).toBe(
			'p&w=1 +%ü',
		);
	});

	test('a refused password: the message names the sign-in and the fields to check, never the password, and nothing is tried again', async () => {
		const { self, httpRequest } = helper(() => {
			throw httpError(401, { detail: 'Incorrect username or password', status_code: 401 });
		});
		const error = await failureOf(renewSession.call(self, passwordCredential()));
		expect(error.message).toMatch(
			/^Sign-in to the Ad Cabinet API failed: the API refused the username or password \(401: Incorrect username or password\)\. Check Username and Password in the Ad Cabinet API credential \(the ones you sign in to the cabinet with\), save it and run again: n8n tries this username and password again at \d\d:\d\d:\d\d UTC \(in 5 minutes\), not before, so that repeated attempts do not lock the account\. Editing the credential tries again at once\. The request itself was not performed, so running it again after the fix is safe\.$/,
		);
		expect(error.message).not.toContain(PASSWORD);
		expect(httpRequest).toHaveBeenCalledTimes(1);
		// Nothing in the error that n8n would read as a status or code (it would replace the message).
		expect(Object.keys(error)).not.toEqual(expect.arrayContaining(['status']));
		expect((error as unknown as Record<string, unknown>).code).toBeUndefined();
		expect((error as unknown as Record<string, unknown>).response).toBeUndefined();
	});

	test('an answer that echoes the password back has it masked', async () => {
		const { self } = helper(() => {
			throw httpError(422, { detail: `bad value ${PASSWORD}` });
		});
		const error = await failureOf(renewSession.call(self, passwordCredential()));
		expect(error.message).toContain('(422: bad value ***)');
		expect(error.message).not.toContain(PASSWORD);
	});

	test('empty username or password: said before anything is sent', async () => {
		const { self, httpRequest } = helper(() => ({}));
		const error = await failureOf(renewSession.call(self, passwordCredential({ username: ' ' })));
		expect(error.message).toMatch(
			/^Sign-in to the Ad Cabinet API failed: Username is empty in the Ad Cabinet API credential, and Sign-in Method is Username and Password\. Fill in/,
		);
		const both = await failureOf(
			renewSession.call(self, passwordCredential({ username: '', password: '' })),
		);
		expect(both.message).toContain('Username and Password are empty');
		expect(httpRequest).not.toHaveBeenCalled();
	});

	test.each([
		[
			'404',
			() => httpError(404, 'Not Found'),
			`Sign-in to the Ad Cabinet API failed: ${BASE}/api/v2/login answered 404, so there is no Ad Cabinet API at this Base URL. Check Base URL in the Ad Cabinet API credential`,
		],
		[
			'no answer',
			() => networkError('ENOTFOUND'),
			'Sign-in to the Ad Cabinet API failed: the Base URL (client.example.test) could not be reached (ENOTFOUND',
		],
		[
			'a redirect',
			() => httpError(302, '', { location: 'https://elsewhere.test/login' }),
			'Sign-in to the Ad Cabinet API failed: the Base URL (client.example.test) answered 302 with a redirect, which is not followed',
		],
		[
			'a server error, retried like a read',
			() => httpError(503, { detail: 'maintenance' }),
			"Sign-in to the Ad Cabinet API failed after 5 attempts: the API answered 503 (maintenance). It is a fault on the service's side",
		],
	])(
		'a sign-in that fails because of the address (%s) names the Base URL',
		async (_label, fail, start) => {
			const { self } = helper(() => {
				throw fail();
			});
			// Transient failures are retried; these tests are about the message, so none is.
			jest.spyOn(Math, 'random').mockReturnValue(0);
			const error = await failureOf(renewSession.call(self, passwordCredential()));
			expect(error.message.startsWith(start)).toBe(true);
			expect(error.message).toMatch(
				/The request itself was not performed, so running it again after the fix is safe\.$/,
			);
		},
	);

	test('an answer without an access token says the Base URL is probably not the API', async () => {
		const { self } = helper(() => '<html>welcome</html>');
		const error = await failureOf(renewSession.call(self, passwordCredential()));
		expect(error.message).toContain(
			'answered without an access token, so it is probably not the Ad Cabinet API',
		);
	});

	test('a Base URL that is not an http(s) address is refused before anything is sent', async () => {
		const { self, httpRequest } = helper(() => ({}));
		const error = await failureOf(
			renewSession.call(self, passwordCredential({ baseUrl: 'client.example.test' })),
		);
		expect(error.message).toContain(
			'Base URL in the Ad Cabinet API credential must be an http:// or https:// address',
		);
		expect(httpRequest).not.toHaveBeenCalled();
	});
});

describe('renewal: the refresh token while it works, sign-in when it does not', () => {
	test("an expired access token is renewed with the last sign-in's refresh token, in a header named refresh_token", async () => {
		const { self, httpRequest } = helper(() => ({ access_token: 'acc-2', token_type: 'Bearer' }));
		const credentials = signedIn(passwordCredential());
		const output = await renewSession.call(self, credentials);
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
		const output = await renewSession.call(self, signedIn(passwordCredential()));
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
		expect(bearerTokenOf(edited)).toBe('');
		await renewSession.call(self, edited);
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
		const output = await renewSession.call(self, credentials);
		expect(httpRequest.mock.calls[0][0].headers).toMatchObject({ refresh_token: PASTED_REFRESH });
		expect(bearerTokenOf({ ...credentials, ...output } as ICredentialDataDecryptedObject)).toBe(
			'acc-5',
		);
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
		const error = await failureOf(renewSession.call(self, credentials));
		expect(error.message).toMatch(
			/^Renewing the access token with the refresh token failed: the API refused the refresh token \(401: Refresh Token Expired\)\. A refresh token lasts 30 days from sign-in and cannot be renewed itself\. Paste a new Refresh Token into the Ad Cabinet API credential, or switch Sign-in Method to Username and Password so that n8n signs in again by itself when a refresh token runs out\. Editing the credential tries again at once; until then n8n tries this refresh token again at \d\d:\d\d:\d\d UTC \(in 5 minutes\), not before\. The request itself was not performed, so running it again after the fix is safe\.$/,
		);
		expect(error.message).not.toContain(PASTED_REFRESH);
		expect(httpRequest).toHaveBeenCalledTimes(1);
	});

	test('Refresh Token left empty: said before anything is sent', async () => {
		const { self, httpRequest } = helper(() => ({}));
		const error = await failureOf(
			renewSession.call(self, { authMethod: 'refreshToken', baseUrl: BASE }),
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
		expect(await renewSession.call(self, credentials)).toEqual({ [SESSION.token]: '-' });
		expect(httpRequest).not.toHaveBeenCalled();
		expect(bearerTokenOf(credentials)).toBe('pasted-access');
	});

	test('a credential saved with only an access token (before the sign-in methods) is read as Access Token', () => {
		expect(authMethodOf({ accessToken: 'legacy', baseUrl: BASE })).toBe('accessToken');
		expect(bearerTokenOf({ accessToken: 'legacy', baseUrl: BASE })).toBe('legacy');
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
			async () => await renewSession.call(self, { ...credentials }),
		);
		await settle();
		answer.resolve({ access_token: 'acc-6', refresh_token: 'ref-6' });
		const outputs = await Promise.all(calls);
		expect(httpRequest).toHaveBeenCalledTimes(1);
		for (const output of outputs) expect(output[SESSION.token]).toBe('acc-6');
	});

	test('a failed sign-in is shared by the requests waiting on it, then remembered until the credential is edited', async () => {
		let refuse = true;
		const { self, httpRequest } = helper(() => {
			if (refuse) throw httpError(401, { detail: 'Incorrect username or password' });
			return { access_token: 'acc-7', refresh_token: 'ref-7' };
		});
		const credentials = passwordCredential();
		const both = await Promise.allSettled([
			renewSession.call(self, credentials),
			renewSession.call(self, credentials),
		]);
		expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected']);
		expect(httpRequest).toHaveBeenCalledTimes(1);
		await settle();
		refuse = false;
		// The same username and password are not sent again within the pause...
		await expect(renewSession.call(self, credentials)).rejects.toThrow(
			/n8n did not send the sign-in again/,
		);
		expect(httpRequest).toHaveBeenCalledTimes(1);
		// ...but an edited credential is.
		await expect(
			renewSession.call(self, { ...credentials, password: 'the-new-one' }),
		).resolves.toMatchObject({ [SESSION.token]: 'acc-7' });
		expect(httpRequest).toHaveBeenCalledTimes(2);
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
		const output = await renewSession.call(self, signedIn(passwordCredential()));
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
		expect((await renewSession.call(self, { ...credentials }))[SESSION.token]).toBe('acc-9');
		await settle();
		expect((await renewSession.call(self, { ...credentials }))[SESSION.token]).toBe('acc-9');
		expect(httpRequest).toHaveBeenCalledTimes(1);
		// A request with the renewed token that is refused renews again.
		const renewed = { ...credentials, [SESSION.token]: 'acc-9' };
		await renewSession.call(self, renewed);
		expect(httpRequest).toHaveBeenCalledTimes(2);
	});

	test('Refresh Token: a refused refresh token is remembered too; editing it tries again at once', async () => {
		const { self, httpRequest } = helper(() => {
			throw httpError(401, { detail: 'Invalid Refresh Token' });
		});
		const credentials = { authMethod: 'refreshToken', refreshToken: PASTED_REFRESH, baseUrl: BASE };
		await failureOf(renewSession.call(self, credentials));
		const again = await failureOf(renewSession.call(self, credentials));
		expect(again.message).toMatch(
			/n8n did not send it again: the API refused this refresh token at \d\d:\d\d:\d\d UTC, and n8n tries it again at/,
		);
		expect(again.message).not.toContain(PASTED_REFRESH);
		expect(httpRequest).toHaveBeenCalledTimes(1);
		await failureOf(renewSession.call(self, { ...credentials, refreshToken: 'another-one-99' }));
		expect(httpRequest).toHaveBeenCalledTimes(2);
	});

	test('Access Token: after a 401 to a request sent with it, the same token is not sent again', async () => {
		const { self, httpRequest } = helper(() => ({}));
		const credentials = { authMethod: 'accessToken', accessToken: 'pasted-access', baseUrl: BASE };
		// Before the first request (or in a credential Test): nothing to do.
		await renewSession.call(self, credentials);
		markSent(credentials);
		const error = await failureOf(renewSession.call(self, credentials));
		expect(error.message).toMatch(
			/^The Ad Cabinet API refused the pasted access token \(401\).*Paste a new token into Access Token/,
		);
		expect(error.message).not.toContain('pasted-access');
		expect(httpRequest).not.toHaveBeenCalled();
	});
});
