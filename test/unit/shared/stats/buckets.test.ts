import type { PeriodUnit } from '../../../../nodes/shared/stats/apiValues';
import { BucketClock, readPeriodDate } from '../../../../nodes/shared/stats/buckets';

const at = (iso: string) => Date.parse(iso);
const DAY = 86_400_000;

function clockOf(unit: PeriodUnit, ...dates: string[]): BucketClock {
	const clock = BucketClock.learn(unit, dates);
	if (!clock) throw new Error(`no clock learned from ${dates.join(', ')}`);
	return clock;
}

describe('readPeriodDate', () => {
	test.each([
		['2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z', 0],
		['2026-11-01T00:00:00+03:00', '2026-10-31T21:00:00Z', 180],
		['2026-11-01T00:00:00.000-05:30', '2026-11-01T05:30:00Z', -330],
		['2026-11-01T10:00+0545', '2026-11-01T04:15:00Z', 345],
	])('%s is %s in offset %i minutes', (text, instant, offset) => {
		expect(readPeriodDate(text)).toEqual({ ms: at(instant), offsetMinutes: offset });
	});

	test.each([
		['2026-11-01T00:00:00'],
		['2026-11-01'],
		['2026-13-01T00:00:00Z'],
		['yesterday'],
		[1793491200000],
		[null],
	])('%j gives no period date (no explicit offset, or not a date)', (value) => {
		expect(readPeriodDate(value)).toBeUndefined();
	});
});

describe('BucketClock.learn', () => {
	test('learns the offset the API writes its periods in', () => {
		const clock = clockOf('day', '2026-11-01T00:00:00+03:00', '2026-11-02T00:00:00+03:00');
		expect(clock.offsetMs).toBe(3 * 3_600_000);
		expect(clock.unit).toBe('day');
	});

	test.each([
		['no dates at all', 'day', []],
		['a date without an offset', 'day', ['2026-11-01T00:00:00']],
		['two different offsets', 'day', ['2026-11-01T00:00:00+03:00', '2026-11-02T00:00:00Z']],
		['a day that does not start at midnight in its own offset', 'day', ['2026-11-01T21:00:00Z']],
		['an hour label at half past', 'hour', ['2026-11-01T10:00:00Z', '2026-11-01T10:30:00Z']],
		['a 5-minute label at 10:02', '5_minutes', ['2026-11-01T10:02:00Z']],
		['a month label in mid-month', 'month', ['2026-11-15T00:00:00+03:00']],
		['a year label in March', 'year', ['2026-03-01T00:00:00Z']],
		['a week that starts at 06:00', 'week', ['2026-11-02T06:00:00+03:00']],
		[
			'two week starts not a whole number of weeks apart',
			'week',
			['2026-11-02T00:00:00Z', '2026-11-05T00:00:00Z'],
		],
	])('gives no clock for %s', (_what, unit, dates) => {
		expect(BucketClock.learn(unit as PeriodUnit, dates)).toBeUndefined();
	});
});

describe('BucketClock floor and next in fixed offsets', () => {
	test('day in +03:00: periods start at 21:00 UTC', () => {
		const clock = clockOf('day', '2026-11-01T00:00:00+03:00');
		expect(clock.floor(at('2026-11-01T22:30:00Z'))).toBe(at('2026-11-01T21:00:00Z'));
		expect(clock.floor(at('2026-11-01T20:59:59.999Z'))).toBe(at('2026-10-31T21:00:00Z'));
		expect(clock.floor(at('2026-11-01T21:00:00Z'))).toBe(at('2026-11-01T21:00:00Z'));
		expect(clock.next(at('2026-11-01T21:00:00Z'))).toBe(at('2026-11-02T21:00:00Z'));
	});

	test('hour in +05:45: periods start at a quarter past in UTC', () => {
		const clock = clockOf('hour', '2026-11-01T10:00:00+05:45');
		expect(clock.floor(at('2026-11-01T05:00:00Z'))).toBe(at('2026-11-01T04:15:00Z'));
		expect(clock.next(at('2026-11-01T04:15:00Z'))).toBe(at('2026-11-01T05:15:00Z'));
	});

	test('30 and 5 minutes in -03:30', () => {
		const half = clockOf('30_minutes', '2026-11-01T10:30:00-03:30');
		expect(half.floor(at('2026-11-01T14:10:00Z'))).toBe(at('2026-11-01T14:00:00Z'));
		expect(half.next(at('2026-11-01T14:00:00Z'))).toBe(at('2026-11-01T14:30:00Z'));
		const five = clockOf('5_minutes', '2026-11-01T10:35:00-03:30');
		expect(five.floor(at('2026-11-01T14:09:59.999Z'))).toBe(at('2026-11-01T14:05:00Z'));
	});

	test('instants before 1970 floor to the period start too', () => {
		const clock = clockOf('day', '2026-11-01T00:00:00+03:00');
		expect(clock.floor(at('1969-12-31T12:00:00Z'))).toBe(at('1969-12-31T00:00:00+03:00'));
	});

	test('week: anchored at the week start the API reported, whichever weekday', () => {
		const monday = clockOf('week', '2026-11-02T00:00:00+03:00');
		expect(monday.floor(at('2026-11-12T12:00:00Z'))).toBe(at('2026-11-09T00:00:00+03:00'));
		expect(monday.floor(at('2026-10-30T00:00:00Z'))).toBe(at('2026-10-26T00:00:00+03:00'));
		expect(monday.next(at('2026-11-09T00:00:00+03:00'))).toBe(at('2026-11-16T00:00:00+03:00'));
		const sunday = clockOf('week', '2026-11-01T00:00:00Z', '2026-11-15T00:00:00Z');
		expect(sunday.floor(at('2026-11-11T08:00:00Z'))).toBe(at('2026-11-08T00:00:00Z'));
	});

	test("month in +03:00: calendar months of the API's wall clock, across the year end", () => {
		const clock = clockOf('month', '2026-11-01T00:00:00+03:00');
		expect(clock.floor(at('2026-11-30T21:30:00Z'))).toBe(at('2026-12-01T00:00:00+03:00'));
		expect(clock.floor(at('2026-11-30T20:30:00Z'))).toBe(at('2026-11-01T00:00:00+03:00'));
		expect(clock.next(at('2026-12-01T00:00:00+03:00'))).toBe(at('2027-01-01T00:00:00+03:00'));
		const february = clock.next(at('2028-01-01T00:00:00+03:00'));
		expect(clock.next(february) - february).toBe(29 * DAY);
	});

	test('year in -05:00', () => {
		const clock = clockOf('year', '2026-01-01T00:00:00-05:00');
		expect(clock.floor(at('2027-01-01T04:00:00Z'))).toBe(at('2026-01-01T00:00:00-05:00'));
		expect(clock.floor(at('2027-01-01T05:00:00Z'))).toBe(at('2027-01-01T00:00:00-05:00'));
		expect(clock.next(at('2027-01-01T00:00:00-05:00'))).toBe(at('2028-01-01T00:00:00-05:00'));
	});

	test.each([
		['5_minutes', '2026-11-01T10:35:00+05:30'],
		['30_minutes', '2026-11-01T10:30:00+05:30'],
		['hour', '2026-11-01T10:00:00-09:30'],
		['day', '2026-11-01T00:00:00+14:00'],
		['week', '2026-11-04T00:00:00-11:00'],
		['month', '2026-11-01T00:00:00+05:45'],
		['year', '2026-01-01T00:00:00-03:00'],
	])(
		'%s in the offset of %s: next is the start of the period after, floor finds each start',
		(unit, date) => {
			const clock = clockOf(unit as PeriodUnit, date);
			let start = at(date);
			for (let i = 0; i < 40; i++) {
				const after = clock.next(start);
				expect(after).toBeGreaterThan(start);
				expect(clock.floor(after)).toBe(after);
				expect(clock.floor(after - 1)).toBe(start);
				expect(clock.floor(start + (after - start) / 2)).toBe(start);
				// Each start is written back as the API writes it: the same offset, at midnight for long units.
				expect(readPeriodDate(clock.format(after))).toEqual({
					ms: after,
					offsetMinutes: clock.offsetMs / 60_000,
				});
				start = after;
			}
		},
	);
});

describe('BucketClock.format', () => {
	test("writes an instant in the API's own offset", () => {
		expect(clockOf('day', '2026-11-01T00:00:00Z').format(at('2026-11-01T00:00:00Z'))).toBe(
			'2026-11-01T00:00:00.000Z',
		);
		expect(clockOf('day', '2026-11-01T00:00:00+03:00').format(at('2026-11-01T20:59:59.999Z'))).toBe(
			'2026-11-01T23:59:59.999+03:00',
		);
		expect(clockOf('hour', '2026-11-01T10:00:00-05:30').format(at('2026-11-01T15:30:00Z'))).toBe(
			'2026-11-01T10:00:00.000-05:30',
		);
	});
});
