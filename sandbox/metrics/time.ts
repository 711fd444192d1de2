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
export function periodStart(unit: PeriodUnit, ms: number): number {
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
export function periodEnd(unit: PeriodUnit, start: number): number {
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
