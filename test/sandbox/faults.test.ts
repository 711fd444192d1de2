import { Sandbox } from '../../sandbox/index';
import { apiClient, TEST_NOW } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

/** These tests run the spec's form (platform 'ext'). */
const PLATFORM = 'ext';

describe('fault injection (test control)', () => {
	const sandbox = useSandbox({ platform: 'ext', now: TEST_NOW, adCount: 20 });
	const base = apiClient(sandbox, 'base');
	const objects = () => base.get('/api/report/objects');

	beforeEach(() => {
		sandbox().faults.clear();
		sandbox().faults.resetCounts();
		sandbox().clearLog();
	});

	test('429 carries Retry-After (0 by default, or the configured seconds)', async () => {
		sandbox().faults.set({ rate: 1, kinds: ['429'] });
		const first = await objects();
		expect(first.status).toBe(429);
		expect(first.headers.get('retry-after')).toBe('0');
		expect(first.body.detail).toContain('throttled');
		sandbox().faults.set({ rate: 1, kinds: ['429'], retryAfterSeconds: 7 });
		expect((await objects()).headers.get('retry-after')).toBe('7');
		expect(sandbox().faults.injected['429']).toBe(2);
	});

	test('a lost answer: the write is carried out, then the connection is reset; the next request is answered', async () => {
		const create = `/api/advertisement/${PLATFORM}/`;
		const ad = {
			campaign_id: 2201,
			title: 'Answer lost on its way back',
			text: 'Meet the new collection',
			promote_url: 'https://t.me/berlin_startups',
			cpm: 2.5,
			budget: 150,
		};
		const before = sandbox().data.ads.length;
		sandbox().faults.loseAnswers((path, method) => method === 'POST' && path === create);
		await expect(base.post(create, { json: ad })).rejects.toThrow();
		expect(sandbox().data.ads).toHaveLength(before + 1);
		expect(sandbox().data.ads.at(-1)?.fields.title).toBe(ad.title);
		expect(sandbox().requests.at(-1)).toMatchObject({ fault: 'lost', status: 201 });
		expect(sandbox().faults.lost).toBe(1);
		const next = await base.post(create, { json: { ...ad, title: 'Answered' } });
		expect(next.status).toBe(201);
		expect(sandbox().data.ads).toHaveLength(before + 2);
	});

	test('a refused write keeps its answer: only a carried-out request loses it', async () => {
		const create = `/api/advertisement/${PLATFORM}/`;
		sandbox().faults.loseAnswers((path, method) => method === 'POST' && path === create);
		const refused = await base.post(create, { json: { campaign_id: 2201 } });
		expect(refused.status).toBe(400);
		sandbox().faults.clear();
	});

	test.each(['500', '502', '503', '504'] as const)(
		'%s answers with that status and a JSON detail',
		async (kind) => {
			sandbox().faults.set({ rate: 1, kinds: [kind] });
			const response = await objects();
			expect(response.status).toBe(Number(kind));
			expect(typeof response.body.detail).toBe('string');
			expect(sandbox().requests.at(-1)).toMatchObject({ fault: kind, status: Number(kind) });
		},
	);

	test('reset destroys the connection without a response', async () => {
		sandbox().faults.onNth(1, 'reset');
		await expect(objects()).rejects.toThrow();
		expect(sandbox().requests.at(-1)).toMatchObject({ fault: 'reset', status: 0 });
		expect((await objects()).status).toBe(200);
	});

	test('stall holds the request for stallMs, then drops the connection', async () => {
		sandbox().faults.set({ rate: 1, kinds: ['stall'], stallMs: 300 });
		const started = Date.now();
		await expect(objects()).rejects.toThrow();
		expect(Date.now() - started).toBeGreaterThanOrEqual(280);
		expect(sandbox().faults.injected.stall).toBe(1);
	});

	test('truncated answers 200 with half a JSON body and a matching Content-Length', async () => {
		sandbox().faults.onNth(1, 'truncated');
		const response = await objects();
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toBe('application/json');
		expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(response.text));
		expect(() => JSON.parse(response.text)).toThrow();
		expect(response.text.length).toBeGreaterThan(10);
	});

	test('onNth faults exactly the n-th API request from now', async () => {
		sandbox().faults.onNth(3, '503');
		const statuses = [];
		for (let i = 0; i < 5; i++) statuses.push((await objects()).status);
		expect(statuses).toEqual([200, 200, 503, 200, 200]);
		expect(sandbox().faults.injected['503']).toBe(1);
	});

	test('match restricts faults to some requests', async () => {
		sandbox().faults.set({
			rate: 1,
			kinds: ['500'],
			match: (path, method) => path.startsWith('/api/v2/') && method === 'GET',
		});
		expect((await objects()).status).toBe(200);
		expect((await base.get('/api/v2/advertisement/', { query: { limit: 1 } })).status).toBe(500);
	});

	test('a seeded rate is deterministic; counts survive clear() until resetCounts()', async () => {
		const pattern = async () => {
			sandbox().faults.set({ rate: 0.4, kinds: ['500', '502'], seed: 42 });
			const out: number[] = [];
			for (let i = 0; i < 30; i++) out.push((await objects()).status);
			return out;
		};
		const first = await pattern();
		const second = await pattern();
		expect(second).toEqual(first);
		const faulted = first.filter((s) => s !== 200).length;
		expect(faulted).toBeGreaterThan(3);
		expect(faulted).toBeLessThan(27);
		const counts = sandbox().faults.injected;
		expect(counts['500'] + counts['502']).toBe(2 * faulted);
		sandbox().faults.clear();
		expect((await objects()).status).toBe(200);
		expect(counts['500'] + counts['502']).toBe(2 * faulted);
		sandbox().faults.resetCounts();
		expect(sandbox().faults.injected['500']).toBe(0);
	});

	test('a faulted request changes no state and is logged with its body', async () => {
		const before = sandbox().data.ads.length;
		sandbox().faults.onNth(1, '500');
		const body = {
			campaign_id: 2201,
			title: 'Faulted',
			text: 't',
			promote_url: 'https://t.me/berlin_startups',
			cpm: 1,
			budget: 5,
		};
		const response = await base.post(`/api/advertisement/${PLATFORM}/`, { json: body });
		expect(response.status).toBe(500);
		expect(sandbox().data.ads).toHaveLength(before);
		expect(sandbox().requests.at(-1)).toMatchObject({ method: 'POST', fault: '500', body });
		expect((await base.post(`/api/advertisement/${PLATFORM}/`, { json: body })).status).toBe(201);
		expect(sandbox().data.ads).toHaveLength(before + 1);
	});

	test('invalid settings are refused', () => {
		expect(() => sandbox().faults.set({ rate: 2, kinds: ['500'] })).toThrow('rate');
		expect(() => sandbox().faults.set({ rate: 1, kinds: [] })).toThrow('kinds');
		expect(() => sandbox().faults.onNth(0, '500')).toThrow('1-based');
	});

	test('stop() closes promptly even with a stalled request open', async () => {
		const own = await Sandbox.start({ platform: 'ext', adCount: 5 });
		own.faults.set({ rate: 1, kinds: ['stall'] });
		const pending = fetch(`${own.baseUrl}/api/report/objects`, {
			headers: { authorization: `Bearer ${own.token}` },
		});
		const outcome = pending.then(
			() => 'answered',
			() => 'dropped',
		);
		await new Promise((resolve) => setTimeout(resolve, 100));
		const started = Date.now();
		await own.stop();
		expect(Date.now() - started).toBeLessThan(1000);
		expect(await outcome).toBe('dropped');
	});
});
