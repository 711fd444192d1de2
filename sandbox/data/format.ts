/** Local bindings: global lookups are slow inside vm contexts (jest), and these run per slot. */
const { round } = Math;

function pad(value: number, width = 2): string {
	return String(value).padStart(width, '0');
}

/** Integer hundredths as a decimal string with two places: 1234 -> "12.34". */
export function formatMinor(minor: number): string {
	const rounded = round(minor);
	const abs = rounded < 0 ? -rounded : rounded;
	const cents = abs % 100;
	return `${rounded < 0 ? '-' : ''}${(abs - cents) / 100}${cents < 10 ? '.0' : '.'}${cents}`;
}

export function round2(value: number): number {
	return round(value * 100) / 100;
}

/** The same ratio as a number, for the legacy report and the ad list. */
export function ratioNumber(numerator: number, denominator: number, scale = 1): number {
	return denominator === 0 ? 0 : round2((numerator / denominator) * scale);
}

/** ISO 8601 with an explicit offset: 2026-03-01T10:15:00+00:00. */
export function isoWithOffset(ms: number): string {
	return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** `DD.MM.YYYY HH:MM:SS` in UTC (the ad list's created_dt). */
export function dottedDateTime(ms: number): string {
	const d = new Date(ms);
	return (
		`${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ` +
		`${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
	);
}

/** `YYYY-MM-DD` in UTC. */
export function isoDate(ms: number): string {
	return new Date(ms).toISOString().slice(0, 10);
}
