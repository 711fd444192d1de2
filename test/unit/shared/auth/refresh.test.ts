import { viewOf } from '../../../../nodes/shared/auth/credentialView';
import { refresh, REFRESH_PATH, withRefreshToken } from '../../../../nodes/shared/auth/refresh';
import { forgetRefusals } from '../../../../nodes/shared/auth/refusals';
import { RenewalFailed } from '../../../../nodes/shared/auth/renewalMessages';
import { httpError } from '../../../support/fakeContext';
import { BASE, failureOf, helper, PASTED_REFRESH } from '../../../support/renewalContext';

const pasted = (refreshToken = PASTED_REFRESH) =>
	viewOf({ authMethod: 'refreshToken', refreshToken, baseUrl: `${BASE}/` });

beforeEach(() => {
	forgetRefusals();
	// Backoff waits at their shortest: the tests are about what is sent.
	jest.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => jest.restoreAllMocks());

describe('refresh: one new access token for a refresh token', () => {
	test('GET the refresh path with the token in a header named refresh_token', async () => {
		const { self, httpRequest } = helper(() => ({ access_token: 'acc-1' }));
		expect(await refresh(self, pasted(), 'the-refresh-token')).toEqual({ token: 'acc-1' });
		expect(httpRequest.mock.calls[0][0]).toMatchObject({
			method: 'GET',
			url: `${BASE}${REFRESH_PATH}`,
			headers: { refresh_token: 'the-refresh-token' },
		});
	});

	test('401 or 403 is a refused token; an answer without a token is a failure, not a token', async () => {
		const refused = helper(() => {
			throw httpError(403, {});
		});
		expect(await refresh(refused.self, pasted(), 'r')).toMatchObject({ refused: { status: 403 } });
		const empty = helper(() => ({ token_type: 'Bearer' }));
		expect(await refresh(empty.self, pasted(), 'r')).toEqual({
			failed: { status: 200 },
			attempts: 1,
		});
	});
});

describe('withRefreshToken: the Refresh Token method', () => {
	test('an empty Refresh Token is said before anything is sent', async () => {
		const { self, httpRequest } = helper(() => ({ access_token: 'a' }));
		const error = await failureOf(withRefreshToken(self, pasted('  '), {}));
		expect(error.message).toMatch(
			/^Renewing the access token failed: Sign-in Method is Refresh Token but Refresh Token is empty/,
		);
		expect(httpRequest).not.toHaveBeenCalled();
	});

	test('a refused token is not sent again within its pause', async () => {
		const { self, httpRequest } = helper(() => {
			throw httpError(401, { detail: 'Refresh Token Expired' });
		});
		const first = await failureOf(withRefreshToken(self, pasted(), {}));
		expect(first).toBeInstanceOf(RenewalFailed);
		expect(first.message).toContain(
			'the API refused the refresh token (401: Refresh Token Expired)',
		);
		const again = await failureOf(withRefreshToken(self, pasted(), {}));
		expect(again.message).toContain('n8n did not send it again');
		expect(httpRequest).toHaveBeenCalledTimes(1);
	});

	test('a service fault is retried, then reported with the attempts and no secret', async () => {
		const { self, httpRequest } = helper(() => {
			throw httpError(503, { detail: `down, token ${PASTED_REFRESH}` });
		});
		const error = await failureOf(withRefreshToken(self, pasted(), {}));
		expect(httpRequest).toHaveBeenCalledTimes(5);
		expect(error.message).toMatch(/failed after 5 attempts: the API answered 503/);
		expect(error.message).not.toContain(PASTED_REFRESH);
	});
});
