import type { INode } from 'n8n-workflow';
import {
	noteUnderWay,
	rateLimitWaitMessage,
	toolCallsDeadline,
} from '../../../nodes/shared/toolCall';
import { isToolCall, noteSent, type CallDeadline } from '../../../nodes/shared/callDeadline';

const node = (type: string) => ({ getNode: () => ({ type }) as INode });

describe('tool calls', () => {
	test("a node runs as a tool when n8n gives it its tool variant's type (ending in Tool)", () => {
		expect(isToolCall(node('n8n-nodes-ad-cabinet.adCabinetAdsTool'))).toBe(true);
		expect(isToolCall(node('n8n-nodes-ad-cabinet.adCabinetAds'))).toBe(false);
		expect(isToolCall(node('n8n-nodes-ad-cabinet.adCabinetStatsTrigger'))).toBe(false);
	});

	test('the message names the limit, the path in words and literally, the seconds, and that nothing was sent', () => {
		expect(
			rateLimitWaitMessage({
				path: '/api/advertisement/telegram/123',
				requests: 10,
				windowMs: 60_000,
				waitMs: 40_200,
				cause: 'used',
			}),
		).toBe(
			"The Ad Cabinet API allows 10 requests a minute for each URL path, and this call's path (ad 123: /api/advertisement/telegram/123) has used them: try again in 41 s. Nothing was sent for this call, so trying again then is safe. (A tool call answers within 20 s of its start, every wait inside it included, so that the AI client does not give up first.)",
		);
	});

	test('after a read, the message names it and says that repeating is safe; after a write, that it was performed', () => {
		const call: CallDeadline = { startedAt: 0, endsAt: 20_000, sent: [] };
		noteSent(call, 'get', '/api/advertisement/telegram/123');
		const words = {
			path: '/api/advertisement/telegram/123',
			requests: 10,
			windowMs: 60_000,
			waitMs: 12_000,
			cause: 'used' as const,
			call,
		};
		expect(rateLimitWaitMessage(words)).toContain(
			'try again in 12 s. This call sent GET /api/advertisement/telegram/123 and nothing more; none of it changed anything, so trying again then is safe.',
		);
		const put = noteSent(call, 'PUT', '/api/advertisement/telegram/123');
		expect(rateLimitWaitMessage(words)).toContain(
			'the API performed PUT /api/advertisement/telegram/123, so look at the result before repeating the call.',
		);
		if (put) put.refused429 = true;
		expect(rateLimitWaitMessage({ ...words, cause: 'retryAfter', askedMs: 15_000 })).toContain(
			'asked to wait 15 s: try again in 12 s. The API performs nothing it answers 429. This call sent GET /api/advertisement/telegram/123, PUT /api/advertisement/telegram/123 (answered 429, not performed) and nothing more; none of it changed anything, so trying again then is safe.',
		);
	});

	test('a renewal keeps to the earliest deadline of the tool calls under way, and to none while a workflow request is under way', () => {
		const later = noteUnderWay('who', { endsAt: 30_000 });
		const earlier = noteUnderWay('who', { endsAt: 20_000 });
		expect(toolCallsDeadline('who')).toEqual({ endsAt: 20_000 });
		const workflow = noteUnderWay('who', undefined);
		expect(toolCallsDeadline('who')).toBeUndefined();
		workflow();
		workflow();
		expect(toolCallsDeadline('who')).toEqual({ endsAt: 20_000 });
		earlier();
		expect(toolCallsDeadline('who')).toEqual({ endsAt: 30_000 });
		later();
		expect(toolCallsDeadline('who')).toBeUndefined();
	});
});
