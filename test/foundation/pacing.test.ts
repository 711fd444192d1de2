import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { runNode } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { pacer } from '../../nodes/shared/transport/pacing';
import { useSandbox } from '../support/useSandbox';

/**
 * The API's rate limit (10 requests per 60 s per user and path on the real service; here 10 per
 * 3 s so the test is short): the nodes keep under it, and when a 429 comes anyway they wait the
 * block out instead of extending it.
 */
const stats: INodeParameters = {
	resource: 'statistic',
	operation: 'getAll',
	period: 'custom',
	periodFrom: '2026-10-01',
	periodTo: '2026-11-10',
	periodGroupingUnit: 'day',
	grouping: ['campaign'],
	returnAll: true,
	options: { pageSize: 40 },
};

describe('pacing under the API rate limit', () => {
	const sandbox = useSandbox({ now: '2026-11-20T12:00:00.000Z' });
	let truth: IDataObject[] = [];

	beforeAll(async () => {
		const clean = await runNode({
			type: 'adCabinetStats',
			parameters: stats,
			credentials: credentialsFor(sandbox()),
		});
		truth = clean.items.map((item) => item.json);
		expect(truth.length).toBeGreaterThan(400);
	});
	beforeEach(() => {
		pacer.reset();
		sandbox().rateLimiter.set({ requests: 10, windowSeconds: 3 });
		sandbox().rateLimiter.reset(true);
		sandbox().clearLog();
	});
	afterAll(() => sandbox().rateLimiter.set(null));

	test('a Return All of many pages under 10 requests per 3 s returns every row with 0 answers of 429', async () => {
		const { items, error } = await runNode({
			type: 'adCabinetStats',
			parameters: stats,
			credentials: { ...credentialsFor(sandbox()), rateLimitRequests: 10, rateLimitWindow: 3 },
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual(truth);
		const pages = apiRequests(sandbox()).length;
		expect(pages).toBeGreaterThan(10);
		expect(sandbox().rateLimiter.answered429).toBe(0);
		// Never more than 10 starts in any 3 s, as the API saw them.
		const times = apiRequests(sandbox()).map((request) => Number(request.receivedAt));
		for (const time of times) {
			expect(
				times.filter((other) => other >= time && other < time + 3_000).length,
			).toBeLessThanOrEqual(10);
		}
	});

	test('a 429 closes the path for the window plus a second: nothing is sent during the block, then the pull finishes', async () => {
		// The credential allows more than the API does, so the 11th request gets a 429.
		const { items, error } = await runNode({
			type: 'adCabinetStats',
			parameters: stats,
			credentials: { ...credentialsFor(sandbox()), rateLimitRequests: 12, rateLimitWindow: 3 },
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual(truth);
		const log = apiRequests(sandbox());
		const refused = log.filter((request) => request.status === 429);
		// Only the requests already on their way when the first 429 came (at most the 2 the
		// credential allows beyond the API) were refused: nothing was sent into the block.
		expect(refused.length).toBeGreaterThan(0);
		expect(refused.length).toBeLessThanOrEqual(2);
		const lastRefused = Math.max(...refused.map((request) => Number(request.receivedAt)));
		const after = log.filter((request) => Number(request.receivedAt) > lastRefused);
		expect(after.length).toBeGreaterThan(0);
		expect(
			Math.min(...after.map((request) => Number(request.receivedAt))) - lastRefused,
		).toBeGreaterThanOrEqual(3_000);
		expect(sandbox().rateLimiter.answered429).toBe(refused.length);
	});

	test('a write that got a 429 from the limit is sent again after the block and succeeds', async () => {
		sandbox().rateLimiter.set({ requests: 1, windowSeconds: 2 });
		const credentials = { ...credentialsFor(sandbox()), rateLimitRequests: 5, rateLimitWindow: 2 };
		const parameters = {
			resource: 'pixelEvent',
			operation: 'create',
			accountId: 'ACC07021',
			title: 'Lead',
			type: 'custom',
		};
		const first = await runNode({ type: 'adCabinetPixelEvents', parameters, credentials });
		const second = await runNode({
			type: 'adCabinetPixelEvents',
			parameters: { ...parameters, title: 'Lead 2' },
			credentials,
		});
		expect(first.error).toBeUndefined();
		expect(second.error).toBeUndefined();
		const posts = apiRequests(sandbox()).filter((request) => request.method === 'POST');
		expect(posts.map((request) => request.status)).toEqual([
			expect.any(Number),
			429,
			expect.any(Number),
		]);
		expect(posts.filter((request) => request.status !== 429)).toHaveLength(2);
	});
});
