import type { INode } from 'n8n-workflow';
import {
	isToolCall,
	noteUnderWay,
	onlyToolCalls,
	rateLimitWaitMessage,
} from '../../../nodes/shared/toolCall';

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
			"The Ad Cabinet API allows 10 requests a minute for each URL path, and this call's path (ad 123: /api/advertisement/telegram/123) has used them: try again in 41 s. Nothing was sent for this call, so trying again then is safe. (A tool call does not wait longer than 20 s for the rate limit, so that the AI client does not give up first.)",
		);
	});

	test('a renewal keeps to the bound only while every request of its credential under way is a tool call', () => {
		const tool = noteUnderWay('who', true);
		expect(onlyToolCalls('who')).toBe(true);
		const workflow = noteUnderWay('who', false);
		expect(onlyToolCalls('who')).toBe(false);
		workflow();
		workflow();
		expect(onlyToolCalls('who')).toBe(true);
		tool();
		expect(onlyToolCalls('who')).toBe(false);
	});
});
