import type { Platform } from '../platform';

/**
 * `schedule_timezone` of ad create, detail and edit. Ads store it in hours. The spec shows a
 * number without a unit (its samples are hours); the real service documents seconds ("hours
 * converted to seconds": 10800 for UTC+03:00).
 */
export const TIMEZONE_RULES: Readonly<
	Record<Platform, { min: number; max: number; step: number; rule: string }>
> = {
	// The spec form keeps the sandbox's earlier reading: an offset in hours from -12 to 14.
	ext: { min: -12, max: 14, step: 0, rule: 'must be a UTC offset in hours from -12 to 14' },
	// The same range in seconds, in steps of 15 minutes (offsets such as +05:45 exist).
	telegram: {
		min: -43_200,
		max: 50_400,
		step: 900,
		rule: 'must be a UTC offset in seconds, a multiple of 900 from -43200 (UTC-12:00) to 50400 (UTC+14:00), such as 10800 for UTC+03:00',
	},
};

/** The rule a sent value breaks, or null. */
export function timezoneViolation(platform: Platform, value: number): string | null {
	const { min, max, step, rule } = TIMEZONE_RULES[platform];
	const fits = value >= min && value <= max && (step === 0 || Number.isInteger(value / step));
	return fits ? null : `${rule}, got ${value}`;
}

/** A sent value as stored (hours). */
export function timezoneFromRequest(platform: Platform, value: number | null): number | null {
	if (value === null) return null;
	return platform === 'telegram' ? value / 3600 : value;
}

/** A stored value (hours) as served. */
export function timezoneAsServed(platform: Platform, hours: number | null): number | null {
	if (hours === null) return null;
	return platform === 'telegram' ? Math.round(hours * 3600) : hours;
}
