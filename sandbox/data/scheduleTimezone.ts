import type { Platform } from '../platform';

/**
 * `schedule_timezone` of ad create, detail and edit. Ads store it in hours. The spec gives the field
 * no unit; the real service documents seconds ("hours converted to seconds": 10800 for UTC+03:00),
 * so both forms take and serve seconds.
 */
const RULE = {
	min: -43_200,
	max: 50_400,
	// Steps of 15 minutes: offsets such as +05:45 exist.
	step: 900,
	rule: 'must be a UTC offset in seconds, a multiple of 900 from -43200 (UTC-12:00) to 50400 (UTC+14:00), such as 10800 for UTC+03:00',
};

const TIMEZONE_RULES: Readonly<
	Record<Platform, { min: number; max: number; step: number; rule: string }>
> = { ext: RULE, telegram: RULE };

/** The rule a sent value breaks, or null. */
export function timezoneViolation(platform: Platform, value: number): string | null {
	const { min, max, step, rule } = TIMEZONE_RULES[platform];
	const fits = value >= min && value <= max && (step === 0 || Number.isInteger(value / step));
	return fits ? null : `${rule}, got ${value}`;
}

/** A sent value (seconds) as stored (hours). */
export function timezoneFromRequest(_platform: Platform, value: number | null): number | null {
	if (value === null) return null;
	return value / 3600;
}

/** A stored value (hours) as served (seconds). */
export function timezoneAsServed(_platform: Platform, hours: number | null): number | null {
	if (hours === null) return null;
	return Math.round(hours * 3600);
}
