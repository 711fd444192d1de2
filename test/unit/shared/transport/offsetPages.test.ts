import {
	NodeApiError,
	type IDataObject,
	type IExecuteSingleFunctions,
	type IN8nHttpFullResponse,
} from 'n8n-workflow';
import { listToItems } from '../../../../nodes/shared/transport/routing';
import { NODE } from '../../../support/fakeContext';
import {
	items,
	requestData,
	routingContext,
	run,
	type Answer,
} from '../../../support/routingContext';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

describe('routed: offset pages', () => {
	const pages = { pageSize: 50, offsetParameter: 'offset', limitParameter: 'limit' };
	/** An API with `total` records that answers offset/limit pages. */
	const api =
		(total: number): Answer =>
		(options) => {
			const qs = options.qs as { offset: number; limit: number };
			const end = Math.min(total, qs.offset + qs.limit);
			return items(
				...Array.from({ length: Math.max(0, end - qs.offset) }, (_, i) => qs.offset + i),
			);
		};

	test('Limit asks only for the rows wanted, the last page smaller', async () => {
		const routing = routingContext(api(1000), { parameters: { returnAll: false, limit: 120 } });
		const out = await run(
			{ offsetPages: pages },
			routing,
			requestData({ qs: { status: 'active' } }),
		);
		expect(out.map((item) => item.json.id)).toEqual(Array.from({ length: 120 }, (_, i) => i));
		expect(routing.sent().map((options) => options.qs)).toEqual([
			{ status: 'active', offset: 0, limit: 50 },
			{ status: 'active', offset: 50, limit: 50 },
			{ status: 'active', offset: 100, limit: 20 },
		]);
	});

	test('Return All pages until a short page, starting at the offset given', async () => {
		const routing = routingContext(api(130), { parameters: { returnAll: true } });
		const out = await run({ offsetPages: pages }, routing, requestData({ qs: { offset: 20 } }));
		expect(out).toHaveLength(110);
		expect(routing.sent().map((options) => (options.qs as IDataObject).offset)).toEqual([
			20, 70, 120,
		]);
	});

	/** An API that ignores the offset: the same first page every time, with `count` if given. */
	const ignoringOffset =
		(count?: number): Answer =>
		async (options) => {
			const qs = options.qs as { limit: number };
			const body = {
				data: Array.from({ length: qs.limit }, (_, i) => ({ id: i })),
				...(count === undefined ? {} : { count }),
			};
			// The answer as n8n's RoutingNode hands it to the operation's postReceive.
			const single = {
				getNode: () => NODE,
				getItemIndex: () => 0,
			} as unknown as IExecuteSingleFunctions;
			return await listToItems(['data']).call(single, [], {
				body,
				statusCode: 200,
				headers: {},
			} as IN8nHttpFullResponse);
		};

	test("paging that stops early while the API's count says more exist fails with both numbers and what to try", async () => {
		const routing = routingContext(ignoringOffset(5000), { parameters: { returnAll: true } });
		const error = (await run({ offsetPages: pages }, routing).catch((e: unknown) => e)) as Error;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toMatch(
			/^Paging \/api\/x stopped after 50 distinct records, but the API's count says 5000 exist: .*Add a filter so that fewer records match.*or turn off Return All and set Limit to at most 50\. It only reads data, so running it again is safe\.$/,
		);
		expect(routing.makeRoutingRequest).toHaveBeenCalledTimes(2);
	});

	test('without a count, the same records again end the paging with the distinct ones read', async () => {
		const routing = routingContext(ignoringOffset(), { parameters: { returnAll: true } });
		await expect(run({ offsetPages: pages }, routing)).resolves.toHaveLength(50);
	});

	test('a count that the records read reach ends the paging without an error', async () => {
		const routing = routingContext(ignoringOffset(50), { parameters: { returnAll: true } });
		await expect(run({ offsetPages: pages }, routing)).resolves.toHaveLength(50);
	});

	test('an exact multiple of the page size ends on the empty page after it', async () => {
		const routing = routingContext(api(100), { parameters: { returnAll: true } });
		await expect(run({ offsetPages: pages }, routing)).resolves.toHaveLength(100);
		expect(routing.makeRoutingRequest).toHaveBeenCalledTimes(3);
	});
});
