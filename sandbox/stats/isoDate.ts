const ISO_PATTERN =
	/^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export interface ParsedDate {
	ms: number;
	/** A bare date (no time part): as an upper bound it stands for the whole day. */
	dateOnly: boolean;
}

/** Parses ISO 8601 dates and date-times; a date-time without an offset is UTC. */
export function parseIsoDate(value: unknown): ParsedDate | null {
	if (typeof value !== 'string') return null;
	const m = ISO_PATTERN.exec(value.trim());
	if (!m) return null;
	const [, y, mo, d, h, mi, s, frac, offset] = m;
	const year = Number(y);
	const month = Number(mo);
	const day = Number(d);
	const hour = h === undefined ? 0 : Number(h);
	const minute = mi === undefined ? 0 : Number(mi);
	const second = s === undefined ? 0 : Number(s);
	if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
	let ms = Date.UTC(year, month - 1, day, hour, minute, second);
	if (new Date(ms).getUTCDate() !== day) return null;
	if (frac !== undefined) ms += Math.floor(Number(`0.${frac}`) * 1000);
	if (offset !== undefined && offset !== 'Z') {
		const sign = offset.startsWith('-') ? -1 : 1;
		const digits = offset.slice(1).replace(':', '');
		const offsetHours = Number(digits.slice(0, 2));
		const offsetMinutes = Number(digits.slice(2));
		if (offsetHours > 23 || offsetMinutes > 59) return null;
		ms -= sign * (offsetHours * 60 + offsetMinutes) * 60_000;
	}
	return { ms, dateOnly: h === undefined };
}
