import {
	NodeApiError,
	NodeOperationError,
	sleep,
	type IDataObject,
	type IExecuteSingleFunctions,
	type IN8nHttpFullResponse,
	type INodeExecutionData,
} from 'n8n-workflow';
import { InvalidJsonResponse } from '../../../../nodes/shared/transport/apiFailure';
import {
	listToItems,
	recordToItem,
	requireJsonBody,
	routed,
} from '../../../../nodes/shared/transport/routing';
import { PLATFORM_NAMES } from '../../../../nodes/shared/platform';
import { invalidInput } from '../../../../nodes/shared/validation';
import { TOKEN, httpError } from '../../../support/fakeContext';
import {
	items,
	requestData,
	routingContext,
	run,
	type RequestOptions,
} from '../../../support/routingContext';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));
const sleepMock = sleep as jest.MockedFunction<typeof sleep>;

beforeEach(() => sleepMock.mockClear());

describe('routed: every declarative operation through send', () => {
	test("opts into RoutingNode's pagination hook, so every request comes through it", () => {
		const routing = routed();
		expect(routing.send).toEqual({ paginate: true });
		expect(typeof routing.operations?.pagination).toBe('function');
	});

	test('sends the request RoutingNode built and pairs every output item to the input item', async () => {
		const routing = routingContext(() => items(1, 2), { itemIndex: 4 });
		const data = requestData({ qs: { a: 1 } });
		const out = await run({}, routing, data);
		expect(out).toEqual([
			{ json: { id: 1 }, pairedItem: { item: 4 } },
			{ json: { id: 2 }, pairedItem: { item: 4 } },
		]);
		expect(routing.makeRoutingRequest).toHaveBeenCalledWith({
			...data,
			options: { ...data.options, disableFollowRedirect: true },
		});
	});

	test('a GET is retried on 503; a POST is not; an operation may say it is a read', async () => {
		const flaky = () =>
			routingContext((_options, call) => {
				if (call === 1) throw httpError(503);
				return items(1);
			});
		const get = flaky();
		await expect(run({}, get)).resolves.toHaveLength(1);
		expect(get.makeRoutingRequest).toHaveBeenCalledTimes(2);

		const post = flaky();
		await expect(
			run({}, post, requestData({ method: 'POST', body: { a: 1 } })),
		).rejects.toBeInstanceOf(NodeApiError);
		expect(post.makeRoutingRequest).toHaveBeenCalledTimes(1);

		const readPost = flaky();
		await expect(
			run({ idempotent: true }, readPost, requestData({ method: 'POST' })),
		).resolves.toHaveLength(1);
		expect(readPost.makeRoutingRequest).toHaveBeenCalledTimes(2);
	});

	test('an answer whose items are not objects (a body cut short) is retried as a read', async () => {
		const routing = routingContext((_options, call) =>
			call === 1 ? ([{ json: 'oops' }] as unknown as INodeExecutionData[]) : items(3),
		);
		await expect(run({}, routing)).resolves.toEqual([{ json: { id: 3 }, pairedItem: { item: 0 } }]);
		expect(routing.makeRoutingRequest).toHaveBeenCalledTimes(2);
	});

	test('prepare checks the request before anything is sent; its refusal stops the item', async () => {
		const routing = routingContext(() => items(1), { itemIndex: 1 });
		const prepare = jest.fn(function (this: IExecuteSingleFunctions, options: RequestOptions) {
			expect(this).toBe(routing.ctx);
			throw invalidInput(this.getNode(), 'Ad ID', 'must be a whole number', 1, options.url);
		});
		const error = await run({ prepare }, routing).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toBe(
			'Ad ID: must be a whole number (got "/api/x"). Nothing was sent to the API.',
		);
		expect(routing.makeRoutingRequest).not.toHaveBeenCalled();
	});

	test('prepare may complete the request before it is sent', async () => {
		const routing = routingContext(() => items(1));
		await run(
			{
				prepare(options) {
					options.body = { ...(options.body as IDataObject), ad_source: 'web_api' };
				},
			},
			routing,
			requestData({ method: 'POST', body: { title: 't' } }),
		);
		expect(routing.sent()[0].body).toEqual({ title: 't', ad_source: 'web_api' });
	});

	test("prepare is given the naming map of the credential's platform; without one, the real service's", async () => {
		for (const [credential, path] of [
			[{}, '/api/advertisement/telegram/'],
			[{ platform: '' }, '/api/advertisement/telegram/'],
			[{ platform: 'telegram' }, '/api/advertisement/telegram/'],
			[{ platform: 'ext' }, '/api/advertisement/ext/'],
		] as const) {
			const routing = routingContext(() => items(1), { credential });
			await run(
				{
					prepare(options, names) {
						options.url = names.paths.adCreate;
					},
				},
				routing,
			);
			expect([credential, routing.sent()[0].url]).toEqual([credential, path]);
		}
	});

	test('a platform the package does not know is refused before anything is sent, naming the choices', async () => {
		const routing = routingContext(() => items(1), { credential: { platform: 'tiktok' } });
		const prepare = jest.fn();
		await expect(run({ prepare }, routing)).rejects.toThrow(
			'Platform (Ad Cabinet API credential): must be "telegram" (Telegram (Adstat)) or "ext" (Generic); choose one in the credential (got "tiktok"). Nothing was sent to the API.',
		);
		expect(prepare).not.toHaveBeenCalled();
		expect(routing.makeRoutingRequest).not.toHaveBeenCalled();
	});

	test('a base URL that is not http(s) is refused before sending, naming the credential field', async () => {
		const routing = routingContext(() => items(1), { baseUrl: 'api.example.test' });
		await expect(run({}, routing, requestData({ baseURL: 'api.example.test' }))).rejects.toThrow(
			/^Base URL \(Ad Cabinet API credential\): must be an http:\/\/ or https:\/\/ address/,
		);
		expect(routing.makeRoutingRequest).not.toHaveBeenCalled();
	});

	test("the operation hint is asked with the failure, in the item's context; the token is scrubbed", async () => {
		const routing = routingContext(() => {
			throw httpError(404, { detail: `unknown event for ${TOKEN}` });
		});
		const hint = jest.fn(function (this: IExecuteSingleFunctions) {
			expect(this).toBe(routing.ctx);
			return 'Check the Event ID.';
		});
		const error = (await run({ hint }, routing).catch((e: unknown) => e)) as NodeApiError;
		expect(hint).toHaveBeenCalledWith(
			expect.objectContaining({ status: 404 }),
			PLATFORM_NAMES.telegram,
		);
		expect(error.message).toBe(
			'The Ad Cabinet API refused the request with 404: unknown event for ***. Check the Event ID.',
		);
	});

	test('under Continue On Fail, a failure becomes one error item paired to its input item', async () => {
		const routing = routingContext(
			() => {
				throw httpError(400, { detail: 'title: required' });
			},
			{ continueOnFail: true, itemIndex: 2 },
		);
		const out = await run({}, routing, requestData({ method: 'POST' }));
		expect(out).toHaveLength(1);
		expect(out[0].pairedItem).toEqual({ item: 2 });
		expect(out[0].json.error).toBe(
			'The Ad Cabinet API refused the request with 400: title: required. Fix the value it names and send the request again. The API refused it, so nothing was changed and sending it again after the fix is safe.',
		);
		expect(out[0].json.details).toMatchObject({ httpCode: '400' });
	});

	test('an empty answer to a write becomes the item onEmptyAnswer builds from the body sent', async () => {
		const routing = routingContext(() => []);
		const out = await run(
			{ onEmptyAnswer: (sent) => ({ deleted: true, ...sent }) },
			routing,
			requestData({ method: 'DELETE', body: { id: 'ev1' } }),
		);
		expect(out).toEqual([{ json: { deleted: true, id: 'ev1' }, pairedItem: { item: 0 } }]);
		// Without onEmptyAnswer an empty answer is no items.
		await expect(
			run(
				{},
				routingContext(() => []),
			),
		).resolves.toEqual([]);
	});
});

describe('postReceive steps', () => {
	const fx = {} as IExecuteSingleFunctions;
	const response = (body: unknown, statusCode = 200) =>
		({ body, statusCode, headers: {} }) as IN8nHttpFullResponse;

	test('listToItems: one item per record from an array or from the first array key; scalars wrapped', async () => {
		const toItems = listToItems(['results', 'data'], 'id');
		await expect(toItems.call(fx, [], response([{ a: 1 }, 7]))).resolves.toEqual([
			{ json: { a: 1 } },
			{ json: { id: 7 } },
		]);
		await expect(
			toItems.call(fx, [], response({ data: [{ b: 2 }], results: 'not a list' })),
		).resolves.toEqual([{ json: { b: 2 } }]);
		await expect(toItems.call(fx, [], response({ results: [[1, 2]] }))).resolves.toEqual([
			{ json: { id: [1, 2] } },
		]);
	});

	test('listToItems: a body without a list, or cut short, fails so the read is retried', async () => {
		const toItems = listToItems(['data']);
		await expect(toItems.call(fx, [], response({ other: [] }))).rejects.toBeInstanceOf(
			InvalidJsonResponse,
		);
		await expect(toItems.call(fx, [], response('[{"a":', 200))).rejects.toBeInstanceOf(
			InvalidJsonResponse,
		);
		await expect(toItems.call(fx, [], response(null))).rejects.toBeInstanceOf(InvalidJsonResponse);
	});

	test('recordToItem: an object is one item; an empty answer is the fallback; anything else fails', async () => {
		await expect(recordToItem().call(fx, [], response({ id: 1 }))).resolves.toEqual([
			{ json: { id: 1 } },
		]);
		await expect(recordToItem().call(fx, [], response('', 204))).resolves.toEqual([{ json: {} }]);
		const fallback = jest.fn(function (this: IExecuteSingleFunctions) {
			expect(this).toBe(fx);
			return { deleted: true };
		});
		await expect(recordToItem(fallback).call(fx, [], response(undefined, 204))).resolves.toEqual([
			{ json: { deleted: true } },
		]);
		await expect(recordToItem().call(fx, [], response([{ id: 1 }]))).rejects.toBeInstanceOf(
			InvalidJsonResponse,
		);
		await expect(recordToItem().call(fx, [], response('{"id":'))).rejects.toBeInstanceOf(
			InvalidJsonResponse,
		);
	});

	test('requireJsonBody accepts parsed bodies and empty text, refuses other text with its status', () => {
		expect(() => requireJsonBody(response({ a: 1 }))).not.toThrow();
		expect(() => requireJsonBody(response('  '))).not.toThrow();
		try {
			requireJsonBody(response('<html>', 200));
			throw new Error('expected a refusal');
		} catch (error) {
			expect(error).toBeInstanceOf(InvalidJsonResponse);
			expect((error as InvalidJsonResponse).status).toBe(200);
		}
	});
});
