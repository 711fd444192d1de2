import { bucketZone, UTC_ZONE } from '../../sandbox/metrics/time';
import { useSandbox } from '../support/useSandbox';

type Row = { period_date: string; views: number };

/** The bucket time zone: where the statistics endpoint's days (weeks, months, hours) start. */
describe('statistics periods in another time zone', () => {
	const sandbox = useSandbox({ platform: 'ext', adCount: 200, now: '2026-11-20T12:00:00Z' });
	afterEach(() => {
		sandbox().data.bucketZone = UTC_ZONE;
	});

	const rows = (unit: string, from: string, to: string) =>
		sandbox().data.statsRows({
			period_from: from,
			period_to: to,
			period_grouping_unit: unit,
		}) as Row[];
	const views = (list: Row[]) => list.reduce((sum, row) => sum + row.views, 0);

	test('+03:00: days start at 00:00+03:00 and say so; the same data is only cut elsewhere', async () => {
		const from = '2026-10-31T21:00:00Z';
		const to = '2026-11-10T20:59:59Z';
		const utc = rows('day', from, to);
		sandbox().data.bucketZone = bucketZone('+03:00');
		const local = rows('day', from, to);
		expect(local.map((row) => row.period_date)).toEqual(
			Array.from(
				{ length: 10 },
				(_v, i) => `2026-11-${String(i + 1).padStart(2, '0')}T00:00:00+03:00`,
			),
		);
		expect(utc.map((row) => row.period_date)[0]).toBe('2026-10-31T00:00:00Z');
		expect(views(local)).toBe(views(utc));
		expect(local.map((row) => row.views)).not.toEqual(utc.slice(1).map((row) => row.views));
	});

	test('Europe/Berlin: the offset follows daylight saving, and the day it ends has 25 hours', async () => {
		sandbox().data.bucketZone = bucketZone('Europe/Berlin');
		const days = rows('day', '2026-10-24T00:00:00+02:00', '2026-10-26T23:59:59+01:00');
		expect(days.map((row) => row.period_date)).toEqual([
			'2026-10-24T00:00:00+02:00',
			'2026-10-25T00:00:00+02:00',
			'2026-10-26T00:00:00+01:00',
		]);
		const hours = rows('hour', '2026-10-25T00:00:00+02:00', '2026-10-25T23:59:59+01:00');
		expect(hours).toHaveLength(25);
		expect(views(hours)).toBe(views([days[1]]));
	});

	test('an unknown zone is refused with the accepted forms', () => {
		expect(() => bucketZone('Mars/Olympus')).toThrow(
			/UTC, an offset such as \+03:00, or an IANA name/,
		);
		expect(() => bucketZone('+25:00')).toThrow(/out of range/);
	});
});
