import type { INodeParameters } from 'n8n-workflow';
import { runAsTool, runNode } from '../../harness';
import { apiRequests, credentialsFor, signInCredentialsFor } from '../../harness/sandbox';
import { forgetSharedRenewals, renewalOwner } from '../../nodes/shared/auth';
import { setToolMaxWaitForTests, TOOL_MAX_WAIT_MS } from '../../nodes/shared/toolCall';
import { pacer } from '../../nodes/shared/transport/pacing';
import { useSandbox } from '../support/useSandbox';

/**
 * A tool call answers before the AI client gives up: a wait for the rate limit longer than the
 * bound (20 s; here 0.5 s, and the API's window 3 s, so that the tests are short) is not taken.
 * The call fails at once saying when to try again, nothing is sent for it then or later, and the
 * same call after that many seconds goes through. A workflow's node still waits.
 */
const NOW = '2026-11-20T12:00:00.000Z';
const BOUND_MS = 1_000;
const ADS: INodeParameters = {
	resource: 'ad',
	operation: 'getAll',
	returnAll: false,
	simplify: true,
	limit: 5,
};
/** The ad list's path, as the API's rate limit counts it. */
const ADS_PATH = '/api/v2/advertisement/';
const TRY_AGAIN = /try again in (\d+) s/;

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

describe('tool calls do not wait past the bound', () => {
	const sandbox = useSandbox({ platform: 'telegram', now: NOW });
	const adRequests = () =>
		apiRequests(sandbox()).filter((request) => request.path.endsWith(ADS_PATH));

	beforeEach(() => {
		pacer.reset();
		forgetSharedRenewals();
		setToolMaxWaitForTests(BOUND_MS);
		sandbox().rateLimiter.set({ requests: 2, windowSeconds: 3 });
		sandbox().rateLimiter.reset(true);
	});
	afterEach(() => setToolMaxWaitForTests(undefined));
	afterAll(() => sandbox().rateLimiter.set(null));

	const askAds = async (calls = 1) =>
		await runAsTool({
			type: 'adCabinetAds',
			typeVersion: 1.3,
			parameters: ADS,
			credentials: credentialsFor(sandbox()),
			calls: Array.from({ length: calls }, () => ({})),
		});

	test('the bound is 20 s, well inside the 60 s an MCP client waits by default', () => {
		expect(TOOL_MAX_WAIT_MS).toBe(20_000);
	});

	test('a call whose path has used its requests fails at once, sends nothing then or later, and succeeds after the seconds it names', async () => {
		const { calls } = await askAds(3);
		expect(calls[0].result).toHaveLength(5);
		expect(calls[1].result).toHaveLength(5);
		const message = calls[2].error ?? '';
		expect(message).toContain(
			`The Ad Cabinet API allows 2 requests in 3 s for each URL path, and this call's path (the ads list: ${ADS_PATH}) has used them: try again in`,
		);
		expect(message).toContain('Nothing was sent for this call, so trying again then is safe.');
		expect(message).toContain('(A tool call does not wait longer than 1 s for the rate limit');
		expect(adRequests()).toHaveLength(2);
		const seconds = Number(TRY_AGAIN.exec(message)?.[1]);
		expect(seconds).toBeGreaterThanOrEqual(3);
		expect(seconds).toBeLessThanOrEqual(4);

		// Past the moment the refused call would have been sent, had it waited: nothing more came.
		await sleep(seconds * 1000);
		expect(adRequests()).toHaveLength(2);
		expect(sandbox().rateLimiter.answered429).toBe(0);

		// The same call after the seconds named goes through, without waiting past the bound.
		const again = await askAds();
		expect(again.calls[0].error).toBeUndefined();
		expect(again.calls[0].result).toHaveLength(5);
		expect(adRequests()).toHaveLength(3);
	});

	test("a workflow's node under the same limit waits and returns every item", async () => {
		const { items, error } = await runNode({
			type: 'adCabinetAds',
			typeVersion: 1.3,
			parameters: ADS,
			credentials: credentialsFor(sandbox()),
			input: [{}, {}, {}],
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(15);
		expect(adRequests()).toHaveLength(3);
		expect(sandbox().rateLimiter.answered429).toBe(0);
	});

	test('a 429 with a long Retry-After answers the tool call at once with its seconds, and nothing more is sent', async () => {
		sandbox().faults.set({ rate: 0, kinds: ['429'], retryAfterSeconds: 120 });
		sandbox().faults.onNth(1, '429');
		const { calls } = await askAds();
		const message = calls[0].error ?? '';
		expect(message).toContain(
			`the API answered 429 (rate limit exceeded) for this call's path (the ads list: ${ADS_PATH}) and asked to wait 120 s: try again in 120 s.`,
		);
		expect(message).toContain('trying again then is safe');
		expect(adRequests()).toHaveLength(1);
		await sleep(4_000);
		expect(adRequests()).toHaveLength(1);
	});

	test('a call on a path blocked after a 429 fails at once and names the block', async () => {
		// The credential allows more than the API, so the third request meets a 429 and blocks the path.
		const { calls } = await runAsTool({
			type: 'adCabinetAds',
			typeVersion: 1.3,
			parameters: ADS,
			credentials: { ...credentialsFor(sandbox()), rateLimitRequests: 5 },
			calls: [{}, {}, {}, {}],
		});
		expect(calls[2].error).toMatch(
			/the API answered 429 \(rate limit exceeded\) for this call's path .*: try again in [45] s\./,
		);
		expect(calls[3].error).toMatch(
			/answered an earlier request 429 \(rate limit exceeded\), so this call's path .* is blocked .*: try again in [45] s\. Nothing was sent for this call/,
		);
		expect(adRequests()).toHaveLength(3);
	});

	test('a sign-in that would wait for its path answers the tool call at once, and nothing is sent', async () => {
		const credentials = signInCredentialsFor(sandbox());
		// Two sign-ins of other runs just took the sign-in path's places for this user.
		const limit = { requests: 2, windowMs: 3_000 };
		const key = `${renewalOwner(credentials)}\u0000/api/v2/login`;
		await pacer.admit(key, limit);
		await pacer.admit(key, limit);
		const { calls } = await runAsTool({
			type: 'adCabinetAds',
			typeVersion: 1.3,
			parameters: ADS,
			credentials,
		});
		const message = calls[0].error ?? '';
		expect(message).toContain(
			'The Ad Cabinet API allows 2 requests in 3 s for each URL path, and Sign-in to the Ad Cabinet API for this call (sign-in: /base/api/v2/login) has used them: try again in',
		);
		expect(message).toContain('Nothing was sent for this call');
		expect(sandbox().requests).toHaveLength(0);
		await sleep(Number(TRY_AGAIN.exec(message)?.[1]) * 1000);
		expect(sandbox().requests).toHaveLength(0);
		const again = await runAsTool({
			type: 'adCabinetAds',
			typeVersion: 1.3,
			parameters: ADS,
			credentials,
		});
		expect(again.calls[0].error).toBeUndefined();
		expect(again.calls[0].result).toHaveLength(5);
	});
});
