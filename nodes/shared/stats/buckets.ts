import type { PeriodUnit } from './apiValues';

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;
const STEP_MS: Partial<Record<PeriodUnit, number>> = {
	'5_minutes': 5 * MINUTE,
	'30_minutes': 30 * MINUTE,
	hour: 60 * MINUTE,
	day: DAY,
	week: 7 * DAY,
};

/** A period_date with an explicit offset (Z or ±HH:MM); anything else gives no clock. */
const WITH_OFFSET =
	/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

interface PeriodDate {
	ms: number;
	offsetMinutes: number;
}

/** Reads a period_date the API wrote (ISO 8601); undefined without an explicit offset. */
export function readPeriodDate(value: unknown): PeriodDate | undefined {
	if (typeof value !== 'string') return undefined;
	const match = WITH_OFFSET.exec(value);
	if (!match) return undefined;
	const ms = Date.parse(value);
	if (Number.isNaN(ms)) return undefined;
	const zone = match[7];
	let offsetMinutes = 0;
	if (zone !== 'Z') {
		const digits = zone.slice(1).replace(':', '');
		offsetMinutes =
			(Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * (zone[0] === '-' ? -1 : 1);
	}
	return { ms, offsetMinutes };
}

/**
 * Where the API's periods start, learned from the period_date values it returned: their offset
 * (a server whose days start at 00:00+03:00 writes them so) and, for weeks, one week's start.
 * Cuts made only at these instants never split one of its periods between two requests.
 */
export class BucketClock {
	private constructor(
		readonly unit: PeriodUnit,
		/** The offset every period_date seen was written in, in ms. */
		readonly offsetMs: number,
		/** One period start the API reported (every boundary is a whole number of steps from it). */
		private readonly anchorMs: number,
	) {}

	/**
	 * The clock of the given period dates, or undefined when they do not give one: a date without
	 * an offset, two different offsets, or a date that is not the start of a period of the unit in
	 * its own offset (a server labelling periods some other way).
	 */
	static learn(unit: PeriodUnit, periodDates: Iterable<unknown>): BucketClock | undefined {
		let offset: number | undefined;
		let clock: BucketClock | undefined;
		for (const value of periodDates) {
			const date = readPeriodDate(value);
			if (!date) return undefined;
			if (offset === undefined) offset = date.offsetMinutes;
			else if (offset !== date.offsetMinutes) return undefined;
			const candidate = clock ?? new BucketClock(unit, offset * MINUTE, date.ms);
			if (candidate.floor(date.ms) !== date.ms) return undefined;
			// A week starts at midnight too, whichever weekday the API begins it on.
			if (unit === 'week' && (((date.ms + offset * MINUTE) % DAY) + DAY) % DAY !== 0)
				return undefined;
			clock = candidate;
		}
		return clock;
	}

	/** The wall clock of the API's offset, as a UTC date (for calendar units). */
	private wall(ms: number): Date {
		return new Date(ms + this.offsetMs);
	}

	/** The start of the period holding `ms`. */
	floor(ms: number): number {
		const step = STEP_MS[this.unit];
		if (this.unit === 'week') {
			const weeks = Math.floor((ms - this.anchorMs) / (step as number));
			return this.anchorMs + weeks * (step as number);
		}
		if (step !== undefined) {
			const local = ms + this.offsetMs;
			return local - (((local % step) + step) % step) - this.offsetMs;
		}
		const wall = this.wall(ms);
		const month = this.unit === 'month' ? wall.getUTCMonth() : 0;
		return Date.UTC(wall.getUTCFullYear(), month, 1) - this.offsetMs;
	}

	/** The start of the period after the one that starts at `start`. */
	next(start: number): number {
		const step = STEP_MS[this.unit];
		if (step !== undefined) return start + step;
		const wall = this.wall(start);
		const months = this.unit === 'month' ? 1 : 12;
		return Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth() + months, 1) - this.offsetMs;
	}

	/** An instant as ISO 8601 in the API's own offset, as it writes period_date. */
	format(ms: number): string {
		const text = this.wall(ms).toISOString().slice(0, 23);
		if (this.offsetMs === 0) return `${text}Z`;
		const minutes = Math.abs(this.offsetMs / MINUTE);
		const sign = this.offsetMs < 0 ? '-' : '+';
		return `${text}${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
	}
}
