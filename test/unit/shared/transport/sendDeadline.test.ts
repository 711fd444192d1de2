import type { IExecuteFunctions, IHttpRequestOptions, INode } from 'n8n-workflow';
import { beginCall } from '../../../../nodes/shared/callDeadline';
import { renewalOwner, sendRenewal } from '../../../../nodes/shared/auth/renewalRequest';
import { pacer } from '../../../../nodes/shared/transport/pacing';
import { send, type SendPolicy } from '../../../../nodes/shared/transport/send';
import { NODE, TOKEN, httpError } from '../../../support/fakeContext';

/**
 * A tool call's waits all draw on one deadline, 20 s from its start: each wait that alone would
 * pass it, and two waits that add up past it, end the call at once with when to try again, and
 * nothing is sent for it then or later. The clock is jest's: every moment a request leaves is
 * known, and "later" is the clock run far past the wait.
 */

const T0 = Date.parse('2026-11-23T10:00:00Z');
const LIMIT = { requests: 2, windowMs: 60_000 };
/** The pacer's margin past the window's edge (100 ms + 1% of the window). */
const MARGIN = 100 + LIMIT.windowMs / 100;
const BASE = 'https://api.example.test';
const AD = '/api/advertisement/telegram/7';
const LIST = '/api/advertisement/telegram/';
const LOGIN = '/api/v2/login';
const WHO = renewalOwner({ baseUrl: BASE, username: 'ann' });

const TOOL: INode = { ...NODE, type: 'n8n-nodes-ad-cabinet.adCabinetAdsTool' };

type Answer = (options: IHttpRequestOptions) => unknown;

/** A node run as n8n makes it (one input item), and the requests it sent, each with its moment. */
function run(answer: Answer = () => '{}', node: INode = TOOL) {
	const sent: Array<{ at: number; method: string; path: string }> = [];
	const items = [{ json: {} }];
	const ctx = {
		getNode: () => node,
		getInputData: () => items,
		helpers: {
			httpRequestWithAuthentication: jest.fn(
				async (_type: string, options: IHttpRequestOptions) => {
					sent.push({
						at: Date.now() - T0,
						method: options.method ?? 'GET',
						path: new URL(options.url).pathname,
					});
					return await answer(options);
				},
			),
		},
	} as unknown as IExecuteFunctions;
	beginCall(ctx);
	return { ctx, sent };
}

function policy(path: string, paced = true): SendPolicy<unknown> {
	return {
		idempotent: true,
		secrets: [TOKEN],
		accept: (answer) => answer,
		owner: WHO,
		pace: paced ? { key: `cred\u0000${path}`, limit: LIMIT } : undefined,
	};
}

const get = (path: string) => ({ http: { method: 'GET' as const, url: `${BASE}${path}` } });
const put = (path: string) => ({
	http: { method: 'PUT' as const, url: `${BASE}${path}`, body: {} },
});

/** The error a call ended with, or 'answered'. */
async function outcome(promise: Promise<unknown>): Promise<string> {
	return await promise.then(
		() => 'answered',
		(error: Error) => error.message,
	);
}

/** Spends the path's places now, as other runs of this process would. */
async function spend(path: string, count = LIMIT.requests): Promise<void> {
	for (let i = 0; i < count; i++) await pacer.admit(`cred\u0000${path}`, LIMIT);
}

const tryAgain = (message: string) => Number(/try again in (\d+) s\b/.exec(message)?.[1]);

describe('a tool call has one deadline for all its waits', () => {
	beforeEach(() => {
		jest.useFakeTimers();
		jest.setSystemTime(T0);
		pacer.reset();
	});
	afterEach(() => jest.useRealTimers());

	test('the pacer alone: a place 60 s away ends the call at once; nothing is sent then or later', async () => {
		await spend(AD);
		const { ctx, sent } = run();
		const message = await outcome(send(ctx, get(AD), policy(AD)));
		expect(message).toContain(
			`has used them: try again in ${Math.ceil((60_000 + MARGIN) / 1000)} s.`,
		);
		expect(message).toContain('Nothing was sent for this call, so trying again then is safe.');
		expect(message).toContain('(A tool call answers within 20 s of its start');
		expect(Date.now()).toBe(T0);
		await jest.advanceTimersByTimeAsync(5 * 60_000);
		expect(sent).toEqual([]);
	});

	test("a workflow's node under the same limit waits for the place and sends then", async () => {
		await spend(AD);
		const { ctx, sent } = run(() => '{}', NODE);
		const answered = outcome(send(ctx, get(AD), policy(AD)));
		await jest.advanceTimersByTimeAsync(60_000 + MARGIN);
		expect(await answered).toBe('answered');
		expect(sent).toEqual([{ at: 60_000 + MARGIN, method: 'GET', path: AD }]);
	});

	test('a blocked path alone: the call ends at once naming the block', async () => {
		pacer.block(`cred\u0000${AD}`, LIMIT);
		const { ctx, sent } = run();
		const message = await outcome(send(ctx, get(AD), policy(AD)));
		expect(message).toContain('is blocked for the rest of its window');
		expect(tryAgain(message)).toBe(61);
		await jest.advanceTimersByTimeAsync(5 * 60_000);
		expect(sent).toEqual([]);
	});

	test("a 429's Retry-After alone (25 s): one request at 0 s, the call ends then, nothing more is sent", async () => {
		const { ctx, sent } = run(() => {
			throw httpError(429, {}, { 'retry-after': '25' });
		});
		const message = await outcome(send(ctx, get(AD), policy(AD, false)));
		expect(message).toContain('asked to wait 25 s: try again in 25 s.');
		expect(message).toContain(
			`This call sent GET ${AD} (answered 429, not performed) and nothing more`,
		);
		await jest.advanceTimersByTimeAsync(5 * 60_000);
		expect(sent).toEqual([{ at: 0, method: 'GET', path: AD }]);
	});

	test('a Retry-After of 15 s twice adds up past the deadline: the first is waited out, the second ends the call at 15 s', async () => {
		const { ctx, sent } = run(() => {
			throw httpError(429, {}, { 'retry-after': '15' });
		});
		const ended = outcome(send(ctx, get(AD), policy(AD, false)));
		await jest.advanceTimersByTimeAsync(15_000);
		const message = await ended;
		expect(message).toContain('asked to wait 15 s: try again in 15 s.');
		expect(Date.now()).toBe(T0 + 15_000);
		await jest.advanceTimersByTimeAsync(5 * 60_000);
		expect(sent.map((s) => s.at)).toEqual([0, 15_000]);
	});

	test('two pages of one call add up: the first waits 12 s, the second would wait 12 s more and ends the call; the first page is named as sent', async () => {
		// Places free 12 s and 24 s from now: those of earlier requests on the path.
		jest.setSystemTime(T0 - 48_000 - MARGIN);
		await spend(LIST, 1);
		jest.setSystemTime(T0 - 36_000 - MARGIN);
		await spend(LIST, 1);
		jest.setSystemTime(T0);
		const { ctx, sent } = run();
		const first = outcome(send(ctx, get(LIST), policy(LIST)));
		await jest.advanceTimersByTimeAsync(12_000);
		expect(await first).toBe('answered');
		const message = await outcome(send(ctx, get(`${LIST}?offset=50`), policy(LIST)));
		expect(tryAgain(message)).toBe(12);
		expect(message).toContain(
			`This call sent GET ${LIST} and nothing more; none of it changed anything`,
		);
		await jest.advanceTimersByTimeAsync(5 * 60_000);
		expect(sent.map((s) => s.at)).toEqual([12_000]);
	});

	test('a read then a write on a spent path: the write is not sent, and the message says only a read went out', async () => {
		// One place of the ad's path is left: the read takes it, the write would wait 60 s.
		await spend(AD, 1);
		const { ctx, sent } = run();
		expect(await outcome(send(ctx, get(AD), policy(AD)))).toBe('answered');
		const message = await outcome(send(ctx, put(AD), { ...policy(AD), idempotent: false }));
		expect(message).toContain(
			`This call sent GET ${AD} and nothing more; none of it changed anything, so trying again then is safe.`,
		);
		await jest.advanceTimersByTimeAsync(5 * 60_000);
		expect(sent).toEqual([{ at: 0, method: 'GET', path: AD }]);
	});

	describe('sign-in, asked for by n8n while only tool calls of the credential are under way', () => {
		/** n8n's helper: it signs in first (preAuthentication), then sends the request. */
		function signingIn(sentLogins: number[]): Answer {
			const login = { key: `${WHO}\u0000${LOGIN}`, limit: LIMIT };
			return async () => {
				const outcome = await sendRenewal(
					{
						helpers: {
							httpRequest: async () => {
								sentLogins.push(Date.now() - T0);
								return { access_token: 'x' };
							},
						},
					},
					{ method: 'POST', url: `${BASE}${LOGIN}` },
					login,
					undefined,
					WHO,
				);
				if ('failure' in outcome) throw new Error('sign-in failed');
				return '{}';
			};
		}

		test("the sign-in path's wait alone: the call ends at once, and no sign-in is sent", async () => {
			for (let i = 0; i < LIMIT.requests; i++) await pacer.admit(`${WHO}\u0000${LOGIN}`, LIMIT);
			const logins: number[] = [];
			const { ctx, sent } = run(signingIn(logins));
			const message = await outcome(send(ctx, get(AD), policy(AD)));
			expect(message).toContain('Sign-in to the Ad Cabinet API for this call');
			expect(tryAgain(message)).toBe(61);
			await jest.advanceTimersByTimeAsync(5 * 60_000);
			expect(logins).toEqual([]);
			expect(sent.map((s) => s.at)).toEqual([0]);
		});

		test("the API path's wait (12 s) and the sign-in path's (12 s more) add up: the call ends at 12 s, no sign-in is sent", async () => {
			// The ad's path frees a place 12 s from now, the sign-in path 24 s from now.
			jest.setSystemTime(T0 - 48_000 - MARGIN);
			await spend(AD);
			jest.setSystemTime(T0 - 36_000 - MARGIN);
			for (let i = 0; i < LIMIT.requests; i++) await pacer.admit(`${WHO}\u0000${LOGIN}`, LIMIT);
			jest.setSystemTime(T0);
			const logins: number[] = [];
			const { ctx } = run(signingIn(logins));
			const ended = outcome(send(ctx, get(AD), policy(AD)));
			await jest.advanceTimersByTimeAsync(12_000);
			const message = await ended;
			expect(message).toContain('Sign-in to the Ad Cabinet API for this call');
			expect(tryAgain(message)).toBe(12);
			expect(Date.now()).toBe(T0 + 12_000);
			await jest.advanceTimersByTimeAsync(5 * 60_000);
			expect(logins).toEqual([]);
		});
	});
});
