import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INodeParameters } from 'n8n-workflow';
import { runNode } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { TEST_NOW } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

/** Cabinets, campaigns and balances: the real service's own resources, in the Ads node. */
describe('Ad Cabinet Ads → Cabinet, Campaign and Balance (Telegram form)', () => {
	const sandbox = useSandbox({ platform: 'telegram', rateLimit: 'off', now: TEST_NOW });
	const run = (parameters: INodeParameters, credentials = credentialsFor(sandbox())) =>
		runNode({ type: 'adCabinetAds', parameters, credentials });

	test('Cabinet → Get Many lists every cabinet with its balances, simplified, from one request', async () => {
		const { items, error } = await run({
			resource: 'cabinet',
			operation: 'getAll',
			returnAll: true,
			simplify: true,
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.account_id)).toEqual(['ACC06163', 'ACC07021', 'ACC07355']);
		expect(Object.keys(items[0].json).sort()).toEqual([
			'account_id',
			'account_name',
			'balance_active',
			'balance_available',
			'balance_spent',
			'balance_total',
			'legal_name',
			'status',
		]);
		const sent = apiRequests(sandbox());
		expect(sent.map((r) => [r.method, r.path, r.query])).toEqual([
			['GET', '/api/accounts/telegram/', { offset: '0', limit: '500' }],
		]);
		expect(items.every((item) => typeof item.json.balance_available === 'number')).toBe(true);
	});

	test('Cabinet → Get Many: Limit, the name filter, and Simplify off', async () => {
		const limited = await run({
			resource: 'cabinet',
			operation: 'getAll',
			returnAll: false,
			limit: 2,
			simplify: false,
		});
		expect(limited.items).toHaveLength(2);
		expect(limited.items[0].json).toHaveProperty('category_name');
		expect(apiRequests(sandbox()).at(-1)?.query).toEqual({ offset: '0', limit: '2' });
		const name = String(limited.items[1].json.account_name);
		const filtered = await run({
			resource: 'cabinet',
			operation: 'getAll',
			returnAll: true,
			filters: { accountName: name.slice(0, 5).toUpperCase() },
		});
		expect(filtered.items.map((item) => item.json.account_name)).toContain(name);
		expect(apiRequests(sandbox()).at(-1)?.query).toMatchObject({
			account_name: name.slice(0, 5).toUpperCase(),
		});
	});

	test('Cabinet → Get reads one cabinet picked from the list or given by ID; an unknown one says so', async () => {
		const { items } = await run({
			resource: 'cabinet',
			operation: 'get',
			cabinetId: { __rl: true, mode: 'list', value: 'ACC07021' },
		});
		expect(items[0].json.account_uid).toBe('ACC07021');
		expect(apiRequests(sandbox()).at(-1)?.path).toBe('/api/accounts/telegram/ACC07021');
		const byId = await run({
			resource: 'cabinet',
			operation: 'get',
			cabinetId: { __rl: true, mode: 'id', value: ' ACC06163 ' },
		});
		expect(byId.items[0].json.account_uid).toBe('ACC06163');
		const missing = await run({
			resource: 'cabinet',
			operation: 'get',
			cabinetId: { __rl: true, mode: 'id', value: 'ACC99999' },
		});
		expect(missing.error?.message).toContain(
			'Cabinet ACC99999 was not found. Pick an ID that "Get many cabinets" lists.',
		);
	});

	test('Cabinet → Get with an expression that gives no cabinet is refused before any request', async () => {
		const { error } = await run({
			resource: 'cabinet',
			operation: 'get',
			cabinetId: { __rl: true, mode: 'id', value: '={{ $json.missing ?? "" }}' },
		});
		expect(error?.message).toMatch(
			/^Cabinet ID: is required: pick a cabinet from the list, or give its ID.*Nothing was sent to the API\.$/,
		);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	test('Campaign → Get Many: every campaign with its cabinet and figures; period and status reach the API', async () => {
		const all = await run({
			resource: 'campaign',
			operation: 'getAll',
			returnAll: true,
			period: 'all',
		});
		expect(all.error).toBeUndefined();
		expect(all.items.length).toBeGreaterThan(2);
		expect(all.items.every((item) => /^ACC\d+$/.test(String(item.json.account_id)))).toBe(true);
		const active = await run({
			resource: 'campaign',
			operation: 'getAll',
			returnAll: true,
			period: 'yesterday',
			filters: { active: 'active' },
		});
		expect(apiRequests(sandbox()).at(-1)?.query).toEqual({
			period: 'yesterday',
			is_active: 'true',
			offset: '0',
			limit: '500',
		});
		expect(active.items.every((item) => item.json.status === 'active')).toBe(true);
		expect(active.items.length).toBeLessThanOrEqual(all.items.length);
	});

	test('Balance → Get: active, available and total, each with amount and currency', async () => {
		const { items, error } = await run({ resource: 'balance', operation: 'get' });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		for (const key of ['active', 'available', 'total']) {
			expect(items[0].json[key]).toEqual({
				amount: expect.any(Number),
				currency: expect.any(String),
			});
		}
	});

	test('with the credential in the Generic form, each is refused before anything is sent', async () => {
		for (const parameters of [
			{ resource: 'cabinet', operation: 'getAll', returnAll: true },
			{ resource: 'campaign', operation: 'getAll', returnAll: true },
			{ resource: 'balance', operation: 'get' },
		]) {
			const { error } = await run(parameters, {
				...credentialsFor(sandbox()),
				platform: 'ext',
			} as ReturnType<typeof credentialsFor>);
			expect(error?.message).toMatch(
				/exist only on the Telegram \(Adstat\) API; this credential's Platform is "Generic", whose API has no such endpoint/,
			);
			expect(error?.message).toContain('Nothing was sent to the API.');
		}
		expect(apiRequests(sandbox())).toHaveLength(0);
	});
});

describe('offset paging until count', () => {
	test('a server that gives 3 a page is read at offsets 0, 3 and 6 until its count of 7, and no further', async () => {
		const all = Array.from({ length: 7 }, (_, i) => ({
			account_id: `ACC0${i}`,
			account_name: `Cabinet ${i}`,
		}));
		const seen: string[] = [];
		const server = createServer((req, res) => {
			const url = new URL(req.url ?? '/', 'http://x');
			seen.push(url.search);
			const offset = Number(url.searchParams.get('offset'));
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ items: all.slice(offset, offset + 3), count: all.length }));
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		try {
			const { items, error } = await runNode({
				type: 'adCabinetAds',
				parameters: { resource: 'cabinet', operation: 'getAll', returnAll: true },
				credentials: { accessToken: 'tok-1234', baseUrl: url, clientApiUrl: url },
			});
			expect(error).toBeUndefined();
			expect(items.map((item) => item.json.account_id)).toEqual(all.map((c) => c.account_id));
			expect(seen).toEqual(['?offset=0&limit=500', '?offset=3&limit=500', '?offset=6&limit=500']);
		} finally {
			server.close();
		}
	});
});
