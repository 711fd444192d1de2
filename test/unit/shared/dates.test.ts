import { lastDaysRange, presetRange } from '../../../nodes/shared/dates';

const at = (iso: string) => new Date(iso);

describe("Last N Days in the workflow's timezone", () => {
	test("New York, 23:30 local (04:30 UTC the next day): the days are New York's, today included or not", () => {
		const now = at('2026-11-20T04:30:00Z');
		expect(lastDaysRange(3, true, now, 'America/New_York')).toEqual({
			from: '2026-11-17T00:00:00-05:00',
			to: '2026-11-19T23:59:59-05:00',
		});
		expect(lastDaysRange(3, false, now, 'America/New_York')).toEqual({
			from: '2026-11-16T00:00:00-05:00',
			to: '2026-11-18T23:59:59-05:00',
		});
	});

	test('one second later in local time the window moves by a whole day', () => {
		expect(lastDaysRange(3, true, at('2026-11-20T04:59:59Z'), 'America/New_York').to).toBe(
			'2026-11-19T23:59:59-05:00',
		);
		expect(lastDaysRange(3, true, at('2026-11-20T05:00:00Z'), 'America/New_York')).toEqual({
			from: '2026-11-18T00:00:00-05:00',
			to: '2026-11-20T23:59:59-05:00',
		});
	});

	test('a half-hour offset (Kolkata): the local midnight decides, not the UTC one', () => {
		expect(lastDaysRange(2, true, at('2026-11-19T18:29:59Z'), 'Asia/Kolkata')).toEqual({
			from: '2026-11-18T00:00:00+05:30',
			to: '2026-11-19T23:59:59+05:30',
		});
		expect(lastDaysRange(2, true, at('2026-11-19T18:30:00Z'), 'Asia/Kolkata')).toEqual({
			from: '2026-11-19T00:00:00+05:30',
			to: '2026-11-20T23:59:59+05:30',
		});
	});

	test('across a daylight-saving change each day keeps its own offset (Berlin, 29 March)', () => {
		expect(lastDaysRange(2, true, at('2026-03-30T10:00:00Z'), 'Europe/Berlin')).toEqual({
			from: '2026-03-29T00:00:00+01:00',
			to: '2026-03-30T23:59:59+02:00',
		});
		expect(lastDaysRange(3, false, at('2026-10-26T12:00:00Z'), 'Europe/Berlin')).toEqual({
			from: '2026-10-23T00:00:00+02:00',
			to: '2026-10-25T23:59:59+01:00',
		});
	});

	test('across a month and a year end; one day is today or yesterday, like those presets', () => {
		expect(lastDaysRange(3, false, at('2027-01-01T08:00:00Z'), 'Asia/Tokyo')).toEqual({
			from: '2026-12-29T00:00:00+09:00',
			to: '2026-12-31T23:59:59+09:00',
		});
		const now = at('2026-11-20T04:30:00Z');
		expect(lastDaysRange(1, true, now, 'America/New_York')).toEqual(
			presetRange('today', now, 'America/New_York'),
		);
		expect(lastDaysRange(1, false, now, 'America/New_York')).toEqual(
			presetRange('yesterday', now, 'America/New_York'),
		);
		expect(presetRange('last7Days', now, 'America/New_York')).toEqual({
			from: '2026-11-13T00:00:00-05:00',
			to: '2026-11-19T23:59:59-05:00',
		});
	});
});
