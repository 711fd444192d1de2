/**
 * Dates for request bodies. Parameters arrive as ISO strings from the date picker, as Luxon
 * DateTime or Date objects from expressions, or as typed text; all become ISO 8601 with an offset,
 * interpreted in the workflow's timezone when the text has none.
 */

const DAY_MS = 86_400_000;

function offsetMinutes(timeZone: string, at: Date): number {
	const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
		.formatToParts(at)
		.find((part) => part.type === 'timeZoneName')?.value;
	const match = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name ?? '');
	if (!match) return 0;
	const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
	return match[1] === '-' ? -minutes : minutes;
}

function formatOffset(minutes: number): string {
	const sign = minutes < 0 ? '-' : '+';
	const abs = Math.abs(minutes);
	return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Wall-clock fields of an instant in a timezone. */
function wallClock(at: Date, timeZone: string) {
	const parts = new Intl.DateTimeFormat('en-CA', {
		timeZone,
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
	}).formatToParts(at);
	const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
	return { year: get('year'), month: get('month'), day: get('day') };
}

/** An instant for a wall-clock time in a timezone, as ISO 8601 with that zone's offset. */
export function zonedIso(
	year: number,
	month: number,
	day: number,
	timeZone: string,
	time = '00:00:00',
): string {
	const [h, m, s] = time.split(':').map(Number);
	const guess = new Date(Date.UTC(year, month - 1, day, h, m, s));
	const offset = offsetMinutes(
		timeZone,
		new Date(guess.getTime() - offsetMinutes(timeZone, guess) * 60_000),
	);
	const date = new Date(Date.UTC(year, month - 1, day));
	const ymd = date.toISOString().slice(0, 10);
	return `${ymd}T${time}${formatOffset(offset)}`;
}

export interface Instant {
	iso: string;
	ms: number;
}

const NO_OFFSET = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/;

/** Reads a date parameter; undefined when it cannot be read as a date. */
export function readDate(value: unknown, timeZone: string): Instant | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	if (value instanceof Date) {
		return Number.isNaN(value.getTime())
			? undefined
			: { iso: value.toISOString(), ms: value.getTime() };
	}
	if (typeof value === 'object' && typeof (value as { toISO?: unknown }).toISO === 'function') {
		const iso = (value as { toISO: () => string | null }).toISO();
		return iso ? readDate(iso, timeZone) : undefined;
	}
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (NO_OFFSET.test(text)) {
		const [datePart, timePart = '00:00:00'] = text.split('T');
		const [y, mo, d] = datePart.split('-').map(Number);
		const time = timePart.length === 5 ? `${timePart}:00` : timePart.slice(0, 8);
		const check = new Date(Date.UTC(y, mo - 1, d));
		if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return undefined;
		const iso = zonedIso(y, mo, d, timeZone, time);
		const ms = Date.parse(iso);
		return Number.isNaN(ms) ? undefined : { iso, ms };
	}
	const ms = Date.parse(text);
	if (Number.isNaN(ms) || !/^\d{4}-\d{2}-\d{2}/.test(text)) return undefined;
	return { iso: text, ms };
}

export type PeriodPreset =
	'today' | 'yesterday' | 'last7Days' | 'last30Days' | 'thisMonth' | 'lastMonth';

interface CalendarDay {
	year: number;
	month: number;
	day: number;
}

/** Today in the timezone, and the calendar days around it. */
function calendar(now: Date, timeZone: string) {
	const today = wallClock(now, timeZone);
	return {
		today,
		/** The calendar day `days` before today. */
		before: (days: number): CalendarDay =>
			wallClock(new Date(Date.UTC(today.year, today.month - 1, today.day) - days * DAY_MS), 'UTC'),
		start: (d: CalendarDay) => zonedIso(d.year, d.month, d.day, timeZone),
		end: (d: CalendarDay) => zonedIso(d.year, d.month, d.day, timeZone, '23:59:59'),
	};
}

/**
 * "Last N Days": N whole calendar days in the workflow's timezone, ending with today (Include
 * Today) or with yesterday. Each day runs from midnight to 23:59:59 on the local clock, so a day
 * with a daylight-saving change is 23 or 25 hours long.
 */
export function lastDaysRange(
	days: number,
	includeToday: boolean,
	now: Date,
	timeZone: string,
): { from: string; to: string } {
	const { before, start, end } = calendar(now, timeZone);
	const last = includeToday ? 0 : 1;
	return { from: start(before(last + days - 1)), to: end(before(last)) };
}

/** The first and last instant of a preset period, in the workflow's timezone. */
export function presetRange(
	preset: PeriodPreset,
	now: Date,
	timeZone: string,
): { from: string; to: string } {
	const { today, before: dayShift, start, end } = calendar(now, timeZone);
	switch (preset) {
		case 'today':
			return { from: start(today), to: end(today) };
		case 'yesterday':
			return { from: start(dayShift(1)), to: end(dayShift(1)) };
		case 'last7Days':
			return lastDaysRange(7, true, now, timeZone);
		case 'last30Days':
			return lastDaysRange(30, true, now, timeZone);
		case 'thisMonth':
			return { from: start({ ...today, day: 1 }), to: end(today) };
		case 'lastMonth': {
			const firstOfThis = Date.UTC(today.year, today.month - 1, 1);
			const lastOfPrev = wallClock(new Date(firstOfThis - DAY_MS), 'UTC');
			return { from: start({ ...lastOfPrev, day: 1 }), to: end(lastOfPrev) };
		}
	}
}
