import { parseAuthFaultFlag, type Sandbox } from '../../sandbox';
import { apiClient, rawFetch, TEST_NOW } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

const USERNAME = 'ops@example.test';
const PASSWORD = 'right-password';

function clientOf(sandbox: () => Sandbox) {
	const control = (method: string, path: string, json?: unknown) =>
		rawFetch(`http://127.0.0.1:${sandbox().port}/__sandbox/${path}`, {
			method,
			headers: json === undefined ? {} : { 'content-type': 'application/json' },
			body: json === undefined ? undefined : JSON.stringify(json),
		});
	const login = (password = PASSWORD) =>
		rawFetch(`${sandbox().baseUrl}/api/v2/login`, {
			method: 'POST',
			body: new URLSearchParams({ username: USERNAME, password }),
		});
	const refresh = (token: string) =>
		rawFetch(`${sandbox().baseUrl}/api/v2/access-token`, { headers: { refresh_token: token } });
	return { control, login, refresh };
}

describe('sandbox controls for sign-in and renewal under faults', () => {
	const sandbox = useSandbox({
		platform: 'telegram',
		now: TEST_NOW,
		adCount: 30,
		rateLimit: 'off',
		username: USERNAME,
		password: PASSWORD,
	});
	const base = apiClient(sandbox, 'base');
	const { control, login, refresh } = clientOf(sandbox);
	const objects = (token: string) => base.get('/api/report/objects', { token });

	afterEach(async () => {
		await control('DELETE', 'auth-faults');
		await control('POST', 'auth', { singleSession: false, countRenewals: false });
		await control('POST', 'settings', { rateLimit: 'off', password: PASSWORD });
	});

	test('faults on sign-in and refresh only, for the next N of them: a status, then a dropped connection', async () => {
		const signedIn = await login();
		const set = await control('POST', 'auth-faults', { status: 502, count: 2 });
		expect(set.body).toMatchObject({ status: 502, remaining: 2, paths: ['sign-in', 'refresh'] });
		// Other API requests are not affected and do not use up the count.
		expect((await objects(signedIn.body.access_token)).status).toBe(200);
		expect((await refresh(signedIn.body.refresh_token)).status).toBe(502);
		expect((await login()).status).toBe(502);
		expect((await login()).status).toBe(200);
		await control('POST', 'auth-faults', { status: 'reset', count: 1, paths: ['sign-in'] });
		await expect(login()).rejects.toThrow();
		expect((await login()).status).toBe(200);
		const state = await control('GET', 'auth-faults');
		expect(state.body).toMatchObject({ remaining: 0, injected: { 'sign-in': 2, refresh: 1 } });
	});

	test('latency on the renewal paths delays the answer without changing it', async () => {
		await control('POST', 'auth-faults', { latencyMs: 300, count: 1 });
		const started = Date.now();
		expect((await login()).status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
	});

	test('a bad auth-fault body is refused with the rule', async () => {
		const response = await control('POST', 'auth-faults', { status: 200, count: 1 });
		expect(response.status).toBe(400);
		expect(JSON.stringify(response.body)).toContain('400-599 or \\"reset\\"');
		expect(parseAuthFaultFlag('503:4:refresh')).toEqual({
			kind: 503,
			latencyMs: 0,
			count: 4,
			paths: ['refresh'],
		});
		expect(parseAuthFaultFlag('latency=2000:3')).toMatchObject({
			kind: undefined,
			latencyMs: 2000,
		});
	});

	test('sign-in and refresh count in the rate limit when told to', async () => {
		await control('POST', 'settings', { rateLimit: '2/60' });
		expect([(await login()).status, (await login()).status]).toEqual([200, 200]);
		// Off (the real service): a third sign-in passes.
		expect((await login()).status).toBe(200);
		await control('DELETE', 'rate-limit', { resetCounts: true });
		await control('POST', 'auth', { countRenewals: true });
		const statuses = [];
		for (let i = 0; i < 3; i++) statuses.push((await login()).status);
		expect(statuses).toEqual([200, 200, 429]);
		expect((await control('GET', 'rate-limit')).body).toMatchObject({ countRenewals: true });
	});

	test('single session: a new sign-in or refresh revokes the earlier access tokens', async () => {
		await control('POST', 'auth', { singleSession: true });
		const first = await login();
		expect((await objects(first.body.access_token)).status).toBe(200);
		const second = await login();
		expect((await objects(first.body.access_token)).status).toBe(401);
		expect((await objects(second.body.access_token)).status).toBe(200);
		const renewed = await refresh(second.body.refresh_token);
		expect(renewed.status).toBe(200);
		expect((await objects(second.body.access_token)).status).toBe(401);
		expect((await objects(renewed.body.access_token)).status).toBe(200);
		// Refresh tokens are kept: only access tokens are replaced.
		expect((await refresh(first.body.refresh_token)).status).toBe(200);
	});

	test('the password can be changed, and every token revoked at once', async () => {
		const before = await login();
		const changed = await control('POST', 'auth', { password: 'a-new-password' });
		expect(changed.status).toBe(200);
		expect((await login()).status).toBe(401);
		expect((await login('a-new-password')).status).toBe(200);
		const revoked = await control('POST', 'auth', { revoke: true });
		expect(revoked.body.revoked).toBeGreaterThanOrEqual(4);
		expect((await objects(before.body.access_token)).status).toBe(401);
		expect((await refresh(before.body.refresh_token)).status).toBe(401);
		expect((await control('POST', 'auth', { revoke: 'yes' })).status).toBe(400);
	});
});
