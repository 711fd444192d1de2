import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import {
	authFor,
	forgetSharedRenewals,
	refusedWith,
	RenewalFailed,
	renewSession,
	SESSION,
	sendsOf,
	viewOf,
} from '../../../../nodes/shared/auth';
import { sessionOwner } from '../../../../nodes/shared/auth/session';
import { httpError } from '../../../support/fakeContext';
import { BASE, helper, passwordCredential } from '../../../support/renewalContext';

beforeEach(() => forgetSharedRenewals());

describe('authFor: the request as it leaves, with its bearer token', () => {
	test('Access Token: the pasted token, trimmed, in the Authorization header; the other headers kept', () => {
		const options = { url: `${BASE}/api/kktu`, headers: { Accept: 'application/json' } };
		const sent = authFor(viewOf({ authMethod: 'accessToken', accessToken: ' tok-1 ' }), options);
		expect(sent.headers).toEqual({ Accept: 'application/json', Authorization: 'Bearer tok-1' });
		expect(sendsOf(options)).toBe(1);
	});

	test('no token yet for these fields: the request goes without one (the API answers 401 and n8n renews)', () => {
		const sent = authFor(viewOf(passwordCredential()), { url: `${BASE}/api/kktu` });
		expect(sent.headers).toEqual({});
	});

	test('the session obtained for these very fields is used; after an edit of the password it is not', () => {
		const raw = passwordCredential();
		const stored = {
			...raw,
			[SESSION.token]: 'acc-9',
			[SESSION.key]: 'k-9',
			[SESSION.owner]: sessionOwner(viewOf(raw), 'k-9'),
		};
		expect(authFor(viewOf(stored), { url: BASE }).headers).toEqual({
			Authorization: 'Bearer acc-9',
		});
		expect(authFor(viewOf({ ...stored, password: 'edited' }), { url: BASE }).headers).toEqual({});
	});

	test('a refused sign-in within its pause is thrown instead of sending, with the refusal in words', async () => {
		const { self } = helper(() => {
			throw httpError(401, { detail: 'Incorrect username or password' });
		});
		const raw = passwordCredential();
		const stored = {
			...raw,
			...(await renewSession.call(self, viewOf(raw))),
		} as ICredentialDataDecryptedObject;
		let error: unknown;
		try {
			authFor(viewOf(stored), { url: `${BASE}/api/kktu` });
		} catch (caught) {
			error = caught;
		}
		expect(error).toBeInstanceOf(RenewalFailed);
		expect((error as Error).message).toMatch(
			/^Sign-in to the Ad Cabinet API failed: the API refused the username or password \(401: Incorrect username or password\)/,
		);
	});
});

describe('refusedWith: a 401 to the repeat after a renewal', () => {
	test('the token that repeat carried is not handed out again: the next request that met the token before it renews at the API', async () => {
		let issued = 0;
		const { self, httpRequest } = helper(() => ({ access_token: `acc-${++issued}` }));
		const raw = passwordCredential();
		const credentials = {
			...raw,
			[SESSION.token]: 'acc-0',
			[SESSION.refreshToken]: 'ref-0',
			[SESSION.key]: 'k-0',
			[SESSION.owner]: sessionOwner(viewOf(raw), 'k-0'),
		};
		// A request sent with acc-0 met a 401; n8n renewed and repeats it with acc-1.
		const view = viewOf({ ...credentials });
		const options = { url: `${BASE}/api/report/objects` };
		const first = authFor(view, options);
		const renewed = { ...credentials, ...(await renewSession.call(self, view)) };
		expect(renewed[SESSION.token]).toBe('acc-1');
		authFor(viewOf(renewed), first);
		// Another request that met acc-0 shares that renewal while nothing says acc-1 was refused...
		const shared = viewOf({ ...credentials });
		authFor(shared, { url: BASE });
		expect((await renewSession.call(self, shared))[SESSION.token]).toBe('acc-1');
		expect(httpRequest).toHaveBeenCalledTimes(1);
		// ...and once the repeat with acc-1 was answered 401, the next one renews at the API.
		refusedWith([options]);
		const later = viewOf({ ...credentials });
		authFor(later, { url: BASE });
		expect((await renewSession.call(self, later))[SESSION.token]).toBe('acc-2');
		expect(httpRequest).toHaveBeenCalledTimes(2);
	});
});
