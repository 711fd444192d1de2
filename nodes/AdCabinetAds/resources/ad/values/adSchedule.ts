import type { IDataObject, NodeOperationError } from 'n8n-workflow';
import { WEEKDAYS, type Weekday } from '../fields/adFields';

export type Schedule = Record<Weekday, number[]>;

/** Makes the refusal for a broken schedule rule (docs/api-rules.md#schedule); the caller knows which field was used. */
type Refuse = (rule: string) => NodeOperationError;

const RULE = 'hours must be whole numbers from 0 to 23';

function isWeekday(value: unknown): value is Weekday {
	return typeof value === 'string' && (WEEKDAYS as readonly string[]).includes(value);
}

/** Hours as a list, or text such as "9-18, 20" from an expression; each must be an integer 0–23. */
function readHours(value: unknown, day: string, refuse: Refuse): number[] {
	const tokens: unknown[] = Array.isArray(value)
		? value
		: typeof value === 'number'
			? [value]
			: typeof value === 'string'
				? value.split(/[,\s]+/).filter((token) => token !== '')
				: [value];
	const hours = new Set<number>();
	for (const token of tokens) {
		const range = typeof token === 'string' ? /^(\d{1,2})-(\d{1,2})$/.exec(token.trim()) : null;
		const [from, to] = range
			? [Number(range[1]), Number(range[2])]
			: [Number(token), Number(token)];
		const valid = (h: number) => Number.isInteger(h) && h >= 0 && h <= 23;
		if (
			token === null ||
			token === '' ||
			typeof token === 'boolean' ||
			!valid(from) ||
			!valid(to) ||
			from > to
		) {
			throw refuse(`${day}: ${RULE}, got ${JSON.stringify(token)}`);
		}
		for (let h = from; h <= to; h++) hours.add(h);
	}
	return [...hours].sort((a, b) => a - b);
}

function emptySchedule(): Schedule {
	return Object.fromEntries(WEEKDAYS.map((day) => [day, [] as number[]])) as unknown as Schedule;
}

/**
 * The day-by-day editor (`{ days: [{ day, hours }] }`) as the API's schedule object: all seven keys, the
 * days not listed with no hours. A day listed twice gets the hours of both entries.
 */
export function scheduleFromDays(value: unknown, refuse: Refuse): Schedule {
	const entries = (value as { days?: unknown } | undefined)?.days;
	const list = Array.isArray(entries) ? (entries as IDataObject[]) : [];
	if (list.length === 0) throw refuse('add at least one day');
	const schedule = emptySchedule();
	for (const entry of list) {
		if (!isWeekday(entry.day)) {
			throw refuse(`day must be one of ${WEEKDAYS.join(', ')}, got ${JSON.stringify(entry.day)}`);
		}
		const hours = new Set([
			...schedule[entry.day],
			...readHours(entry.hours ?? [], entry.day, refuse),
		]);
		schedule[entry.day] = [...hours].sort((a, b) => a - b);
	}
	return schedule;
}

/**
 * The JSON alternative: an object keyed mon…sun, as text or an object from an expression.
 * Returns null for `null` (allowed on edit only; the caller decides). Days left out get no hours.
 */
export function scheduleFromJson(value: unknown, refuse: Refuse): Schedule | null {
	let parsed = value;
	if (typeof value === 'string') {
		try {
			parsed = JSON.parse(value) as unknown;
		} catch {
			throw refuse('is not valid JSON');
		}
	}
	if (parsed === null) return null;
	if (typeof parsed !== 'object' || Array.isArray(parsed)) {
		throw refuse('must be an object with the keys mon, tue, wed, thu, fri, sat, sun');
	}
	const schedule = emptySchedule();
	for (const [day, hours] of Object.entries(parsed as IDataObject)) {
		if (!isWeekday(day)) {
			throw refuse(`unknown day key "${day}"; the keys are ${WEEKDAYS.join(', ')}`);
		}
		if (!Array.isArray(hours)) throw refuse(`${day}: must be an array of hours`);
		schedule[day] = readHours(hours, day, refuse);
	}
	return schedule;
}
