import { viewOf } from '../../../../nodes/shared/auth';
import { LoggerProxy, type INode } from 'n8n-workflow';
import { Pacer, paceKey, paceLimitOf, pacingFor } from '../../../../nodes/shared/transport/pacing';

const LIMIT = { requests: 3, windowMs: 10_000 };
/** The margin past the window's edge the pacer keeps (100 ms + 1% of the window). */
const MARGIN = 100 + LIMIT.windowMs / 100;

describe('Pacer: a sliding window per credential and path', () => {
	beforeEach(() => {
		jest.useFakeTimers();
		jest.setSystemTime(Date.parse('2026-11-23T10:00:00Z'));
	});
	afterEach(() => jest.useRealTimers());

	/** Starts `count` requests on `key` and records the clock when each is let through. */
	function startMany(pacer: Pacer, key: string, count: number): number[] {
		const started: number[] = [];
		for (let i = 0; i < count; i++)
			void pacer.admit(key, LIMIT).then(() => started.push(Date.now()));
		return started;
	}

	test('no more than the limit start in any window; the next waits for the oldest start to leave it', async () => {
		const pacer = new Pacer();
		const t0 = Date.now();
		const started = startMany(pacer, 'cred|/api/v1/stats/page', 7);
		await jest.advanceTimersByTimeAsync(0);
		expect(started).toEqual([t0, t0, t0]);
		await jest.advanceTimersByTimeAsync(LIMIT.windowMs + MARGIN - 1);
		expect(started).toHaveLength(3);
		await jest.advanceTimersByTimeAsync(1);
		expect(started).toHaveLength(6);
		await jest.advanceTimersByTimeAsync(LIMIT.windowMs + MARGIN);
		expect(started).toHaveLength(7);
		// In every window of LIMIT.windowMs there are at most 3 starts.
		for (const start of started) {
			expect(
				started.filter((other) => other >= start && other < start + LIMIT.windowMs).length,
			).toBeLessThanOrEqual(3);
		}
	});

	test("a wait of a second or more is one debug line in n8n's log, with the path and the limit", async () => {
		const lines: Array<[string, unknown]> = [];
		const record = (message: string, meta?: unknown) => lines.push([message, meta]);
		LoggerProxy.init({ error: record, warn: record, info: record, debug: record });
		const pacer = new Pacer();
		const key = paceKey(
			{ credentials: { adCabinetApi: { id: 'c1', name: 'c' } } } as unknown as INode,
			viewOf({ baseUrl: 'https://client.example', username: 'u' }),
			'https://client.example/api/v1/stats/page',
		);
		startMany(pacer, key, 5);
		await jest.advanceTimersByTimeAsync(LIMIT.windowMs + MARGIN);
		expect(lines).toEqual([
			[
				'Ad Cabinet API: waiting 11 s before the next request to /api/v1/stats/page: the rate limit is 3 requests in 10 s for each URL path',
				{
					rateLimitWait: {
						path: '/api/v1/stats/page',
						seconds: 11,
						requests: 3,
						windowSeconds: 10,
					},
				},
			],
		]);
	});

	describe('a place kept for the repeat n8n sends after a 401', () => {
		const LIMIT9 = { requests: 9, windowMs: 60_000 };
		const LIMIT10 = { requests: 10, windowMs: 60_000 };
		const KEY = 'cred|/api/v2/advertisement/';

		function startReserving(pacer: Pacer, count: number): number[] {
			const started: number[] = [];
			for (let i = 0; i < count; i++)
				void pacer.admit(KEY, LIMIT9, true).then(() => started.push(Date.now()));
			return started;
		}

		test('requests sent together take two places each, so that their repeats fit in the window too', async () => {
			const pacer = new Pacer();
			const t0 = Date.now();
			const started = startReserving(pacer, 9);
			await jest.advanceTimersByTimeAsync(0);
			// 4 requests and their 4 possible repeats are 8 of the 9 places; a 5th would need 10.
			expect(started).toEqual([t0, t0, t0, t0]);
			await jest.advanceTimersByTimeAsync(5_000);
			expect(started).toHaveLength(4);
		});

		test('a request that ends without a renewal frees its reserved place at once', async () => {
			const pacer = new Pacer();
			const started = startReserving(pacer, 6);
			await jest.advanceTimersByTimeAsync(0);
			expect(started).toHaveLength(4);
			pacer.release(KEY, 0);
			await jest.advanceTimersByTimeAsync(100);
			expect(started).toHaveLength(5);
			// 5 starts and 3 reserves are 8 places: the 6th needs two.
			pacer.release(KEY, 0);
			await jest.advanceTimersByTimeAsync(100);
			expect(started).toHaveLength(5);
			pacer.release(KEY, 0);
			await jest.advanceTimersByTimeAsync(100);
			expect(started).toHaveLength(6);
		});

		test('a request that may have been repeated counts its repeat as a start in the window', async () => {
			const pacer = new Pacer();
			const t0 = Date.now();
			const started = startReserving(pacer, 5);
			await jest.advanceTimersByTimeAsync(0);
			for (let i = 0; i < 4; i++) pacer.release(KEY, 1);
			await jest.advanceTimersByTimeAsync(1_000);
			// 8 starts in the window (4 requests, 4 repeats): the 5th, with its reserve, waits for the window.
			expect(started).toHaveLength(4);
			await jest.advanceTimersByTimeAsync(LIMIT9.windowMs);
			expect(started).toHaveLength(5);
			expect(started[4]).toBeGreaterThanOrEqual(t0 + LIMIT9.windowMs);
		});

		test("one request after another: 9 of 10 places start in a window, the 10th is the running one's reserve", async () => {
			const pacer = new Pacer();
			const t0 = Date.now();
			const started: number[] = [];
			void (async () => {
				for (let i = 0; i < 10; i++) {
					await pacer.admit(KEY, LIMIT10, true);
					started.push(Date.now());
					pacer.release(KEY, 0);
				}
			})();
			await jest.advanceTimersByTimeAsync(0);
			expect(started).toEqual(Array(9).fill(t0));
			await jest.advanceTimersByTimeAsync(LIMIT10.windowMs + 1_000);
			expect(started[9]).toBeGreaterThanOrEqual(t0 + LIMIT10.windowMs);
		});

		test('without a reserve the pacer lets the whole limit through, as before', async () => {
			const pacer = new Pacer();
			const started: number[] = [];
			for (let i = 0; i < 10; i++)
				void pacer.admit(KEY, LIMIT9).then(() => started.push(Date.now()));
			await jest.advanceTimersByTimeAsync(0);
			expect(started).toHaveLength(9);
		});
	});

	test('two paths and two credentials each have their own budget', async () => {
		const pacer = new Pacer();
		const a = startMany(pacer, 'cred-1|/api/advertisement/telegram/1', 3);
		const b = startMany(pacer, 'cred-1|/api/advertisement/telegram/2', 3);
		const c = startMany(pacer, 'cred-2|/api/advertisement/telegram/1', 3);
		await jest.advanceTimersByTimeAsync(0);
		expect([a.length, b.length, c.length]).toEqual([3, 3, 3]);
	});

	test('after a 429 nothing starts on that path for the rest of the window plus one second', async () => {
		const pacer = new Pacer();
		const key = 'cred|/api/pixel_events/';
		await pacer.admit(key, LIMIT);
		const blockedAt = Date.now();
		pacer.block(key, LIMIT);
		const started = startMany(pacer, key, 1);
		await jest.advanceTimersByTimeAsync(LIMIT.windowMs + 999);
		expect(started).toHaveLength(0);
		await jest.advanceTimersByTimeAsync(1);
		expect(started).toEqual([blockedAt + LIMIT.windowMs + 1_000]);
		// Another path is not blocked.
		expect(await pacer.admit('cred|/api/kktu', LIMIT)).toBe(0);
	});

	test('admit says how long the request waited', async () => {
		const pacer = new Pacer();
		const key = 'cred|/x';
		for (let i = 0; i < 3; i++) await pacer.admit(key, LIMIT);
		const waited = pacer.admit(key, LIMIT);
		await jest.advanceTimersByTimeAsync(LIMIT.windowMs + MARGIN);
		await expect(waited).resolves.toBe(LIMIT.windowMs + MARGIN);
	});
});

describe('the credential decides the limit and the budget', () => {
	const node = (id?: string) =>
		({
			name: 'Ads',
			type: 'adCabinetAds',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
			credentials: id ? { adCabinetApi: { id, name: 'Adstat' } } : undefined,
		}) as unknown as INode;

	test('0 requests turns pacing off; a credential without the fields is not paced', () => {
		expect(paceLimitOf(viewOf({ rateLimitRequests: 10, rateLimitWindow: 60 }))).toEqual({
			requests: 10,
			windowMs: 60_000,
		});
		expect(paceLimitOf(viewOf({ rateLimitRequests: 0, rateLimitWindow: 60 }))).toBeUndefined();
		expect(paceLimitOf(viewOf({}))).toBeUndefined();
		// The whole budget also with a credential that renews its token: send() holds the place for n8n's
		// own repeat after renewing only while a request is under way.
		expect(
			paceLimitOf(viewOf({ authMethod: 'password', rateLimitRequests: 10, rateLimitWindow: 60 })),
		).toEqual({ requests: 10, windowMs: 60_000 });
		expect(
			paceLimitOf(
				viewOf({ authMethod: 'refreshToken', rateLimitRequests: 1, rateLimitWindow: 60 }),
			),
		).toEqual({ requests: 1, windowMs: 60_000 });
		expect(
			paceLimitOf(
				viewOf({ authMethod: 'accessToken', rateLimitRequests: 10, rateLimitWindow: 60 }),
			),
		).toEqual({ requests: 10, windowMs: 60_000 });
		expect(
			pacingFor(node('7'), viewOf({ rateLimitRequests: 0 }), 'https://client.adstat.pro/api/kktu'),
		).toBeUndefined();
	});

	test('the key is the saved credential and the literal path, without the query', () => {
		const credentials = {
			baseUrl: 'https://client.adstat.pro',
			username: 'ann',
			rateLimitRequests: 10,
		};
		expect(
			paceKey(
				node('7'),
				viewOf(credentials),
				'https://client.adstat.pro/api/advertisement/telegram/1?currency=EUR',
			),
		).toBe('7\u0000/api/advertisement/telegram/1');
		expect(paceKey(node('7'), viewOf(credentials), '/api/v2/advertisement/')).toBe(
			'7\u0000/api/v2/advertisement/',
		);
		expect(paceKey(node(), viewOf(credentials), '/api/kktu')).toBe(
			'https://client.adstat.pro|ann\u0000/api/kktu',
		);
	});

	test('behind a Base URL with a path of its own, the whole URL and the path after it are one path', () => {
		const credentials = {
			baseUrl: 'http://127.0.0.1:8080/base/',
			clientApiUrl: 'http://127.0.0.1:8080/client',
			username: 'ann',
			rateLimitRequests: 10,
		};
		const view = viewOf(credentials);
		// Our own requests carry the whole URL, n8n's routing the path after the Base URL.
		const whole = paceKey(
			node('7'),
			view,
			'http://127.0.0.1:8080/base/api/advertisement/telegram/1',
		);
		expect(whole).toBe(paceKey(node('7'), view, '/api/advertisement/telegram/1'));
		expect(whole).toBe('7\u0000/api/advertisement/telegram/1');
		expect(paceKey(node('7'), view, 'http://127.0.0.1:8080/client/api/kktu')).toBe(
			'7\u0000/api/kktu',
		);
	});
});
