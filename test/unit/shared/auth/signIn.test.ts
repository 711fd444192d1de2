import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { SESSION, viewOf } from '../../../../nodes/shared/auth/credentialView';
import { forgetSharedRenewals, renewSession } from '../../../../nodes/shared/auth/renewal';
import { bearerTokenOf, sessionOwner } from '../../../../nodes/shared/auth/session';
import { httpError, networkError } from '../../../support/fakeContext';
import {
	BASE,
	beforeRequest,
	failureOf,
	helper,
	PASSWORD,
	passwordCredential,
} from '../../../support/renewalContext';

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
		const output = await renewSession.call(self, viewOf(credentials));
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
			[SESSION.owner]: sessionOwner(viewOf(credentials), String(output[SESSION.key])),
			[SESSION.key]: expect.stringMatching(/^[0-9a-z]{16,}$/),
			// A refusal kept from before is cleared.
			[SESSION.refusal]: '',
		});
		// The obtained token is what requests then carry.
		expect(
			bearerTokenOf(viewOf({ ...credentials, ...output } as ICredentialDataDecryptedObject)),
		).toBe('acc-1');
	});

	test('special characters in the password reach the API intact', async () => {
		const { self, httpRequest } = helper(() => ({ access_token: 'a', refresh_token: 'r' }));
		await renewSession.call(self, viewOf(passwordCredential({ password: 'p&w=1 +%ü' })));
		expect(new URLSearchParams(String(httpRequest.mock.calls[0][0].body)).get('password')).toBe(
			'p&w=1 +%ü',
		);
	});

	test('a refused password: the message names the sign-in and the fields to check, never the password, and nothing is tried again', async () => {
		const { self, httpRequest } = helper(() => {
			throw httpError(401, { detail: 'Incorrect username or password', status_code: 401 });
		});
		const error = await failureOf(beforeRequest(self, passwordCredential()));
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
		const error = await failureOf(renewSession.call(self, viewOf(passwordCredential())));
		expect(error.message).toContain('(422: bad value ***)');
		expect(error.message).not.toContain(PASSWORD);
	});

	test('empty username or password: said before anything is sent', async () => {
		const { self, httpRequest } = helper(() => ({}));
		const error = await failureOf(
			renewSession.call(self, viewOf(passwordCredential({ username: ' ' }))),
		);
		expect(error.message).toMatch(
			/^Sign-in to the Ad Cabinet API failed: Username is empty in the Ad Cabinet API credential, and Sign-in Method is Username and Password\. Fill in/,
		);
		const both = await failureOf(
			renewSession.call(self, viewOf(passwordCredential({ username: '', password: '' }))),
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
			'Sign-in to the Ad Cabinet API failed: the Base URL (client.example.test) could not be reached (the host name was not found',
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
			const error = await failureOf(renewSession.call(self, viewOf(passwordCredential())));
			expect(error.message.startsWith(start)).toBe(true);
			expect(error.message).toMatch(
				/The request itself was not performed, so running it again after the fix is safe\.$/,
			);
		},
	);

	test('an answer without an access token says the Base URL is probably not the API', async () => {
		const { self } = helper(() => '<html>welcome</html>');
		const error = await failureOf(renewSession.call(self, viewOf(passwordCredential())));
		expect(error.message).toContain(
			'answered without an access token, so it is probably not the Ad Cabinet API',
		);
	});

	test('a Base URL that is not an http(s) address is refused before anything is sent', async () => {
		const { self, httpRequest } = helper(() => ({}));
		const error = await failureOf(
			renewSession.call(self, viewOf(passwordCredential({ baseUrl: 'client.example.test' }))),
		);
		expect(error.message).toContain(
			'Base URL in the Ad Cabinet API credential must be an http:// or https:// address',
		);
		expect(httpRequest).not.toHaveBeenCalled();
	});
});
