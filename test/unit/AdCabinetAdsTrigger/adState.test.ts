import { loadState, newState, StatusMap } from '../../../nodes/AdCabinetAdsTrigger/adState';

describe('Ads Trigger state: the packed statuses', () => {
	test('statuses round-trip by id, with the seen mark, in about 2 characters an ad', () => {
		const map = new StatusMap();
		map.set(10001, 'active');
		map.set(10002, 'declined');
		map.set(10005, 'deleted');
		map.unsee();
		map.set(10002, 'stopped');
		const packed = map.pack();
		expect(packed).toEqual({ m: '10001a1B3f' });
		const back = new StatusMap(packed);
		expect([...back.entries]).toEqual([
			[10001, { status: 'active', seen: false }],
			[10002, { status: 'stopped', seen: true }],
			[10005, { status: 'deleted', seen: false }],
		]);
		back.forgetUnseen();
		expect([...back.entries.keys()]).toEqual([10002]);
	});

	test('a status beyond the known ones is kept by name; beyond the table they read back as unknown', () => {
		const map = new StatusMap();
		map.set(1, 'paused');
		for (let i = 0; i < 30; i++) map.set(2 + i, `odd_${i}`);
		const back = new StatusMap(map.pack());
		expect(back.entries.get(1)?.status).toBe('paused');
		expect(back.entries.get(2)?.status).toBe('odd_0');
		expect(back.entries.get(31)?.status).toBeUndefined();
		expect(map.pack().x?.length).toBe(19);
	});

	test('a stored state not in the trigger form is replaced by a fresh one, with a warning', () => {
		const warnings: string[] = [];
		const warn = (message: string) => warnings.push(message);
		expect(loadState(undefined, 'q1', warn)).toEqual(newState('q1'));
		const kept = { v: 1, q: 'q1', m: '5a', w: 1_700_000_000_000, hi: 5 };
		expect(loadState(kept, 'q1', warn)).toBe(kept);
		// Another list query: the statuses belong to other ads, so it starts afresh without a warning.
		expect(loadState(kept, 'q2', warn)).toEqual(newState('q2'));
		expect(warnings).toEqual([]);
		for (const broken of [
			{ ...kept, m: 'a5' },
			{ ...kept, w: 'yesterday' },
			{ ...kept, o: -1 },
			'text',
		]) {
			expect(loadState(broken, 'q1', warn)).toEqual(newState('q1'));
		}
		expect(warnings).toHaveLength(4);
		expect(warnings[0]).toContain('records each ad');
	});
});
