import type { INode } from 'n8n-workflow';
import { pagingStoppedEarly, readLimit } from '../../../nodes/shared/returnAll';

const NODE = { name: 'Ads', type: 'n8n-nodes-ad-cabinet.adCabinetAds' } as INode;

describe('Return All and Limit', () => {
	test('Limit must be a whole number of at least 1; Return All is Infinity', () => {
		expect(readLimit(NODE, 0, (name) => (name === 'returnAll' ? true : 5))).toBe(Infinity);
		expect(readLimit(NODE, 0, (name) => (name === 'returnAll' ? false : 5))).toBe(5);
		expect(() => readLimit(NODE, 0, (name) => (name === 'returnAll' ? false : 0.5))).toThrow(
			/Limit/,
		);
	});

	test('paging that stopped early says both numbers, what to try, and that running again is safe', () => {
		const error = pagingStoppedEarly(NODE, {
			path: '/api/v2/advertisement',
			listed: 500,
			count: 5000,
			itemIndex: 2,
		});
		expect(error.message).toBe(
			"Paging /api/v2/advertisement stopped after 500 distinct records, but the API's count says 5000 exist: the next page brought no record not already listed (the API seems to ignore the offset), so the rest cannot be read this way and the list is not returned as if it were whole. Add a filter so that fewer records match (each answer holds at most 500), or turn off Return All and set Limit to at most 500. It only reads data, so running it again is safe.",
		);
		expect(error.context.itemIndex).toBe(2);
	});
});
