import type { IDataObject } from 'n8n-workflow';
import {
	applyPoll,
	EARLIEST_STATS_MS,
	loadState,
	newState,
	settledBefore,
	type PollSettings,
	type TriggerState,
} from '../../../nodes/AdCabinetStatsTrigger/pollState';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const NOW = Date.parse('2026-11-17T09:00:00Z');
const daily: PollSettings = {
	unit: 'day',
	grouping: ['campaign'],
	emit: 'completed',
	settleMs: 60 * MIN,
};

/** Daily rows of two campaigns from `fromMs` up to the day before NOW, as the API would return them. */
function dailyRows(fromMs: number): IDataObject[] {
	const rows: IDataObject[] = [];
	for (let day = Math.floor(fromMs / DAY) * DAY; day + DAY <= NOW; day += DAY) {
		for (const campaign of [1, 2])
			rows.push({ period_date: new Date(day).toISOString(), campaign_id: campaign, views: 10 });
	}
	return rows;
}

function load(stored: unknown, settings = daily, now = NOW) {
	const warnings: string[] = [];
	const state = loadState(stored, 'q1', now, settings, (message) => warnings.push(message));
	return { state, warnings };
}

describe('trigger state is checked when it is loaded', () => {
	test('a hand-edited 1970 watermark is reset to now: the poll emits nothing old and a warning says so', () => {
		const { state, warnings } = load({ v: 1, q: 'q1', wm: 0 });
		expect(state).toEqual({ v: 1, q: 'q1', wm: settledBefore(NOW, daily), baseline: true });
		expect(warnings).toEqual([
			"Ad Cabinet Stats Trigger: the stored state cannot be trusted (its position 1970-01-01T00:00:00.000Z is before 2020-01-01T00:00:00.000Z, earlier than any statistics). It was reset to now: rows from before now are not emitted, and rows from now on are. This happens when the workflow's static data was edited or the clock was wrong.",
		]);
		// The window from the reset position holds only rows that are already settled: none is emitted.
		const poll = applyPoll(state as TriggerState, dailyRows(state?.wm ?? 0), NOW, daily);
		expect(poll.emit).toEqual([]);
		expect(poll.next.wm).toBeGreaterThanOrEqual(NOW - DAY - 60 * MIN);
	});

	test('a watermark a year ahead (the clock ran a year ahead for one poll) is reset to now, with a warning', () => {
		const ahead = NOW + 365 * DAY;
		const { state, warnings } = load({ v: 1, q: 'q1', wm: ahead });
		expect(state).toEqual({ v: 1, q: 'q1', wm: settledBefore(NOW, daily), baseline: true });
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toContain(
			'its position 2027-11-17T09:00:00.000Z is ahead of the clock (now 2026-11-17T09:00:00.000Z) by more than one period',
		);
		// This poll records what has settled; the next day's poll emits the day completed since,
		// instead of waiting a year.
		const now = applyPoll(state as TriggerState, dailyRows(state?.wm ?? 0), NOW, daily);
		expect(now.emit).toEqual([]);
		const nov17 = { period_date: '2026-11-17T00:00:00.000Z', campaign_id: 1, views: 5 };
		expect(applyPoll(now.next, [nov17], NOW + DAY, daily).emit).toEqual([nov17]);
	});

	test.each([
		['not an object', 'garbage'],
		['an array', [1, 2]],
		['another version', { v: 2, q: 'q1', wm: NOW - HOUR }],
		['a position that is text', { v: 1, q: 'q1', wm: '2026-11-17' }],
		['a position that is not finite', { v: 1, q: 'q1', wm: null }],
		['baseline that is not a boolean', { v: 1, q: 'q1', wm: NOW - HOUR, baseline: 'yes' }],
		['fingerprints that are not base64', { v: 1, q: 'q1', wm: NOW - HOUR, open: '<script>' }],
	])('a state that is %s is reset to now, with a warning', (_case, stored) => {
		const { state, warnings } = load(stored);
		expect(state).toEqual(newState('q1', settledBefore(NOW, daily), true));
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(
			/^Ad Cabinet Stats Trigger: the stored state cannot be trusted \(.+\)\. It was reset to now/,
		);
	});

	test('a state the trigger wrote is used as it is, without a warning', () => {
		const everyChange: PollSettings = {
			...daily,
			unit: '5_minutes',
			emit: 'everyChange',
			settleMs: 15 * MIN,
		};
		for (const [stored, settings] of [
			[{ v: 1, q: 'q1', wm: NOW - DAY }, daily],
			[{ v: 1, q: 'q1', wm: EARLIEST_STATS_MS, baseline: true }, daily],
			// Up to one period ahead is tolerated (a clock a little fast).
			[{ v: 1, q: 'q1', wm: NOW + DAY - MIN }, daily],
			[{ v: 1, q: 'q1', wm: NOW - 10 * MIN, open: 'AAECAwQFBgc=' }, everyChange],
			// Older than the 5 days fine units keep: the poll skips what is gone and says so itself.
			[{ v: 1, q: 'q1', wm: NOW - 6 * DAY }, everyChange],
		] as Array<[TriggerState, PollSettings]>) {
			const { state, warnings } = load(stored, settings);
			expect(state).toBe(stored);
			expect(warnings).toEqual([]);
		}
	});

	test('nothing stored, or a state of other settings, leaves the start to Start From, without a warning', () => {
		expect(load(undefined)).toEqual({ state: undefined, warnings: [] });
		expect(load(null)).toEqual({ state: undefined, warnings: [] });
		expect(load({ v: 1, q: 'other settings', wm: 0 })).toEqual({ state: undefined, warnings: [] });
	});
});
