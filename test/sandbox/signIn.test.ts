import type { Sandbox } from '../../sandbox';
import { apiClient, rawFetch, TEST_NOW, type ApiResponse } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Sign-in and refresh as the real service documents them, against any sandbox. */
function signInClient(sandbox: () => Sandbox) {
	const control = (method: string, path: string, json?: unknown) =>
		rawFetch(`http://127.0.0.1:${sandbox().port}/__sandbox/${path}`, {
			method,
			headers: json === undefined ? {} : { 'content-type': 'application/json' },
			body: json === undefined ? undefined : JSON.stringify(json),
		});
	return {
		control,
		login: (fields: Record<string, string>, as: 'urlencoded' | 'multipart' = 'urlencoded') => {
			let body: URLSearchParams | FormData;
			if (as === 'urlencoded') body = new URLSearchParams(fields);
			else {
				body = new FormData();
				for (const [key, value] of Object.entries(fields)) body.append(key, value);
			}
			return rawFetch(`${sandbox().baseUrl}/api/v2/login`, { method: 'POST', body });
		},
		refresh: (headers: Record<string, string>) =>
			rawFetch(`${sandbox().baseUrl}/api/v2/access-token`, { headers }),
		advance: (ms: number) => control('POST', 'service-time', { advanceMs: ms }),
	};
}

describe('sign-in and tokens, telegram form (POST /api/v2/login, GET /api/v2/access-token)', () => {
	const sandbox = useSandbox({
		platform: 'telegram',
		now: TEST_NOW,
		adCount: 30,
		rateLimit: 'off',
		username: 'ops@example.test',
		password: 'right-password',
	});
	const base = apiClient(sandbox, 'base');
	const auth = signInClient(sandbox);
	const credentials = { username: 'ops@example.test', password: 'right-password' };
	const objects = (token: string | null) => base.get('/api/report/objects', { token });

	async function signIn(): Promise<{ access: string; refresh: string }> {
		const response = await auth.login(credentials);
		expect(response.status).toBe(200);
		return { access: response.body.access_token, refresh: response.body.refresh_token };
	}

	test('a urlencoded or multipart form with username and password gives {user_id, access_token, refresh_token}', async () => {
		for (const as of ['urlencoded', 'multipart'] as const) {
			const response = await auth.login(credentials, as);
			expect(response.status).toBe(200);
			expect(Object.keys(response.body).sort()).toEqual([
				'access_token',
				'refresh_token',
				'user_id',
			]);
			expect(response.body.user_id).toEqual(expect.any(Number));
			expect(response.body.access_token).not.toBe(response.body.refresh_token);
			const answer = await objects(response.body.access_token);
			expect(answer.status).toBe(200);
			expect(answer.body).toEqual(sandbox().data.adObjects());
		}
		const [login] = sandbox().requests.filter((r) => r.path === '/api/v2/login');
		expect(login).toMatchObject({
			method: 'POST',
			contentType: 'application/x-www-form-urlencoded;charset=UTF-8',
			body: credentials,
			status: 200,
		});
	});

	test('a JSON body (the removed {login, password} form), a missing field or a wrong password is refused and issues nothing', async () => {
		const json = await rawFetch(`${sandbox().baseUrl}/api/v2/login`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ login: credentials.username, password: credentials.password }),
		});
		expect(json.status).toBe(422);
		expect(json.body.detail).toContain('form body');
		const missing = await auth.login({ username: credentials.username });
		expect(missing.status).toBe(422);
		expect(missing.body.errors).toEqual({ password: [expect.stringContaining('field required')] });
		const wrong = await auth.login({ ...credentials, password: 'wrong' });
		expect(wrong.status).toBe(401);
		expect(wrong.body).toEqual({ detail: 'Incorrect username or password', status_code: 401 });
		expect(wrong.body).not.toHaveProperty('access_token');
		const otherUser = await auth.login({ ...credentials, username: 'someone@example.test' });
		expect(otherUser.status).toBe(401);
	});

	test('refresh: the refresh token in a header named refresh_token gives {access_token, token_type: "Bearer"}', async () => {
		const { refresh } = await signIn();
		const renewed = await auth.refresh({ refresh_token: refresh });
		expect(renewed.status).toBe(200);
		expect(renewed.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer' });
		expect((await objects(renewed.body.access_token)).status).toBe(200);
		// In Authorization, as a bearer token, it is neither a refresh nor an access token.
		const inAuthorization = await auth.refresh({ authorization: `Bearer ${refresh}` });
		expect(inAuthorization.status).toBe(401);
		expect(inAuthorization.body.detail).toContain('header named refresh_token');
		expect((await objects(refresh)).status).toBe(401);
		const unknown = await auth.refresh({ refresh_token: 'not-a-token' });
		expect(unknown.status).toBe(401);
		expect(unknown.body.status_code).toBe(401);
	});

	test('an access token expires after --token-lifetime: 401, and a refresh gives one that works', async () => {
		const { access, refresh } = await signIn();
		await auth.advance(HOUR_MS - 1000);
		expect((await objects(access)).status).toBe(200);
		await auth.advance(1000);
		const expired = await objects(access);
		expect(expired.status).toBe(401);
		expect(expired.body).toEqual({ detail: 'Access Token Expired', status_code: 401 });
		expect(expired.headers.get('www-authenticate')).toContain('Bearer');
		const renewed = await auth.refresh({ refresh_token: refresh });
		expect((await objects(renewed.body.access_token)).status).toBe(200);
	});

	test('a refresh token ends 30 days after sign-in, refreshing or not: 401 "Refresh Token Expired"; signing in again works', async () => {
		const { refresh } = await signIn();
		await auth.advance(29 * DAY_MS);
		expect((await auth.refresh({ refresh_token: refresh })).status).toBe(200);
		await auth.advance(DAY_MS);
		const expired = await auth.refresh({ refresh_token: refresh });
		expect(expired.status).toBe(401);
		expect(expired.body).toEqual({ detail: 'Refresh Token Expired', status_code: 401 });
		const again = await signIn();
		expect((await objects(again.access)).status).toBe(200);
	});

	test('the static token works in the telegram form and never expires', async () => {
		await auth.advance(400 * DAY_MS);
		const response = await objects(sandbox().token);
		expect(response.status).toBe(200);
	});

	test("no token, an unknown token: 401 in the real form's shape", async () => {
		expect((await objects(null)).body).toEqual({ detail: 'Not authenticated', status_code: 401 });
		expect((await objects('made-up')).body).toEqual({
			detail: 'Could not validate credentials',
			status_code: 401,
		});
	});

	test('lifetimes follow real time, whatever the statistics clock does (it is frozen here)', async () => {
		await auth.control('POST', 'settings', { tokenLifetimeSeconds: 0.3 });
		try {
			const { access } = await signIn();
			expect((await objects(access)).status).toBe(200);
			await new Promise((resolve) => setTimeout(resolve, 400));
			expect((await objects(access)).status).toBe(401);
			expect(sandbox().clock.now().toISOString()).toBe(new Date(TEST_NOW).toISOString());
		} finally {
			await auth.control('POST', 'settings', { tokenLifetimeSeconds: 3600 });
		}
	});

	test('control: settings change the username, password and lifetimes; /auth expires tokens now and counts sign-ins', async () => {
		const settings = await auth.control('POST', 'settings', {
			username: 'second@example.test',
			password: 'second-password',
			refreshLifetimeSeconds: 120,
		});
		expect(settings.body).toMatchObject({
			platform: 'telegram',
			username: 'second@example.test',
			password: 'second-password',
			tokenLifetimeSeconds: 3600,
			refreshLifetimeSeconds: 120,
		});
		try {
			expect((await auth.login(credentials)).status).toBe(401);
			const fresh = await auth.login({
				username: 'second@example.test',
				password: 'second-password',
			});
			expect(fresh.status).toBe(200);
			const before = (await auth.control('GET', 'auth')).body;
			await auth.control('POST', 'auth', { expire: 'access' });
			expect((await objects(fresh.body.access_token)).status).toBe(401);
			const renewed = await auth.refresh({ refresh_token: fresh.body.refresh_token });
			expect(renewed.status).toBe(200);
			await auth.control('POST', 'auth', { expire: 'refresh' });
			expect((await auth.refresh({ refresh_token: fresh.body.refresh_token })).body.detail).toBe(
				'Refresh Token Expired',
			);
			const after = (await auth.control('GET', 'auth')).body;
			expect(after.refreshes).toBe(before.refreshes + 1);
			expect(after.failedRefreshes).toBe(before.failedRefreshes + 1);
			expect(after.active.refresh).toBe(0);
			const issued = (await auth.control('POST', 'auth', { issue: true })).body;
			expect(Object.keys(issued).sort()).toEqual(['access_token', 'refresh_token']);
			expect((await objects(issued.access_token)).status).toBe(200);
			const bad = await auth.control('POST', 'settings', { tokenLifetimeSeconds: 0 });
			expect(bad.status).toBe(400);
			expect(bad.body.detail).toContain('tokenLifetimeSeconds');
		} finally {
			await auth.control('POST', 'settings', { ...credentials, refreshLifetimeSeconds: 2_592_000 });
		}
	});
});

describe('sign-in in the ext form', () => {
	const sandbox = useSandbox({
		platform: 'ext',
		now: TEST_NOW,
		adCount: 10,
		tokenLifetimeSeconds: 60,
	});
	const base = apiClient(sandbox, 'base');
	const auth = signInClient(sandbox);

	test("the spec form accepts sign-in too; its 401s keep the spec form's wording", async () => {
		const login: ApiResponse = await auth.login({
			username: sandbox().username,
			password: sandbox().password,
		});
		expect(login.status).toBe(200);
		const access = login.body.access_token;
		expect((await base.get('/api/report/objects', { token: access })).status).toBe(200);
		await auth.advance(60_000);
		const expired = await base.get('/api/report/objects', { token: access });
		expect(expired.status).toBe(401);
		expect(expired.body).toEqual({ detail: 'Invalid or expired token.' });
		expect((await base.get('/api/report/objects')).status).toBe(200);
	});
});
