import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runNode } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';

const TOKEN = 'transport-secret-token-5d21c8';

const objects = { resource: 'advertisedObject', operation: 'getAll', returnAll: true };
const statsLast7Days = {
	resource: 'statistic',
	operation: 'getAll',
	period: 'last7Days',
	periodGroupingUnit: 'day',
	grouping: ['campaign'],
	returnAll: true,
	options: { pageSize: 5 },
};

describe('shared transport', () => {
	const sandbox = useSandbox({ token: TOKEN });

	test('requests go to the Base URL with the bearer token and come back one item per record', async () => {
		const { items, error } = await runNode({
			type: 'adCabinetStats',
			parameters: objects,
			credentials: credentialsFor(sandbox()),
		});
		expect(error).toBeUndefined();
		const expected = sandbox().data.objects;
		expect(items.map((item) => item.json.object)).toEqual(expected);
		expect(items.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(true);
		expect(apiRequests(sandbox())).toHaveLength(1);
		expect(apiRequests(sandbox())[0]).toMatchObject({ api: 'base', authorized: true });
	});

	test('a 429 with Retry-After is retried and then succeeds (declarative operation)', async () => {
		sandbox().faults.onNth(1, '429');
		const { items, error } = await runNode({
			type: 'adCabinetStats',
			parameters: objects,
			credentials: credentialsFor(sandbox()),
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(sandbox().data.objects.length);
		const log = apiRequests(sandbox());
		expect(log.map((r) => [r.path, r.status, r.fault ?? null])).toEqual([
			['/api/report/objects', 429, '429'],
			['/api/report/objects', 200, null],
		]);
	});

	test('transient failures on a middle page are retried without restarting the cursor (custom operation)', async () => {
		// One page after another, so the log is one cursor's (parts fetched at once each keep theirs the same way).
		const sequential = {
			...statsLast7Days,
			options: { ...statsLast7Days.options, parallelRequests: 1 },
		};
		sandbox().faults.onNth(2, '429');
		sandbox().faults.onNth(4, '502');
		const clean = await runNode({
			type: 'adCabinetStats',
			parameters: sequential,
			credentials: credentialsFor(sandbox()),
		});
		sandbox().clearLog();
		sandbox().faults.onNth(2, '503');
		sandbox().faults.onNth(3, 'reset');
		const faulty = await runNode({
			type: 'adCabinetStats',
			parameters: sequential,
			credentials: credentialsFor(sandbox()),
		});
		expect(faulty.error).toBeUndefined();
		expect(faulty.items.length).toBeGreaterThan(10);
		expect(faulty.items.map((item) => item.json)).toEqual(clean.items.map((item) => item.json));
		const log = apiRequests(sandbox());
		expect(log.filter((r) => r.fault)).toHaveLength(2);
		// after a failed page only that page is asked again: one cursor-less request opens the run
		expect(log.filter((r) => !(r.body as { cursor?: string }).cursor)).toHaveLength(1);
	});

	test('a stall past the Request Options timeout and a cut-short JSON body are both retried', async () => {
		const clean = await runNode({
			type: 'adCabinetStats',
			parameters: statsLast7Days,
			credentials: credentialsFor(sandbox()),
		});
		sandbox().clearLog();
		sandbox().faults.set({ rate: 0, kinds: ['stall'], stallMs: 8000 });
		sandbox().faults.onNth(2, 'stall');
		sandbox().faults.onNth(4, 'truncated');
		const started = Date.now();
		const faulty = await runNode({
			type: 'adCabinetStats',
			parameters: { ...statsLast7Days, requestOptions: { timeout: 1000 } },
			credentials: credentialsFor(sandbox()),
		});
		expect(faulty.error).toBeUndefined();
		expect(faulty.items.map((item) => item.json)).toEqual(clean.items.map((item) => item.json));
		expect(Date.now() - started).toBeLessThan(7000);
		expect(
			apiRequests(sandbox())
				.map((r) => r.fault)
				.filter(Boolean),
		).toEqual(['stall', 'truncated']);
	});

	test('a 401 becomes a NodeApiError with the status, the API message and advice, and no token', async () => {
		const { error, items } = await runNode({
			type: 'adCabinetStats',
			parameters: objects,
			credentials: credentialsFor(sandbox(), 'expired-token-zz91'),
		});
		expect(items).toHaveLength(0);
		expect(error).toBeDefined();
		expect(error?.name).toBe('NodeApiError');
		expect(error?.httpCode).toBe('401');
		// With Access Token the refused token is not sent again: paste a new one.
		expect(error?.message).toMatch(/^The Ad Cabinet API refused the pasted access token \(401\)/);
		expect(error?.message).toContain('Paste a new token into Access Token');
		expect(apiRequests(sandbox())).toHaveLength(1);
		const everything = JSON.stringify({
			message: error?.message,
			description: error?.description,
			error,
		});
		expect(everything).not.toContain('expired-token-zz91');
		expect(everything).not.toContain(TOKEN);
	});

	test('permanent failures are not retried forever and say what to do', async () => {
		sandbox().faults.set({ rate: 1, kinds: ['500'] });
		const { error } = await runNode({
			type: 'adCabinetStats',
			parameters: objects,
			credentials: credentialsFor(sandbox()),
		});
		expect(error?.httpCode).toBe('500');
		expect(error?.message).toContain(
			'It failed 5 times; it only reads data, so running it again later is safe.',
		);
		expect(apiRequests(sandbox())).toHaveLength(5);
	});

	test('Continue On Fail turns the failure into an error item paired to its input', async () => {
		const { items, error } = await runNode({
			type: 'adCabinetStats',
			parameters: objects,
			credentials: credentialsFor(sandbox(), 'bad-token-for-cof'),
			continueOnFail: true,
			input: [{ a: 1 }, { a: 2 }],
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(items[0].json.error).toMatch(/refused the pasted access token \(401/);
		expect(items[0].json.details).toMatchObject({ httpCode: '401' });
		// Only `error`, `message` and `details`: n8n then sends the item to an error output when there is one.
		expect(Object.keys(items[0].json).sort()).toEqual(['details', 'error']);
	});
	test('an API that cannot be reached: the message keeps the cause and says the write never arrived', async () => {
		// A port that was just free: nothing listens there.
		const server = createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		await new Promise((resolve) => server.close(resolve));
		const closed = `http://127.0.0.1:${port}`;
		const { error } = await runNode({
			type: 'adCabinetPixelEvents',
			parameters: {
				resource: 'pixelEvent',
				operation: 'create',
				accountId: 'ACC07021',
				title: 'Signup',
				type: 'custom',
			},
			credentials: { accessToken: TOKEN, baseUrl: closed, clientApiUrl: closed },
		});
		expect(error?.name).toBe('NodeApiError');
		// n8n would swap a message naming ECONNREFUSED for its generic "The service refused the connection".
		expect(error?.message).toMatch(
			/^The Ad Cabinet API could not be reached: the connection was refused\./,
		);
		expect(error?.message).toContain(
			'Check the Base URL and Client API URL in the credential and that the API is reachable from n8n. Nothing reached the API, so running it again is safe.',
		);
	});
});
