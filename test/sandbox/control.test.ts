import { apiRequests } from '../../harness/sandbox';
import { apiClient, rawFetch } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

/** These tests run the spec's form (platform 'ext'). */
const PLATFORM = 'ext';

describe('HTTP control endpoints under /__sandbox/', () => {
	const sandbox = useSandbox({ platform: 'ext', adCount: 40, now: '2026-03-10T12:00:00Z' });
	const base = apiClient(sandbox, 'base');
	const client = apiClient(sandbox, 'client');
	const control = (method: string, path: string, json?: unknown) =>
		rawFetch(`http://127.0.0.1:${sandbox().port}/__sandbox/${path}`, {
			method,
			headers: json === undefined ? {} : { 'content-type': 'application/json' },
			body: json === undefined ? undefined : JSON.stringify(json),
		});

	test('clock: read, set and advance', async () => {
		expect((await control('GET', 'clock')).body).toEqual({
			now: '2026-03-10T12:00:00.000Z',
			mode: 'frozen',
		});
		expect((await control('POST', 'clock', { set: '2026-03-11T08:00:00Z' })).body.now).toBe(
			'2026-03-11T08:00:00.000Z',
		);
		expect((await control('POST', 'clock', { advanceMs: 90_000 })).body.now).toBe(
			'2026-03-11T08:01:30.000Z',
		);
		expect(sandbox().clock.now().toISOString()).toBe('2026-03-11T08:01:30.000Z');
		const bad = await control('POST', 'clock', { set: 'tomorrow' });
		expect(bad.status).toBe(400);
		await control('POST', 'clock', { set: '2026-03-10T12:00:00Z' });
	});

	test('faults: set with a path match, count, onNth, clear', async () => {
		await control('POST', 'faults', { rate: 1, kinds: ['503'], match: { path: '^/api/report' } });
		expect((await base.get('/api/report/objects')).status).toBe(503);
		expect((await client.get('/api/kktu')).status).toBe(200);
		expect((await control('GET', 'faults')).body.injected['503']).toBe(1);
		await control('DELETE', 'faults');
		expect((await base.get('/api/report/objects')).status).toBe(200);
		await control('POST', 'faults', {
			onNth: { n: 2, kind: '429' },
			kinds: ['500'],
			rate: 0,
			retryAfterSeconds: 3,
		});
		expect((await client.get('/api/kktu')).status).toBe(200);
		const throttled = await client.get('/api/kktu');
		expect(throttled.status).toBe(429);
		expect(throttled.headers.get('retry-after')).toBe('3');
		const invalid = await control('POST', 'faults', { kinds: ['teapot'] });
		expect(invalid.status).toBe(400);
		expect(invalid.body.detail).toContain('kinds');
		await control('DELETE', 'faults');
	});

	test('requests: the log as JSON without uploaded bytes; control traffic is not logged; DELETE clears', async () => {
		expect((await control('DELETE', 'requests')).status).toBe(204);
		const data = new FormData();
		data.append('media', new Blob([Buffer.from([0xff, 0xd8, 0xff, 0xe0])]), 'a.jpg');
		await client.post(`/api/v1/advertising/${PLATFORM}/upload_media`, {
			query: { account_id: '100001' },
			form: data,
		});
		await control('GET', 'clock');
		const log = (await control('GET', 'requests')).body;
		expect(log).toHaveLength(1);
		expect(log[0]).toMatchObject({
			method: 'POST',
			api: 'client',
			path: `/api/v1/advertising/${PLATFORM}/upload_media`,
			status: 200,
			authorized: true,
		});
		expect(log[0].body.files.media).toEqual({
			filename: 'a.jpg',
			type: 'application/octet-stream',
			size: 4,
			sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
		});
		expect(sandbox().requests[0].body).toHaveProperty(['files', 'media', 'bytes']);
		await control('DELETE', 'requests');
		expect((await control('GET', 'requests')).body).toEqual([]);
		expect(sandbox().requests).toHaveLength(0);
	});

	test('stats-rows: ground truth for a body', async () => {
		const body = {
			period_from: '2026-03-01',
			period_to: '2026-03-02',
			period_grouping_unit: 'day',
			grouping: ['campaign'],
		};
		const { status, body: truth } = await control('POST', 'stats-rows', body);
		expect(status).toBe(200);
		expect(truth.rows).toEqual(sandbox().data.statsRows(body));
		expect(truth.count).toBe(truth.rows.length);
		expect((await base.post('/api/v1/stats/page', { json: body })).body.rows).toEqual(truth.rows);
		const invalid = await control('POST', 'stats-rows', { period_from: 'x' });
		expect(invalid.status).toBe(400);
		expect(invalid.body.errors).toHaveProperty('period_from');
	});

	test('settings: legacyReportDisabled', async () => {
		expect((await control('POST', 'settings', { legacyReportDisabled: true })).body).toEqual({
			platform: 'ext',
			rateLimit: 'off',
			restatements: 'off',
			username: sandbox().username,
			password: sandbox().password,
			singleSession: false,
			countRenewals: false,
			tokenLifetimeSeconds: 3600,
			refreshLifetimeSeconds: 2_592_000,
			answerDelayMs: 0,
			bucketTimeZone: 'UTC',
			legacyReportDisabled: true,
		});
		expect((await base.post(`/api/report/${PLATFORM}view`, { json: {} })).status).toBe(410);
		await control('POST', 'settings', { legacyReportDisabled: false });
		expect(sandbox().data.legacyReportDisabled).toBe(false);
	});

	test('settings: bucketTimeZone moves where statistics periods start; a bad zone is a 400 naming the forms', async () => {
		const body = {
			period_from: '2026-03-01T00:00:00Z',
			period_to: '2026-03-02T23:59:59Z',
			period_grouping_unit: 'day',
		};
		expect((await control('POST', 'settings', { bucketTimeZone: '+03:00' })).body).toMatchObject({
			bucketTimeZone: '+03:00',
		});
		const dates = (await base.post('/api/v1/stats/page', { json: body })).body.rows.map(
			(row: { period_date: string }) => row.period_date,
		);
		// 00:00Z is 03:00 on 1 March in +03:00: that day's period started at 00:00+03:00 and is cut by period_from.
		expect(dates).toEqual([
			'2026-03-01T00:00:00+03:00',
			'2026-03-02T00:00:00+03:00',
			'2026-03-03T00:00:00+03:00',
		]);
		const bad = await control('POST', 'settings', { bucketTimeZone: 'Mars/Olympus' });
		expect(bad.status).toBe(400);
		expect(JSON.stringify(bad.body)).toContain('an offset such as +03:00, or an IANA name');
		expect((await control('POST', 'settings', { bucketTimeZone: 'UTC' })).body).toMatchObject({
			bucketTimeZone: 'UTC',
		});
		expect(sandbox().data.bucketZone.name).toBe('UTC');
	});

	test('settings: answerDelayMs holds each API answer, and the log counts the requests open at once', async () => {
		await control('POST', 'settings', { answerDelayMs: 150 });
		try {
			await Promise.all([1, 2, 3].map(() => base.get('/api/report/objects')));
		} finally {
			await control('POST', 'settings', { answerDelayMs: 0 });
		}
		expect(apiRequests(sandbox()).map((request) => request.open)).toEqual([1, 2, 3]);
		await base.get('/api/report/objects');
		expect(apiRequests(sandbox())[3].open).toBe(1);
	});

	test('an unknown control endpoint is a 404', async () => {
		expect((await control('GET', 'nothing')).status).toBe(404);
	});
});
