import { PLATFORM_NAMES, fillPath, Sandbox, type SandboxOptions } from '../../sandbox';
import { apiClient, rawFetch, TEST_NOW, type ApiResponse } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

function controlOf(sandbox: () => Sandbox) {
	return (method: string, path: string, json?: unknown) =>
		rawFetch(`http://127.0.0.1:${sandbox().port}/__sandbox/${path}`, {
			method,
			headers: json === undefined ? {} : { 'content-type': 'application/json' },
			body: json === undefined ? undefined : JSON.stringify(json),
		});
}

async function statuses(requests: (() => Promise<ApiResponse>)[]): Promise<number[]> {
	const out: number[] = [];
	for (const send of requests) out.push((await send()).status);
	return out;
}

const times = <T>(n: number, value: T): T[] => Array.from({ length: n }, () => value);

describe('rate limit, telegram form (10 requests per 60 s per user and URL path by default)', () => {
	// rateLimit undefined: the form's own default.
	const sandbox = useSandbox({
		platform: 'telegram',
		rateLimit: undefined,
		now: TEST_NOW,
		adCount: 30,
	});
	const base = apiClient(sandbox, 'base');
	const control = controlOf(sandbox);
	const objects = () => base.get('/api/report/objects');
	const advance = (ms: number) => control('POST', 'service-time', { advanceMs: ms });

	beforeEach(async () => {
		// A clean slate: no window history or block from the previous test.
		await control('DELETE', 'rate-limit', { resetCounts: true });
	});

	test('the 11th request on a path within 60 s is a 429 {"detail": "Rate limit exceeded"} without Retry-After', async () => {
		expect((await control('GET', 'settings')).body.rateLimit).toBe('10/60');
		expect(await statuses(times(10, objects))).toEqual(times(10, 200));
		const refused = await objects();
		expect(refused.status).toBe(429);
		expect(refused.body).toEqual({ detail: 'Rate limit exceeded' });
		expect(refused.headers.get('retry-after')).toBeNull();
		const log = sandbox().requests;
		expect(log.at(-1)).toMatchObject({
			path: '/api/report/objects',
			status: 429,
			rateLimited: true,
		});
		expect(log.filter((r) => r.rateLimited)).toHaveLength(1);
	});

	test('each literal path has its own budget: /telegram/10001 and /telegram/10002 are two paths', async () => {
		const ad = (id: number) => () =>
			base.get(fillPath(PLATFORM_NAMES.telegram.paths.ad, { ad_id: id }));
		expect(await statuses(times(10, ad(10001)))).toEqual(times(10, 200));
		expect((await ad(10001)()).status).toBe(429);
		expect((await ad(10002)()).status).toBe(200);
		expect((await objects()).status).toBe(200);
		// The same path on the other address is another URL too.
		expect((await apiClient(sandbox, 'client').get('/api/kktu')).status).toBe(200);
	});

	test('a block lifts one window after it began, and each request sent during it starts the window again', async () => {
		expect(await statuses(times(11, objects))).toEqual([...times(10, 200), 429]);
		await advance(59_000);
		expect((await objects()).status).toBe(429); // sent during the block: it now lasts until +59 s +60 s
		await advance(59_000);
		expect((await objects()).status).toBe(429); // still inside the extended block, extended again
		await advance(59_000);
		expect((await objects()).status).toBe(429); // 177 s after the block began
		await advance(60_000);
		expect((await objects()).status).toBe(200);
		const state = (await control('GET', 'rate-limit')).body;
		expect(state).toMatchObject({ rateLimit: '10/60', answered429: 4, blocks: 1, blocked: [] });
		expect(sandbox().rateLimiter.answered429).toBe(4);
	});

	test('without requests during the block, it lifts 60 s after it began', async () => {
		expect(await statuses(times(11, objects))).toEqual([...times(10, 200), 429]);
		const blocked = (await control('GET', 'rate-limit')).body.blocked;
		expect(blocked).toEqual([{ path: '/base/api/report/objects', until: expect.any(String) }]);
		await advance(60_000);
		expect(await statuses(times(10, objects))).toEqual(times(10, 200));
		expect((await objects()).status).toBe(429);
	});

	test('the window slides: requests older than 60 s no longer count', async () => {
		expect(await statuses(times(6, objects))).toEqual(times(6, 200));
		await advance(30_000);
		expect(await statuses(times(4, objects))).toEqual(times(4, 200));
		await advance(30_000);
		// The first six are now 60 s old: six more fit, the seventh is the 11th within the window.
		expect(await statuses(times(7, objects))).toEqual([...times(6, 200), 429]);
	});

	test('sign-in and refresh are not counted, and do not use up any path', async () => {
		const login = () =>
			rawFetch(`${sandbox().baseUrl}/api/v2/login`, {
				method: 'POST',
				body: new URLSearchParams({ username: sandbox().username, password: sandbox().password }),
			});
		const first = await login();
		expect(await statuses(times(14, login))).toEqual(times(14, 200));
		const refresh = () =>
			rawFetch(`${sandbox().baseUrl}/api/v2/access-token`, {
				headers: { refresh_token: first.body.refresh_token },
			});
		expect(await statuses(times(12, refresh))).toEqual(times(12, 200));
		expect(await statuses(times(10, objects))).toEqual(times(10, 200));
	});

	test('one user, one budget: the static token and signed-in tokens share it', async () => {
		const { accessToken } = sandbox().sessions.issueTokens();
		expect(await statuses(times(5, objects))).toEqual(times(5, 200));
		const signedIn = () => base.get('/api/report/objects', { token: accessToken });
		expect(await statuses(times(6, signedIn))).toEqual([...times(5, 200), 429]);
	});

	test('requests with an expired token count (they name their user); with an unknown token or none they do not', async () => {
		const unknown = () => base.get('/api/report/objects', { token: 'made-up' });
		const none = () => base.get('/api/report/objects', { token: null });
		expect(await statuses([...times(10, unknown), ...times(10, none)])).toEqual(times(20, 401));
		expect(await statuses(times(10, objects))).toEqual(times(10, 200));
		await control('DELETE', 'rate-limit');
		const { accessToken } = sandbox().sessions.issueTokens();
		await control('POST', 'auth', { expire: 'access' });
		const expired = () => base.get('/api/report/objects', { token: accessToken });
		expect(await statuses(times(10, expired))).toEqual(times(10, 401));
		expect((await objects()).status).toBe(429);
	});

	test('control: another limit, then off; a malformed limit is a 400 naming the form', async () => {
		try {
			expect((await control('POST', 'settings', { rateLimit: '2/60' })).body.rateLimit).toBe(
				'2/60',
			);
			expect(await statuses(times(3, objects))).toEqual([200, 200, 429]);
			expect((await control('POST', 'settings', { rateLimit: 'off' })).body.rateLimit).toBe('off');
			expect(await statuses(times(15, objects))).toEqual(times(15, 200));
			const bad = await control('POST', 'settings', { rateLimit: '10' });
			expect(bad.status).toBe(400);
			expect(bad.body.detail).toContain('"10/60"');
		} finally {
			await control('POST', 'settings', { rateLimit: '10/60' });
		}
	});

	test('the window follows real time: a 2-per-0.3 s limit lets requests through again 0.3 s after the block', async () => {
		await control('POST', 'settings', { rateLimit: { requests: 2, windowSeconds: 0.3 } });
		try {
			expect(await statuses(times(3, objects))).toEqual([200, 200, 429]);
			await new Promise((resolve) => setTimeout(resolve, 350));
			expect((await objects()).status).toBe(200);
		} finally {
			await control('POST', 'settings', { rateLimit: '10/60' });
		}
	});
});

describe('rate limit, ext form', () => {
	test('off by default, since the spec shows no limit', async () => {
		const sb = await startSandbox({ platform: 'ext' });
		try {
			const base = apiClient(() => sb, 'base');
			expect(await statuses(times(25, () => base.get('/api/report/objects')))).toEqual(
				times(25, 200),
			);
			expect(sb.rateLimiter.answered429).toBe(0);
		} finally {
			await sb.stop();
		}
	});

	test('on when asked for, with the same rules', async () => {
		const sb = await startSandbox({ platform: 'ext', rateLimit: '3/60' });
		try {
			const base = apiClient(() => sb, 'base');
			expect(await statuses(times(4, () => base.get('/api/report/objects')))).toEqual([
				200, 200, 200, 429,
			]);
		} finally {
			await sb.stop();
		}
	});
});

function startSandbox(options: SandboxOptions): Promise<Sandbox> {
	return Sandbox.start({ now: TEST_NOW, adCount: 5, ...options });
}
