import { apiClient, rawFetch, TEST_NOW } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

/** These tests run the spec's form (platform 'ext'). */
const PLATFORM = 'ext';

describe('addresses, paths and auth', () => {
	const sandbox = useSandbox({ platform: 'ext', now: TEST_NOW });
	const base = apiClient(sandbox, 'base');
	const client = apiClient(sandbox, 'client');

	test('no Authorization header: 401 "credentials were not provided", on both addresses', async () => {
		const stats = await base.post('/api/v1/stats/page', { json: {}, token: null });
		expect(stats.status).toBe(401);
		expect(stats.body).toEqual({ detail: 'Authentication credentials were not provided.' });
		const kktu = await client.get('/api/kktu', { token: null });
		expect(kktu.status).toBe(401);
		expect(kktu.body.detail).toBe('Authentication credentials were not provided.');
	});

	test('a non-Bearer scheme counts as no credentials', async () => {
		const response = await base.get('/api/report/objects', {
			token: null,
			headers: { authorization: `Token ${sandbox().token}` },
		});
		expect(response.status).toBe(401);
		expect(response.body.detail).toBe('Authentication credentials were not provided.');
	});

	test('a wrong token: 401 "Invalid or expired token."', async () => {
		const response = await base.get('/api/v2/advertisement/', { token: 'wrong' });
		expect(response.status).toBe(401);
		expect(response.body).toEqual({ detail: 'Invalid or expired token.' });
		expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
	});

	test('the log records authorization without the header value', async () => {
		sandbox().clearLog();
		await base.get('/api/report/objects', { token: 'secret-value-123' });
		await base.get('/api/report/objects');
		const log = sandbox().requests;
		expect(log.map((r) => r.authorized)).toEqual([false, true]);
		expect(JSON.stringify(log)).not.toContain('secret-value-123');
		expect(JSON.stringify(log)).not.toContain(sandbox().token);
		expect(log[1]).toMatchObject({
			method: 'GET',
			api: 'base',
			path: '/api/report/objects',
			status: 200,
		});
	});

	test('client-API paths under /base and base paths under /client are 404', async () => {
		expect((await base.get('/api/kktu')).status).toBe(404);
		expect((await base.get('/api/pixel_events/types')).status).toBe(404);
		expect((await base.get(`/api/advertisement/${PLATFORM}/100001/audiences/`)).status).toBe(404);
		expect((await client.post('/api/v1/stats/page', { json: {} })).status).toBe(404);
		expect((await client.get('/api/v2/advertisement/')).status).toBe(404);
		expect((await client.get(`/api/advertisement/${PLATFORM}/10001`)).status).toBe(404);
	});

	test('a double slash after the prefix is 404, one trailing slash is optional', async () => {
		const sb = sandbox();
		const auth = { authorization: `Bearer ${sb.token}` };
		expect((await rawFetch(`${sb.baseUrl}//api/report/objects`, { headers: auth })).status).toBe(
			404,
		);
		expect((await rawFetch(`${sb.baseUrl}/api//report/objects`, { headers: auth })).status).toBe(
			404,
		);
		expect((await rawFetch(`${sb.baseUrl}/api/report/objects//`, { headers: auth })).status).toBe(
			404,
		);
		expect((await rawFetch(`${sb.baseUrl}/api/report/objects/`, { headers: auth })).status).toBe(
			200,
		);
		expect((await rawFetch(`${sb.baseUrl}/api/v2/advertisement`, { headers: auth })).status).toBe(
			200,
		);
		expect((await rawFetch(`${sb.baseUrl}/api/v2/advertisement/`, { headers: auth })).status).toBe(
			200,
		);
		expect(
			(await rawFetch(`${sb.clientApiUrl}/api/pixel_events/types/`, { headers: auth })).status,
		).toBe(200);
		expect(
			(
				await rawFetch(`${sb.clientApiUrl}/api/advertisement/${PLATFORM}/100001/audiences`, {
					headers: auth,
				})
			).status,
		).toBe(200);
	});

	test('unknown paths are 404 before auth, known paths with a wrong method are 405', async () => {
		const unknown = await base.get('/api/v9/nothing', { token: null });
		expect(unknown.status).toBe(404);
		expect(unknown.body).toEqual({ detail: 'Not found.' });
		const wrongMethod = await base.get('/api/v1/stats/page');
		expect(wrongMethod.status).toBe(405);
		expect(wrongMethod.headers.get('allow')).toBe('POST');
		const outside = await rawFetch(`http://127.0.0.1:${sandbox().port}/api/kktu`);
		expect(outside.status).toBe(404);
		expect(sandbox().requests.at(-1)).toMatchObject({
			api: 'unknown',
			path: '/api/kktu',
			status: 404,
		});
	});

	test('the addresses are loopback URLs with the /base and /client prefixes', () => {
		const sb = sandbox();
		expect(sb.baseUrl).toBe(`http://127.0.0.1:${sb.port}/base`);
		expect(sb.clientApiUrl).toBe(`http://127.0.0.1:${sb.port}/client`);
		expect(sb.token).toBe('sandbox-token');
	});

	test('JSON endpoints refuse other content types with 415 and broken JSON with 400', async () => {
		const text = await base.post('/api/v1/stats/page', {
			rawBody: 'period_from=2026-03-01',
			headers: { 'content-type': 'text/plain' },
		});
		expect(text.status).toBe(415);
		expect(text.body.detail).toContain('application/json');
		const broken = await base.post('/api/v1/stats/page', {
			rawBody: '{"period_from":',
			headers: { 'content-type': 'application/json' },
		});
		expect(broken.status).toBe(400);
		expect(broken.body.errors).toHaveProperty('body');
		expect(sandbox().requests.at(-1)?.body).toBe('{"period_from":');
	});
});
