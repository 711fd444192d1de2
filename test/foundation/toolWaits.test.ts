import type { INodeParameters } from 'n8n-workflow';
import { runAsTool, runNode } from '../../harness';
import { apiRequests, credentialsFor, signInCredentialsFor } from '../../harness/sandbox';
import { forgetSharedRenewals, renewalOwner } from '../../nodes/shared/auth';
import { pacer } from '../../nodes/shared/transport/pacing';
import { recentAdReads } from '../../nodes/AdCabinetAds/resources/ad/recentReads';
import { AD_PATH, locator } from '../support/adFixtures';
import { useSandbox } from '../support/useSandbox';

/**
 * A tool call answers before the AI client gives up: a wait for the rate limit that would end past
 * the call's deadline (20 s from its start) is not taken. The call fails at once saying when to try
 * again, and the same call after that many seconds goes through. A workflow's node still waits.
 *
 * The API's limit here is 2 requests a minute. The clock that the nodes and the sandbox's rate
 * limit read (Date) is the test's: it stands still while a call runs, so every "try again in N s"
 * is exact, and "after N s" is the clock moved on, not a wait. Timers stay real, so the sandbox
 * answers over HTTP as usual. What each wait does moment by moment is in
 * test/unit/shared/transport/sendDeadline.test.ts.
 */
const NOW = '2026-11-20T12:00:00.000Z';
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

/** Moves the test's clock on, as if that many seconds had passed. */
const after = (seconds: number) => jest.setSystemTime(Date.now() + seconds * 1000);

describe("tool calls do not wait past the call's deadline", () => {
	const sandbox = useSandbox({ platform: 'telegram', now: NOW });
	const adRequests = () =>
		apiRequests(sandbox()).filter((request) => request.path.endsWith(ADS_PATH));

	beforeEach(() => {
		jest.useFakeTimers({
			doNotFake: [
				'hrtime',
				'nextTick',
				'performance',
				'queueMicrotask',
				'requestAnimationFrame',
				'cancelAnimationFrame',
				'requestIdleCallback',
				'cancelIdleCallback',
				'setImmediate',
				'clearImmediate',
				'setInterval',
				'clearInterval',
				'setTimeout',
				'clearTimeout',
			],
			now: Date.parse(NOW),
		});
		pacer.reset();
		recentAdReads.reset();
		forgetSharedRenewals();
		sandbox().rateLimiter.set({ requests: 2, windowSeconds: 60 });
		sandbox().rateLimiter.reset(true);
	});
	afterEach(() => jest.useRealTimers());
	afterAll(() => sandbox().rateLimiter.set(null));

	/** The ad list asked for as a tool, `calls` times in one run, with these credentials. */
	const askAds = async (calls = 1, credentials: object = credentialsFor(sandbox())) =>
		await runAsTool({
			type: 'adCabinetAds',
			typeVersion: 1.3,
			parameters: ADS,
			credentials: credentials as Parameters<typeof runAsTool>[0]['credentials'],
			calls: Array.from({ length: calls }, () => ({})),
		});

	test('a call whose path has used its requests fails at once, sends nothing, and succeeds after the seconds it names', async () => {
		const { calls } = await askAds(3);
		expect(calls[0].result).toHaveLength(5);
		expect(calls[1].result).toHaveLength(5);
		const message = calls[2].error ?? '';
		expect(message).toContain(
			`The Ad Cabinet API allows 2 requests a minute for each URL path, and this call's path (the ads list: ${ADS_PATH}) has used them: try again in 61 s. Nothing was sent for this call, so trying again then is safe. (A tool call answers within 20 s of its start, every wait inside it included, so that the AI client does not give up first.)`,
		);
		expect(adRequests()).toHaveLength(2);
		// The refused call left no turn in the path's queue: the next request waits only for the window.
		expect(pacer.waitFor(`cred-1\u0000${ADS_PATH}`, { requests: 2, windowMs: 60_000 })).toBe(
			60_700,
		);

		// The same call after the seconds named goes through at once.
		after(61);
		const again = await askAds();
		expect(again.calls[0].error).toBeUndefined();
		expect(again.calls[0].result).toHaveLength(5);
		expect(adRequests()).toHaveLength(3);
		expect(sandbox().rateLimiter.answered429).toBe(0);
	});

	test("a workflow's node under the same limit waits and returns every item", async () => {
		// Its wait is real (a clock that stood still would never end it): a short window keeps it short.
		jest.useRealTimers();
		sandbox().rateLimiter.set({ requests: 2, windowSeconds: 2 });
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

	test('a 429 with a long Retry-After answers the tool call at once with its seconds, and the call succeeds after them', async () => {
		sandbox().faults.set({ rate: 0, kinds: ['429'], retryAfterSeconds: 120 });
		sandbox().faults.onNth(1, '429');
		const { calls } = await askAds();
		const message = calls[0].error ?? '';
		expect(message).toContain(
			`the API answered 429 (rate limit exceeded) for this call's path (the ads list: ${ADS_PATH}) and asked to wait 120 s: try again in 120 s.`,
		);
		expect(message).toContain('The API performs nothing it answers 429.');
		expect(message).toContain(
			`This call sent GET ${ADS_PATH} (answered 429, not performed) and nothing more; none of it changed anything, so trying again then is safe.`,
		);
		expect(adRequests()).toHaveLength(1);
		after(120);
		const again = await askAds();
		expect(again.calls[0].result).toHaveLength(5);
		expect(adRequests()).toHaveLength(2);
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
		expect(calls[2].error).toContain(
			`the API answered 429 (rate limit exceeded) for this call's path (the ads list: ${ADS_PATH}), and a path stays blocked for the rest of its window (it allows 5 requests a minute for each URL path): try again in 61 s.`,
		);
		expect(calls[3].error).toContain(
			`answered an earlier request 429 (rate limit exceeded), so this call's path (the ads list: ${ADS_PATH}) is blocked for the rest of its window (a request sent into the block would extend it): try again in 61 s. Nothing was sent for this call`,
		);
		expect(adRequests()).toHaveLength(3);
	});

	test('a sign-in that would wait for its path answers the tool call at once, and nothing is sent', async () => {
		const credentials = signInCredentialsFor(sandbox());
		// Two sign-ins of other runs just took the sign-in path's places for this user.
		const limit = { requests: 2, windowMs: 60_000 };
		const key = `${renewalOwner(credentials)}\u0000/api/v2/login`;
		await pacer.admit(key, limit);
		await pacer.admit(key, limit);
		const { calls } = await askAds(1, credentials);
		const message = calls[0].error ?? '';
		expect(message).toContain(
			'The Ad Cabinet API allows 2 requests a minute for each URL path, and Sign-in to the Ad Cabinet API for this call (sign-in: /base/api/v2/login) has used them: try again in 61 s.',
		);
		expect(message).toContain('Nothing was sent for this call');
		expect(sandbox().requests).toHaveLength(0);
		after(Number(TRY_AGAIN.exec(message)?.[1]));
		const again = await askAds(1, credentials);
		expect(again.calls[0].error).toBeUndefined();
		expect(again.calls[0].result).toHaveLength(5);
	});
	test('a sign-in refused 429 by a service that counts sign-ins, another client having spent the path, answers at once; the half-spent list path sees nothing until the call after N s', async () => {
		const credentials = signInCredentialsFor(sandbox());
		sandbox().rateLimiter.countRenewals = true;
		try {
			// Another client of the account: both sign-in places of the window, one of the list's two.
			const signIn = async () =>
				await fetch(`${sandbox().baseUrl}/api/v2/login`, {
					method: 'POST',
					headers: { 'content-type': 'application/x-www-form-urlencoded' },
					body: `username=${sandbox().username}&password=${sandbox().password}`,
				});
			await signIn();
			const token = ((await (await signIn()).json()) as { access_token: string }).access_token;
			await fetch(`${sandbox().baseUrl}${ADS_PATH}?limit=1`, {
				headers: { authorization: `Bearer ${token}` },
			});
			sandbox().clearLog();
			const { calls } = await askAds(1, credentials);
			const message = calls[0].error ?? '';
			const seconds = Number(TRY_AGAIN.exec(message)?.[1]);
			expect(seconds).toBeGreaterThan(20);
			expect(message).toContain('Nothing was sent for this call');
			expect(sandbox().requests.map((r) => [r.path, r.status])).toEqual([['/api/v2/login', 429]]);
			after(seconds);
			const again = await askAds(1, credentials);
			expect(again.calls[0].error).toBeUndefined();
			expect(again.calls[0].result).toHaveLength(5);
		} finally {
			sandbox().rateLimiter.countRenewals = false;
		}
	});
	test('a read and a change in one call share its deadline: the read goes, the change that would wait past it is not sent, and the message names the read', async () => {
		const ad = sandbox().data.ads.find((a) => a.status === 'active');
		if (!ad) throw new Error('no active ad');
		const path = `${AD_PATH.telegram}${ad.id}`;
		const cpm = Number(sandbox().data.adDetail(ad.id)?.cpm);
		// Another run of this process took one of the path's 2 places this minute.
		await pacer.admit(`cred-1\u0000${path}`, { requests: 2, windowMs: 60_000 });
		const apply = async () =>
			await runAsTool({
				type: 'adCabinetAds',
				typeVersion: 1.3,
				parameters: {
					resource: 'ad',
					operation: 'update',
					adId: locator("={{ $fromAI('Ad_ID', 'Ad_ID', 'string') }}"),
					updateFields: { cpm: "={{ $fromAI('CPM', 'CPM', 'number') }}" },
					options: { cpmMin: 0.5, cpmMax: 10, maxChangePercent: 50, skipUnchanged: true },
				},
				credentials: credentialsFor(sandbox()),
				calls: [{ Ad_ID: String(ad.id), CPM: Math.round(cpm * 110) / 100 }],
			});
		const { calls } = await apply();
		expect(calls[0].error).toContain(
			`has used them: try again in 61 s. This call sent GET ${path} and nothing more; none of it changed anything, so trying again then is safe.`,
		);
		const onPath = () => apiRequests(sandbox()).filter((r) => r.path === path);
		expect(onPath().map((r) => r.method)).toEqual(['GET']);

		after(61);
		const again = await apply();
		expect(again.calls[0].error).toBeUndefined();
		expect(onPath().map((r) => r.method)).toEqual(['GET', 'GET', 'PUT']);
	});
});
