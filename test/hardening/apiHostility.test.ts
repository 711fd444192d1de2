import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INode, INodeParameters } from 'n8n-workflow';
import { runNode } from '../../harness';
import { toNodeApiError } from '../../nodes/shared/transport/nodeErrors';
import { RequestGate } from '../../nodes/shared/transport/gate';
import { invalidInput } from '../../nodes/shared/validation';

/**
 * An API that misbehaves on purpose: redirects to another host, pages without end, drips its
 * answer, asks for a day's wait, echoes the token and answers with hostile error bodies. Each case
 * is one finding of a security review; each must stay fixed.
 */

const TOKEN = 'tok-ZQ81-secret-access-token';

interface Seen {
	method: string;
	url: string;
	authorization?: string;
	closedEarly?: boolean;
}

async function serve(handler: (req: IncomingMessage, res: ServerResponse, seen: Seen) => void) {
	const requests: Seen[] = [];
	const server: Server = createServer((req, res) => {
		const seen: Seen = {
			method: req.method ?? '',
			url: req.url ?? '',
			authorization: req.headers.authorization,
		};
		requests.push(seen);
		req.resume();
		handler(req, res, seen);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		url,
		requests,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

type Api = Awaited<ReturnType<typeof serve>>;
const open: Api[] = [];
async function api(handler: Parameters<typeof serve>[0]): Promise<Api> {
	const started = await serve(handler);
	open.push(started);
	return started;
}
afterEach(async () => {
	await Promise.all(open.splice(0).map(async (server) => await server.close()));
});

const credentialsAt = (url: string) => ({ accessToken: TOKEN, baseUrl: url, clientApiUrl: url });
const json = (
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
) => {
	res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
	res.end(JSON.stringify(body));
};

const statsAll: INodeParameters = {
	resource: 'statistic',
	operation: 'getAll',
	period: 'custom',
	periodFrom: '2026-11-01',
	periodTo: '2026-11-07',
	periodGroupingUnit: 'day',
	returnAll: true,
};

describe('an API that misbehaves cannot take the token elsewhere, loop, stall or flood', () => {
	test('a redirect to another host is not followed, by custom and declarative requests alike, and the error names the host', async () => {
		const elsewhere = await api((_req, res) =>
			json(res, 200, { items: [{ id: 1, name: 'stolen' }], rows: [] }),
		);
		const host = new URL(elsewhere.url).host;
		const redirecting = await api((req, res) => {
			res.writeHead(302, { Location: `${elsewhere.url}/collect${req.url ?? ''}` });
			res.end();
		});
		const stats = await runNode({
			type: 'adCabinetStats',
			parameters: statsAll,
			credentials: credentialsAt(redirecting.url),
		});
		const ad = await runNode({
			type: 'adCabinetAds',
			parameters: {
				resource: 'ad',
				operation: 'get',
				adId: { __rl: true, mode: 'id', value: '10001' },
			},
			credentials: credentialsAt(redirecting.url),
		});
		for (const { error, items } of [stats, ad]) {
			expect(items).toHaveLength(0);
			expect(error?.message).toContain(`redirecting to ${host}`);
			expect(error?.message).toContain('the access token was not sent there');
		}
		expect(elsewhere.requests).toHaveLength(0);
	});

	test('statistics stop at an empty page that still has a cursor, instead of following new cursors for ever', async () => {
		let n = 0;
		const endless = await api((_req, res) =>
			json(res, 200, { rows: [], count: 0, cursor: `c${++n}` }),
		);
		const { error } = await runNode({
			type: 'adCabinetStats',
			parameters: { ...statsAll, returnAll: false, limit: 50 },
			credentials: credentialsAt(endless.url),
		});
		expect(error?.message).toContain('empty page that still had a next-page cursor');
		expect(endless.requests.length).toBeLessThanOrEqual(2);
	});

	test('statistics stop after the pages their count needs plus 5', async () => {
		let n = 0;
		const endless = await api((_req, res) =>
			json(res, 200, { rows: [{ views: ++n }], count: 3, cursor: `c${n}` }),
		);
		const { error } = await runNode({
			type: 'adCabinetStats',
			parameters: statsAll,
			credentials: credentialsAt(endless.url),
		});
		expect(error?.message).toContain('more than its count of 3 rows needs');
		expect(endless.requests).toHaveLength(6);
	});

	test("offset paging stops when a page brings no new ads (a server that ignores offset); with the API's count saying more exist, that is an error with both numbers", async () => {
		const ads = Array.from({ length: 500 }, (_, i) => ({
			id: 20_000 + i,
			advertisement_title: `Ad ${i}`,
		}));
		const ignoring = await api((_req, res) => json(res, 200, { data: ads, count: 100_000 }));
		const { items, error } = await runNode({
			type: 'adCabinetAds',
			parameters: { resource: 'ad', operation: 'getAll', returnAll: true, simplify: false },
			credentials: credentialsAt(ignoring.url),
		});
		expect(items).toHaveLength(0);
		expect(error?.message).toMatch(
			/stopped after 500 distinct records, but the API's count says 100000 exist.*Add a filter.*set Limit to at most 500/,
		);
		expect(ignoring.requests).toHaveLength(2);
		// Without a count, the distinct ads read are the list.
		const uncounted = await api((_req, res) => json(res, 200, { data: ads }));
		const plain = await runNode({
			type: 'adCabinetAds',
			parameters: { resource: 'ad', operation: 'getAll', returnAll: true, simplify: false },
			credentials: credentialsAt(uncounted.url),
		});
		expect(plain.error).toBeUndefined();
		expect(plain.items).toHaveLength(500);
	});

	test('a server that drips its answer is cut off at the Timeout, counted for the whole answer', async () => {
		const dripping = await api((req, res, seen) => {
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.write('{"rows": [');
			const drip = setInterval(() => res.write(' '), 200);
			res.on('close', () => {
				clearInterval(drip);
				seen.closedEarly = !res.writableFinished;
			});
			req.on('close', () => undefined);
		});
		const started = Date.now();
		const { error } = await runNode({
			type: 'adCabinetStats',
			parameters: { ...statsAll, requestOptions: { timeout: 1000 } },
			credentials: credentialsAt(dripping.url),
		});
		const elapsed = Date.now() - started;
		expect(error?.message).toContain('did not finish answering within 1 s');
		// Each attempt is cut off at 1 s (five attempts and their backoff), where the old behaviour
		// waited for as long as the server kept dripping.
		expect(elapsed).toBeLessThan(30_000);
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(dripping.requests.length).toBeGreaterThan(0);
		expect(dripping.requests.every((seen) => seen.closedEarly === true)).toBe(true);
	});

	test('a Retry-After of a day holds the gate for at most 30 s', async () => {
		jest.useFakeTimers();
		try {
			const gate = new RequestGate(4);
			gate.slowDown(0, 86_400_000);
			let acquired = false;
			const waiting = gate.acquire().then(() => {
				acquired = true;
			});
			await jest.advanceTimersByTimeAsync(29_000);
			expect(acquired).toBe(false);
			await jest.advanceTimersByTimeAsync(1_500);
			await waiting;
			expect(acquired).toBe(true);
		} finally {
			jest.useRealTimers();
		}
	});

	test('a 429 asking for a day says how long n8n waits at most', () => {
		const node = {
			name: 'Stats',
			type: 'adCabinetStats',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		} as unknown as INode;
		const error = toNodeApiError(
			node,
			{ status: 429, body: { detail: 'Rate limit exceeded' }, retryAfterMs: 86_400_000 },
			{ idempotent: true, attempts: 5 },
		);
		expect(error.message).toContain(
			'The API asked to wait 86400 s before the next request; n8n waits at most 30 s between attempts, so it stopped. Run it again later.',
		);
	});

	test('an error body that echoes the token keeps it nowhere in the error, at any depth', async () => {
		const echoing = await api((req, res) =>
			json(res, 400, {
				detail: `bad request for ${req.headers.authorization ?? ''}`,
				echo: {
					request: { headers: { authorization: req.headers.authorization } },
					list: [[[req.headers.authorization]]],
				},
			}),
		);
		const { error } = await runNode({
			type: 'adCabinetStats',
			parameters: statsAll,
			credentials: credentialsAt(echoing.url),
		});
		expect(error?.message).toContain('bad request for Bearer ***');
		const carried = error as unknown as Record<string, unknown>;
		const everything = JSON.stringify({
			message: error?.message,
			description: error?.description,
			errorResponse: carried.errorResponse,
			cause: carried.cause,
			error,
		});
		expect(everything).not.toContain(TOKEN);
		expect(everything).toContain('***');
	});

	test('a 5 MB detail is cut to about 300 characters, and a deeply nested errors array is still the API error', async () => {
		const huge = await api((_req, res) => json(res, 400, { detail: 'x'.repeat(5_000_000) }));
		const first = await runNode({
			type: 'adCabinetStats',
			parameters: statsAll,
			credentials: credentialsAt(huge.url),
		});
		expect(first.error?.httpCode).toBe('400');
		expect(first.error?.message.length).toBeLessThan(1_000);
		expect(JSON.stringify(first.error).length).toBeLessThan(20_000);

		const nested = await api((_req, res) => {
			res.writeHead(422, { 'Content-Type': 'application/json' });
			res.end(`{"errors": ${'['.repeat(100_000)}"deep"${']'.repeat(100_000)}}`);
		});
		const second = await runNode({
			type: 'adCabinetStats',
			parameters: statsAll,
			credentials: credentialsAt(nested.url),
		});
		expect(second.error?.name).toBe('NodeApiError');
		expect(second.error?.httpCode).toBe('422');
		expect(second.error?.message).toMatch(/^The Ad Cabinet API refused the request with 422/);
		expect(second.error?.message).not.toContain('call stack');
	});

	test('an ad id past 2^53 reaches the API digit for digit', async () => {
		const ads = await api((req, res) =>
			json(res, 200, { id: (req.url ?? '').split('/').filter(Boolean).pop() }),
		);
		const { items, error } = await runNode({
			type: 'adCabinetAds',
			parameters: {
				resource: 'ad',
				operation: 'get',
				adId: { __rl: true, mode: 'id', value: '9007199254740993' },
			},
			credentials: credentialsAt(ads.url),
		});
		expect(error).toBeUndefined();
		expect(ads.requests[0].url).toMatch(/\/9007199254740993(\?|$)/);
		expect(items[0].json.id).toBe('9007199254740993');
	});

	test('a refused URL is quoted without its user, password or signed query', () => {
		const node = {
			name: 'Media',
			type: 'adCabinetMedia',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		} as unknown as INode;
		const error = invalidInput(
			node,
			'File URL',
			'must be an http:// or https:// address',
			0,
			'ftp://alice:hunter2@files.example.com/a/b.png?X-Amz-Signature=abc123',
		);
		expect(error.message).toContain('ftp://files.example.com/a/b.png');
		expect(error.message).not.toContain('hunter2');
		expect(error.message).not.toContain('alice');
		expect(error.message).not.toContain('abc123');
	});
});
