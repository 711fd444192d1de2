import type { INode, INodeExecutionData } from 'n8n-workflow';
import {
	TOOL_CALL_DEADLINE_MS,
	beginCall,
	callDeadline,
	deadlineMessage,
	noteSent,
	waitWithinCall,
} from '../../../nodes/shared/callDeadline';
import { takeHold } from '../../../nodes/shared/store/holds';

const TOOL: INode = {
	id: 'tool-1',
	name: 'Get ad',
	type: 'n8n-nodes-ad-cabinet.adCabinetAdsTool',
	typeVersion: 1.3,
	position: [0, 0],
	parameters: {},
};
const T0 = Date.parse('2026-11-23T10:00:00Z');

/** A run's context as n8n makes it: its input items, under the main input or the tool's. */
function runContext(items: INodeExecutionData[], node: INode = TOOL, input = 'main') {
	return {
		getNode: () => node,
		getInputData: (...args: unknown[]) => ((args[1] ?? 'main') === input ? items : []),
	};
}

/** A per-item context made from a run's context: the same items, one at a time. */
function itemContext(items: INodeExecutionData[], itemIndex = 0, input = 'main') {
	return {
		getNode: () => TOOL,
		getInputData: (...args: unknown[]) =>
			(args[1] ?? 'main') === input ? items[itemIndex] : { json: {} },
	};
}

class TooLong extends Error {
	constructor(readonly waitMs: number) {
		super(`too long: ${waitMs}`);
	}
}

describe("a tool call's one deadline", () => {
	beforeEach(() => {
		jest.useFakeTimers();
		jest.setSystemTime(T0);
	});
	afterEach(() => jest.useRealTimers());

	test('is 20 s from the start of the node run, and every context of that run (per item, per page) shares it', () => {
		const items = [{ json: { Ad_ID: '1' } }];
		beginCall(runContext(items));
		jest.setSystemTime(T0 + 5_000);
		const call = callDeadline(itemContext(items));
		expect(call).toEqual({ startedAt: T0, endsAt: T0 + TOOL_CALL_DEADLINE_MS, sent: [] });
		// A page context is made from the per-item one: it hands out the same item.
		const page = Object.create(itemContext(items)) as ReturnType<typeof itemContext>;
		expect(callDeadline(page)).toBe(call);
	});

	test('two tool calls in one execution (the agent calling the tool twice) have a deadline each', () => {
		const first = [{ json: { Ad_ID: '1' } }];
		const second = [{ json: { Ad_ID: '1' } }];
		beginCall(runContext(first, TOOL, 'ai_tool'));
		jest.setSystemTime(T0 + 15_000);
		beginCall(runContext(second, TOOL, 'ai_tool'));
		expect(callDeadline(itemContext(first, 0, 'ai_tool'))?.endsAt).toBe(T0 + 20_000);
		expect(callDeadline(itemContext(second, 0, 'ai_tool'))?.endsAt).toBe(T0 + 35_000);
	});

	test("a workflow's node has none, and a call first seen later starts when it is first seen", () => {
		const plain = { ...TOOL, type: 'n8n-nodes-ad-cabinet.adCabinetAds' };
		expect(callDeadline(runContext([{ json: {} }], plain))).toBeUndefined();
		jest.setSystemTime(T0 + 3_000);
		expect(callDeadline(itemContext([{ json: {} }]))?.startedAt).toBe(T0 + 3_000);
	});

	test('a wait that ends by the deadline is taken; the next one that would pass it is refused at once, with its length', async () => {
		const within = { endsAt: T0 + 20_000 };
		const first = waitWithinCall(within, 12_000, (ms) => new TooLong(ms));
		await jest.advanceTimersByTimeAsync(12_000);
		await expect(first).resolves.toBeUndefined();
		await expect(waitWithinCall(within, 9_000, (ms) => new TooLong(ms))).rejects.toEqual(
			new TooLong(9_000),
		);
		expect(Date.now()).toBe(T0 + 12_000);
		// Without a deadline (a workflow's node) the same wait is taken.
		const plain = waitWithinCall(undefined, 9_000, (ms) => new TooLong(ms));
		await jest.advanceTimersByTimeAsync(9_000);
		await expect(plain).resolves.toBeUndefined();
	});

	test("the hold of another execution: a call that waits for it stops at the look that would pass its deadline and does not take it; a workflow's run waits and takes it", async () => {
		const holder = await takeHold('ad-7', 5 * 60_000);
		const tooLong = jest.fn((waitedMs: number) => new TooLong(waitedMs));
		const call = takeHold('ad-7', 5 * 60_000, { endsAt: T0 + 20_000, tooLong });
		const outcome = call.then(
			() => 'taken',
			(error: TooLong) => error,
		);
		await jest.advanceTimersByTimeAsync(20_000);
		expect(await outcome).toEqual(new TooLong(20_000));
		const workflow = takeHold('ad-7', 5 * 60_000);
		await jest.advanceTimersByTimeAsync(30_000);
		holder.release();
		await expect(workflow).resolves.toEqual(expect.objectContaining({ waitedMs: 30_000 }));
	});

	test("a hold's wait and a later wait of the same call add up: the second is refused", async () => {
		const items = [{ json: {} }];
		beginCall(runContext(items));
		const call = callDeadline(itemContext(items));
		const holder = await takeHold('ad-8', 5 * 60_000);
		const tooLong = (waitedMs: number) => new TooLong(waitedMs);
		const waiting = takeHold('ad-8', 5 * 60_000, { endsAt: call?.endsAt ?? 0, tooLong });
		await jest.advanceTimersByTimeAsync(12_000);
		holder.release();
		(await waiting).release();
		await expect(waitWithinCall(call, 9_000, (ms) => new TooLong(ms))).rejects.toEqual(
			new TooLong(9_000),
		);
	});

	test("a wait that is not the rate limit's is told in the same shape: what it waited for, when to try again, what was sent", () => {
		const items = [{ json: {} }];
		beginCall(runContext(items));
		const call = callDeadline(itemContext(items));
		noteSent(call, 'GET', '/api/advertisement/telegram/7');
		expect(
			deadlineMessage(
				call,
				'Ad 7 was not changed: another execution of this workflow is changing the same ad',
				4_200,
			),
		).toBe(
			'Ad 7 was not changed: another execution of this workflow is changing the same ad: try again in 5 s. This call sent GET /api/advertisement/telegram/7 and nothing more; none of it changed anything, so trying again then is safe. (A tool call answers within 20 s of its start, every wait inside it included, so that the AI client does not give up first.)',
		);
	});
});
