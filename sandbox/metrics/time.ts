/** Local bindings: global lookups are slow inside vm contexts (jest), and these run per slot. */
const { floor } = Math;

/** Resolution of the underlying statistics. */
export const SLOT_MS = 5 * 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
export const SLOTS_PER_HOUR = 12;
export const SLOTS_PER_DAY = 288;

export type PeriodUnit = 'day' | 'week' | 'month' | 'year' | 'hour' | '30_minutes' | '5_minutes';

export const PERIOD_UNITS: readonly PeriodUnit[] = [
	'day',
	'week',
	'month',
	'year',
	'hour',
	'30_minutes',
	'5_minutes',
];

export const SUB_DAY_UNITS: readonly PeriodUnit[] = ['hour', '30_minutes', '5_minutes'];

export function isPeriodUnit(value: unknown): value is PeriodUnit {
	return typeof value === 'string' && (PERIOD_UNITS as readonly string[]).includes(value);
}

function floorTo(ms: number, step: number): number {
	return floor(ms / step) * step;
}

/** Start (UTC) of the period of `unit` that contains `ms`. Weeks are ISO weeks starting Monday. */
function periodStart(unit: PeriodUnit, ms: number): number {
	switch (unit) {
		case '5_minutes':
			return floorTo(ms, SLOT_MS);
		case '30_minutes':
			return floorTo(ms, 30 * 60_000);
		case 'hour':
			return floorTo(ms, HOUR_MS);
		case 'day':
			return floorTo(ms, DAY_MS);
		case 'week': {
			const day = floorTo(ms, DAY_MS);
			const mondayBased = (new Date(day).getUTCDay() + 6) % 7;
			return day - mondayBased * DAY_MS;
		}
		case 'month': {
			const d = new Date(ms);
			return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
		}
		case 'year':
			return Date.UTC(new Date(ms).getUTCFullYear(), 0, 1);
	}
}

/** Start of the period following the one that starts at `start`. */
function periodEnd(unit: PeriodUnit, start: number): number {
	switch (unit) {
		case '5_minutes':
			return start + SLOT_MS;
		case '30_minutes':
			return start + 30 * 60_000;
		case 'hour':
			return start + HOUR_MS;
		case 'day':
			return start + DAY_MS;
		case 'week':
			return start + 7 * DAY_MS;
		case 'month': {
			const d = new Date(start);
			return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
		}
		case 'year':
			return Date.UTC(new Date(start).getUTCFullYear() + 1, 0, 1);
	}
}

/**
 * The clock the statistics endpoint cuts its periods by: days, weeks, months and years start at
 * local midnight in this zone, and period_date is written with its offset. A fixed offset
 * ("+03:00") or an IANA name ("Europe/Berlin", with its daylight-saving changes); UTC by default.
 */
export interface BucketZone {
	readonly name: string;
	/** The zone's offset from UTC at an instant, in ms. */
	offsetMs(ms: number): number;
}

export const UTC_ZONE: BucketZone = { name: 'UTC', offsetMs: () => 0 };

const FIXED_OFFSET = /^([+-])(\d{2}):(\d{2})$/;

/** The zone of a setting; throws with the accepted forms when it is neither an offset nor a known IANA name. */
export function bucketZone(name: string): BucketZone {
	if (name === 'UTC' || name === 'Z' || name === '+00:00') return UTC_ZONE;
	const fixed = FIXED_OFFSET.exec(name);
	if (fixed) {
		const minutes = Number(fixed[2]) * 60 + Number(fixed[3]);
		if (Number(fixed[2]) > 14 || Number(fixed[3]) > 59)
			throw new Error(`bucket time zone offset out of range: ${name}`);
		const offset = (fixed[1] === '-' ? -minutes : minutes) * 60_000;
		return { name, offsetMs: () => offset };
	}
	let format: Intl.DateTimeFormat;
	try {
		format = new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'longOffset' });
	} catch {
		throw new Error(
			`bucket time zone must be UTC, an offset such as +03:00, or an IANA name such as Europe/Berlin; got ${JSON.stringify(name)}`,
		);
	}
	// Offsets change on whole quarter hours at most: one lookup per quarter hour, remembered.
	const cache = new Map<number, number>();
	return {
		name,
		offsetMs(ms: number): number {
			const key = floor(ms / (15 * 60_000));
			let offset = cache.get(key);
			if (offset === undefined) {
				const text =
					format.formatToParts(new Date(key * 15 * 60_000)).find((p) => p.type === 'timeZoneName')
						?.value ?? 'GMT';
				const m = /GMT([+-])(\d{2}):?(\d{2})?/.exec(text);
				offset = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0)) * 60_000 : 0;
				cache.set(key, offset);
			}
			return offset;
		},
	};
}

/** The UTC instant of a local wall-clock time in a zone (the earlier one when it occurs twice). */
function fromLocal(zone: BucketZone, local: number): number {
	const guess = local - zone.offsetMs(local);
	return local - zone.offsetMs(guess);
}

/**
 * periodStart in a zone: days, weeks, months and years start at local midnight; hours and minute
 * periods on the local clock at the instant's own offset (so the hour repeated when daylight
 * saving ends is two periods, as it is two hours).
 */
export function zonedPeriodStart(unit: PeriodUnit, ms: number, zone: BucketZone): number {
	if (zone === UTC_ZONE) return periodStart(unit, ms);
	const offset = zone.offsetMs(ms);
	if (SUB_DAY_UNITS.includes(unit)) return periodStart(unit, ms + offset) - offset;
	return fromLocal(zone, periodStart(unit, ms + offset));
}

/** periodEnd in a zone. */
export function zonedPeriodEnd(unit: PeriodUnit, start: number, zone: BucketZone): number {
	if (zone === UTC_ZONE || SUB_DAY_UNITS.includes(unit)) return periodEnd(unit, start);
	return fromLocal(zone, periodEnd(unit, start + zone.offsetMs(start)));
}

/** An instant as ISO 8601 in the zone's offset at that instant, seconds precision ("Z" for UTC). */
export function zonedIso(ms: number, zone: BucketZone): string {
	const offset = zone.offsetMs(ms);
	const wall = new Date(ms + offset).toISOString().slice(0, 19);
	if (zone === UTC_ZONE) return `${wall}Z`;
	const minutes = Math.abs(offset / 60_000);
	const sign = offset < 0 ? '-' : '+';
	return `${wall}${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
