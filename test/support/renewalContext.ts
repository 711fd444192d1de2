import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';
import { AdCabinetApi } from '../../credentials/AdCabinetApi.credentials';
import { RenewalFailed, renewSession, SESSION, viewOf } from '../../nodes/shared/auth';
import { sessionOwner } from '../../nodes/shared/auth/session';

/** Credentials and a stand-in request helper for the session renewal (preAuthentication) tests. */
export const BASE = 'https://client.example.test';
export const PASSWORD = 'pa55-word-secret';
export const PASTED_REFRESH = 'pasted-refresh-token-77aa';

type Answer = (options: IHttpRequestOptions) => unknown;

/** preAuthentication's `this` as n8n 2.x gives it: a plain httpRequest and nothing else. */
export function helper(answer: Answer) {
	const httpRequest = jest.fn(async (options: IHttpRequestOptions) => await answer(options));
	return { self: { helpers: { httpRequest } }, httpRequest };
}

export function passwordCredential(
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
export function signedIn(credentials: ICredentialDataDecryptedObject, refresh = 'kept-refresh-1') {
	return {
		...credentials,
		[SESSION.token]: 'old-access',
		[SESSION.refreshToken]: refresh,
		[SESSION.owner]: sessionOwner(viewOf(credentials), 'session-key-1'),
		[SESSION.key]: 'session-key-1',
	};
}

export const login = (options: IHttpRequestOptions) => options.url.endsWith('/api/v2/login');
export const refresh = (options: IHttpRequestOptions) =>
	options.url.endsWith('/api/v2/access-token');

export async function failureOf(promise: Promise<unknown>): Promise<RenewalFailed> {
	const error = await promise.then(
		() => undefined,
		(e: unknown) => e,
	);
	expect(error).toBeInstanceOf(RenewalFailed);
	return error as RenewalFailed;
}

/**
 * What n8n does before a request: preAuthentication, its output merged into the credential (and
 * stored), then the credential's authenticate, which reports a refused sign-in instead of sending.
 * Resolves with the merged credential.
 */
export async function beforeRequest(
	self: ReturnType<typeof helper>['self'],
	credentials: ICredentialDataDecryptedObject,
): Promise<ICredentialDataDecryptedObject> {
	const output = await renewSession.call(self as never, viewOf(credentials));
	const merged = { ...credentials, ...output } as ICredentialDataDecryptedObject;
	await new AdCabinetApi().authenticate(merged, { url: `${BASE}/api/report/objects` });
	return merged;
}
