import type { PeriodUnit } from '../shared/stats/apiValues';

const MINUTE = 60_000;
const FIXED_MS: Partial<Record<PeriodUnit, number>> = {
	'5_minutes': 5 * MINUTE,
	'30_minutes': 30 * MINUTE,
	hour: 60 * MINUTE,
	day: 1440 * MINUTE,
	week: 7 * 1440 * MINUTE,
};

/** The longest a period of this unit can be (month and year vary). */
export function maxPeriodMs(unit: PeriodUnit): number {
	if (unit === 'month') return 31 * 1440 * MINUTE;
	if (unit === 'year') return 366 * 1440 * MINUTE;
	return FIXED_MS[unit] as number;
}

function offsetOf(iso: string): number {
	const match = /([+-])(\d{2}):?(\d{2})$/.exec(iso);
	if (!match) return 0;
	const minutes = Number(match[2]) * 60 + Number(match[3]);
	return (match[1] === '-' ? -minutes : minutes) * MINUTE;
}

/**
 * When a row's period ends, from its `period_date` (the period's start, as the API writes it). Month and year
 * are calendar steps in the offset the API wrote the date with, so they follow its own boundaries.
 */
export function periodEndMs(periodDate: string, unit: PeriodUnit): number {
	const start = Date.parse(periodDate);
	const fixed = FIXED_MS[unit];
	if (fixed !== undefined) return start + fixed;
	const offset = offsetOf(periodDate);
	const wall = new Date(start + offset);
	const months = unit === 'month' ? 1 : 12;
	const next = Date.UTC(
		wall.getUTCFullYear(),
		wall.getUTCMonth() + months,
		wall.getUTCDate(),
		wall.getUTCHours(),
		wall.getUTCMinutes(),
	);
	return next - offset;
}
