import type { INode, NodeOperationError } from 'n8n-workflow';
import { changesOf, checkMoney, writeOptionsProperty } from '../../../nodes/shared/writes';

const node = { name: 'Ads', type: 'adCabinetAds', typeVersion: 1.3 } as INode;
const FIELDS = [
	{ api: 'cpm', label: 'CPM', kind: 'cpm' as const },
	{ api: 'daily_budget', label: 'Daily Budget', kind: 'budget' as const },
];
const none = { dryRun: false, skipIdentical: false, skipUnchanged: false };

function refusal(run: () => void): string {
	try {
		run();
	} catch (error) {
		return (error as NodeOperationError).message;
	}
	return '';
}

describe('checkMoney', () => {
	test('no bounds set: any value passes', () => {
		expect(refusal(() => checkMoney(node, 0, { cpm: 999, daily_budget: 1e6 }, FIELDS, none))).toBe(
			'',
		);
	});

	test('a value outside a bound names the field, the bound, the value, and that nothing was sent', () => {
		const message = refusal(() =>
			checkMoney(node, 0, { cpm: 3 }, FIELDS, { ...none, cpmMax: 2.5 }, { cpm: 2 }),
		);
		expect(message).toBe(
			"CPM: must be at most 2.5 (CPM Max under Options); the ad's current CPM is 2 (got 3). Only the ad was read; no write was sent, so nothing changed. Fix the value or the bound and run again: repeating is safe.",
		);
		expect(
			refusal(() => checkMoney(node, 0, { cpm: 1 }, FIELDS, { ...none, cpmMin: 1.5 })),
		).toMatch(/^CPM: must be at least 1\.5/);
		expect(
			refusal(() => checkMoney(node, 0, { daily_budget: 80 }, FIELDS, { ...none, budgetMax: 50 })),
		).toMatch(/^Daily Budget: must be at most 50 \(Budget Max under Options\) \(got 80\)/);
		expect(refusal(() => checkMoney(node, 0, { cpm: 2.5 }, FIELDS, { ...none, cpmMax: 2.5 }))).toBe(
			'',
		);
	});

	test('Max Change % bounds the move from the current value, both ways; from 0 it does not apply', () => {
		const bounded = { ...none, maxChangePercent: 20 };
		expect(refusal(() => checkMoney(node, 0, { cpm: 2.4 }, FIELDS, bounded, { cpm: 2 }))).toBe('');
		expect(refusal(() => checkMoney(node, 0, { cpm: 1.6 }, FIELDS, bounded, { cpm: 2 }))).toBe('');
		expect(refusal(() => checkMoney(node, 0, { cpm: 2.5 }, FIELDS, bounded, { cpm: 2 }))).toContain(
			'2 → 2.5 moves it by 25%',
		);
		expect(
			refusal(() =>
				checkMoney(node, 0, { daily_budget: 10 }, FIELDS, bounded, { daily_budget: 0 }),
			),
		).toBe('');
	});
});

describe('changesOf', () => {
	test('lists only the fields whose value differs, with from and to', () => {
		const current: Record<string, unknown> = { title: 'A', cpm: 2, schedule: { mon: [1] } };
		expect(
			changesOf({ title: 'A', cpm: 3, schedule: { mon: [1] }, text: 'new' }, (f) => current[f]),
		).toEqual({ cpm: { from: 2, to: 3 }, text: { from: null, to: 'new' } });
	});
});

describe('writeOptionsProperty', () => {
	test('hidden on the node versions given; holds only the options asked for', () => {
		const property = writeOptionsProperty({ operation: ['create'] }, [1, 1.1], {
			skipIdentical: true,
		});
		expect(property.displayOptions).toEqual({
			show: { operation: ['create'] },
			hide: { '@version': [1, 1.1] },
		});
		expect((property.options ?? []).map((o) => o.name)).toEqual(['dryRun', 'skipIdentical']);
	});
});
