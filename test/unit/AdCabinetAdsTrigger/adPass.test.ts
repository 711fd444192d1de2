import {
	AdPass,
	FORGET_DELETED_MS,
	type ListedAd,
} from '../../../nodes/AdCabinetAdsTrigger/adPass';
import { newState, StatusMap } from '../../../nodes/AdCabinetAdsTrigger/adState';

const T = Date.parse('2026-11-17T09:00:00Z');
const ad = (id: number, status: string, updatedMs: number | undefined = T): ListedAd => ({
	id,
	status,
	updatedMs,
	item: { id, status },
});
const summary = (changes: ReturnType<AdPass['see']>) =>
	changes.map((c) => [c.ad.id, c.previous, c.isNew]);

describe('Ads Trigger pass', () => {
	const baseline = () => {
		const pass = new AdPass(newState('q'));
		expect(pass.see([ad(1, 'active'), ad(2, 'in_review'), ad(3, 'stopped', T - 60_000)])).toEqual(
			[],
		);
		return pass.state();
	};

	test('the first pass records; the next finds changed statuses and new ads', () => {
		const state = baseline();
		expect(state).toMatchObject({ w: T, hi: 3 });
		expect(state.b).toBeUndefined();
		const pass = new AdPass(state);
		const changes = pass.see([
			ad(1, 'active'),
			ad(2, 'declined', T + 1),
			ad(3, 'stopped', T - 60_000),
			ad(4, 'in_review', T + 2),
		]);
		expect(summary(changes)).toEqual([
			[2, 'in_review', false],
			[4, null, true],
		]);
	});

	test('an ad with a lower id that was not there is new when its status is as new as the last pass', () => {
		const pass = new AdPass({ ...baseline(), hi: 10 });
		expect(summary(pass.see([ad(5, 'in_review', T)]))).toEqual([[5, null, true]]);
		const older = new AdPass({ ...baseline(), hi: 10 });
		expect(older.see([ad(6, 'active', T - 1)])).toEqual([]);
	});

	test('ads not listed by a whole pass are forgotten; a pass split over polls forgets nothing early', () => {
		const split = new AdPass(baseline());
		split.see([ad(1, 'active')]);
		const halfway = split.state(500);
		expect(new StatusMap(halfway).entries.size).toBe(3);
		const rest = new AdPass(halfway);
		rest.see([ad(3, 'stopped', T - 60_000)]);
		const whole = rest.state();
		expect([...new StatusMap(whole).entries.keys()]).toEqual([1, 3]);
		expect(whole.o).toBeUndefined();
	});

	test('a deletion is a change; a deletion older than the horizon is forgotten, and not met again as new', () => {
		const pass = new AdPass(baseline());
		const changes = pass.see([ad(1, 'deleted', T + 5), ad(2, 'in_review')]);
		expect(summary(changes)).toEqual([[1, 'active', false]]);
		const later = T + FORGET_DELETED_MS + 10;
		const next = new AdPass(pass.state());
		expect(next.see([ad(1, 'deleted', T + 5), ad(2, 'active', later)]).length).toBe(1);
		// Judged by the newest change listed so far: the pass after the one that listed it forgets it.
		const third = new AdPass(next.state());
		expect(third.see([ad(1, 'deleted', T + 5), ad(2, 'active', later)])).toEqual([]);
		const state = third.state();
		expect(new StatusMap(state).entries.has(1)).toBe(false);
		expect(new AdPass(state).see([ad(1, 'deleted', T + 5)])).toEqual([]);
	});
});
