import { viewOf } from '../../../../nodes/shared/auth/credentialView';
import type { IHttpRequestOptions } from 'n8n-workflow';
import { pacer } from '../../../../nodes/shared/transport/pacing';
import { renewalPace, sendRenewal } from '../../../../nodes/shared/auth/renewalRequest';
import { httpError, networkError } from '../../../support/fakeContext';

const LOGIN: IHttpRequestOptions = { method: 'POST', url: 'https://api.example.test/api/v2/login' };

function helper(answer: (call: number, options: IHttpRequestOptions) => unknown) {
	let calls = 0;
	const httpRequest = jest.fn(
		async (options: IHttpRequestOptions) => await answer(++calls, options),
	);
	return { self: { helpers: { httpRequest } }, httpRequest };
}

beforeEach(() => {
	pacer.reset();
	// Backoff waits at their shortest: the tests are about what is sent, not how long it waits.
	jest.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => jest.restoreAllMocks());

describe('a sign-in or refresh request follows the rules of every request', () => {
	test('a 5xx, a dropped connection and a timeout are retried like a read; the answer after them is returned', async () => {
		const { self, httpRequest } = helper((call) => {
			if (call === 1) throw httpError(502, { detail: 'Bad gateway' });
			if (call === 2) throw networkError('ECONNRESET');
			if (call === 3) throw networkError('ETIMEDOUT');
			return { access_token: 'a' };
		});
		const sent = await sendRenewal(self, LOGIN, undefined);
		expect(sent).toEqual({ answer: { access_token: 'a' }, attempts: 4 });
		expect(httpRequest).toHaveBeenCalledTimes(4);
		// Every attempt has its own bound and no redirect is followed.
		for (const [options] of httpRequest.mock.calls) {
			expect(options).toMatchObject({ disableFollowRedirect: true, timeout: 30_000 });
			expect(options.abortSignal).toBeDefined();
		}
	});

	test('five attempts in all, as for reads; then the last failure with the number of attempts', async () => {
		const { self, httpRequest } = helper(() => {
			throw httpError(503, {});
		});
		const sent = await sendRenewal(self, LOGIN, undefined);
		expect(sent).toMatchObject({ failure: { status: 503 }, attempts: 5 });
		expect(httpRequest).toHaveBeenCalledTimes(5);
	});

	test('a refusal (401) is returned at once, never repeated', async () => {
		const { self, httpRequest } = helper(() => {
			throw httpError(401, { detail: 'Incorrect username or password' });
		});
		expect(await sendRenewal(self, LOGIN, undefined)).toMatchObject({
			failure: { status: 401 },
			attempts: 1,
		});
		expect(httpRequest).toHaveBeenCalledTimes(1);
	});

	test('an answer that never finishes is cut off at the deadline, headers and body together', async () => {
		const { self } = helper(async () => await new Promise(() => undefined));
		const started = Date.now();
		const sent = await sendRenewal(self, LOGIN, undefined, Date.now() + 150);
		expect(sent).toMatchObject({ failure: { code: 'ETIMEDOUT', deadlineMs: expect.any(Number) } });
		expect(Date.now() - started).toBeLessThan(2_000);
	});

	test('paced on its own path: the credential limit applies to sign-in too', async () => {
		const pace = renewalPace(
			viewOf({
				baseUrl: 'https://api.example.test',
				username: 'u',
				rateLimitRequests: 2,
				rateLimitWindow: 0.3,
			}),
			'/api/v2/login',
		);
		expect(pace?.key).toContain('/api/v2/login');
		const { self } = helper(() => ({ access_token: 'a' }));
		const started = Date.now();
		for (let i = 0; i < 3; i++) await sendRenewal(self, LOGIN, pace);
		// Two requests per 0.3 s (with Rate Limit Requests 2 one place is kept for repeats): the
		// later ones waited for the window.
		expect(Date.now() - started).toBeGreaterThanOrEqual(300);
	});

	test('a 429 closes the path for the window plus 1 s, and the renewal waits for it and then succeeds', async () => {
		const pace = renewalPace(
			viewOf({
				baseUrl: 'https://api.example.test',
				username: 'u',
				rateLimitRequests: 10,
				rateLimitWindow: 0.2,
			}),
			'/api/v2/login',
		);
		if (!pace) throw new Error('pacing is on');
		const times: number[] = [];
		const { self } = helper((call) => {
			times.push(Date.now());
			if (call === 1) throw httpError(429, { detail: 'Rate limit exceeded' });
			return { access_token: 'a' };
		});
		const sent = await sendRenewal(self, LOGIN, pace);
		expect(sent).toMatchObject({ answer: { access_token: 'a' }, attempts: 2 });
		expect(times[1] - times[0]).toBeGreaterThanOrEqual(1_150);
	});

	test('a block that outlasts the renewal deadline ends it with the 429, without sending into the block', async () => {
		const pace = renewalPace(
			viewOf({
				baseUrl: 'https://api.example.test',
				username: 'u',
				rateLimitRequests: 10,
				rateLimitWindow: 60,
			}),
			'/api/v2/login',
		);
		const { self, httpRequest } = helper(() => {
			throw httpError(429, {});
		});
		const sent = await sendRenewal(self, LOGIN, pace, Date.now() + 5_000);
		expect(sent).toMatchObject({ failure: { status: 429 }, attempts: 1 });
		expect(httpRequest).toHaveBeenCalledTimes(1);
	});
});
