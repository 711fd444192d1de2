import type { IDataObject } from 'n8n-workflow';
import {
	applyPoll,
	EARLIEST_STATS_MS,
	figuresOf,
	figuresText,
	loadState,
	newState,
	settledBefore,
	windowStart,
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

describe('Re-check Last N Periods', () => {
	const hourly: PollSettings = {
		unit: 'hour',
		grouping: ['campaign'],
		emit: 'completed',
		settleMs: 15 * MIN,
		recheck: 2,
	};
	const CAMPAIGNS = 30;

	/**
	 * Hourly rows of 30 campaigns from `fromMs` up to `nowMs`; `restated` holds how often each
	 * (hour, campaign) has been restated so far, each time changing its figures.
	 */
	function hourlyRows(fromMs: number, nowMs: number, restated: Map<string, number>): IDataObject[] {
		const rows: IDataObject[] = [];
		for (let start = Math.floor(fromMs / HOUR) * HOUR; start < nowMs; start += HOUR) {
			const share = Math.min(HOUR, nowMs - start) / HOUR;
			for (let c = 1; c <= CAMPAIGNS; c++) {
				const times = restated.get(`${start}/${c}`) ?? 0;
				rows.push({
					period_date: new Date(start).toISOString(),
					campaign_id: c,
					views: Math.floor(1000 * c * share) + times,
					exchanged_spent: (c * share * (1 + times / 100)).toFixed(2),
					ctr: '1.25',
				});
			}
		}
		return rows;
	}

	test('10,000 polls with restatements: each restated row comes once with its previous figures; the state stays under 8 KB', () => {
		let now = Date.parse('2026-11-01T00:00:00Z');
		let state: TriggerState = newState('q', now - 2 * HOUR, false);
		const restated = new Map<string, number>();
		const lastEmitted = new Map<string, IDataObject>();
		const expected: string[] = [];
		const got: string[] = [];
		const sizes: number[] = [];
		for (let poll = 1; poll <= 10_000; poll++) {
			now += 5 * MIN;
			// Every 7th poll restates one campaign's hour: the last or the one before (re-checked), or the one before that (not).
			if (poll % 7 === 0) {
				const hoursBack = 1 + (poll % 3);
				const hour = Math.floor((now - hourly.settleMs) / HOUR) * HOUR - hoursBack * HOUR;
				const key = `${hour}/${1 + (poll % CAMPAIGNS)}`;
				if (hour >= Date.parse('2026-11-01T00:00:00Z')) {
					restated.set(key, (restated.get(key) ?? 0) + 1);
					// Emitted already, and one of the last two hours emitted: re-checked.
					if (hour >= state.wm - 2 * HOUR && hour < state.wm) expected.push(`${poll}:${key}`);
				}
			}
			const {
				emit,
				next,
				restated: marks,
			} = applyPoll(state, hourlyRows(windowStart(state), now, restated), now, hourly);
			for (const row of emit) {
				const key = `${Date.parse(String(row.period_date))}/${String(row.campaign_id)}`;
				if (marks.has(row)) {
					got.push(`${poll}:${key}`);
					// The figures it had when last emitted, as the API sent them.
					const before = lastEmitted.get(key) as IDataObject;
					expect(marks.get(row)).toEqual({
						views: before.views,
						exchanged_spent: before.exchanged_spent,
						ctr: '1.25',
					});
				} else {
					expect(lastEmitted.has(key)).toBe(false);
				}
				lastEmitted.set(key, row);
			}
			state = JSON.parse(JSON.stringify(next)) as TriggerState;
			if (poll % 500 === 0) sizes.push(JSON.stringify(state).length);
		}
		expect(expected.length).toBeGreaterThan(800);
		expect(got).toEqual(expected);
		expect(Math.max(...sizes)).toBeLessThan(8192);
		// Bounded, not growing: the last samples are no larger than the early ones.
		expect(Math.max(...sizes.slice(-5))).toBeLessThanOrEqual(Math.max(...sizes.slice(0, 5)));
		expect(Object.keys(state.rc ?? {})).toHaveLength(2);
	});

	test('a row that first appears in a re-checked period comes with previous null; a baseline poll records nothing', () => {
		const now = Date.parse('2026-11-01T10:20:00Z');
		const first = applyPoll(
			newState('q', now - 3 * HOUR, false),
			hourlyRows(now - 3 * HOUR, now, new Map()),
			now,
			hourly,
		);
		expect(first.emit.length).toBe(2 * CAMPAIGNS);
		const late = { period_date: '2026-11-01T09:00:00.000Z', campaign_id: 99, views: 1 };
		const rows = [...hourlyRows(windowStart(first.next), now + 5 * MIN, new Map()), late].sort(
			(a, b) => Date.parse(String(a.period_date)) - Date.parse(String(b.period_date)),
		);
		const second = applyPoll(first.next, rows, now + 5 * MIN, hourly);
		expect(second.emit).toEqual([late]);
		expect(second.restated.get(late)).toBeNull();

		const baseline = applyPoll(
			newState('q', now - 2 * HOUR, true),
			hourlyRows(now - 2 * HOUR, now, new Map()),
			now,
			hourly,
		);
		expect(baseline.emit).toEqual([]);
		expect(baseline.next.rc).toBeUndefined();
	});

	test('figures are stored compactly and read back as the API sent them', () => {
		const row = {
			views: 12,
			clicks: 0,
			exchanged_spent: '1.50',
			ctr: '0.5',
			cpa: null,
			video_opens: undefined,
			cpm: '1,5%',
		};
		const text = figuresText(row);
		expect(text).toBe(',1.50,12,0,,,0.5,,1%2C5%25,,');
		expect(figuresOf(text)).toEqual({
			views: 12,
			clicks: 0,
			exchanged_spent: '1.50',
			ctr: '0.5',
			cpm: '1,5%',
		});
	});

	test('a stored re-check record in another form is not trusted', () => {
		const settings = { ...daily, recheck: 2 };
		for (const rc of [[], { x: {} }, { 123: { c1: 5 } }, 'text']) {
			const { warnings } = load({ v: 1, q: 'q1', wm: NOW - DAY, rc }, settings);
			expect(warnings).toHaveLength(1);
		}
		expect(
			load({ v: 1, q: 'q1', wm: NOW - DAY, rc: { [NOW - 2 * DAY]: { c1: '1,2' } } }, settings)
				.warnings,
		).toEqual([]);
	});
});
