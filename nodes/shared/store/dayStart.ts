import { sleep } from 'n8n-workflow';
import type { SharedRecords } from './records';

/**
 * The value an ad's CPM or daily budget had at the start of its current day, for Max Change % per
 * Day, kept in the shared records so that it holds across executions and queue-mode workers.
 *
 * A day opens with the first change of the field and lasts until the end of the 25th whole hour
 * after the hour it opened in: at least 24 hours after that change, at most 25. Its start value is
 * the value the API showed right before that change. Once it has ended, the next change opens a new
 * day from the value the API shows then.
 *
 * The records keep only "was this text recorded", so the start value is kept as texts that name
 * it: one text saying the day opened in hour h, and for each of 48 bits of the value (in units of
 * 0.0001) one text naming that bit's value. Reading tests both texts of each bit; testing records
 * the one that was not there, so the reader takes those out again right away. Another run reading
 * in those few milliseconds sees both texts of a bit, knows the record is being read, and reads
 * again a moment later.
 */

const HOUR_MS = 3_600_000;

/** A day ends this many whole hours after the start of the hour it opened in. */
const DAY_HOURS = 25;

/** The start value is kept to 4 decimals (the API's money has 2). */
const SCALE = 10_000;
const BITS = 48;

/** How often a read that met another run's read tries again, and how long it waits between. */
const BUSY_TRIES = 4;
const BUSY_WAIT_MS = 250;

interface DayStart {
	/** The value at the day's start. */
	value: number;
	/** When the day ends (ms since the epoch). */
	endsAt: number;
}

/** Another run was reading this record at the same time, each time it was read. */
export class DayRecordBusy extends Error {}

/** Part of the record is missing: it was cut short (two runs wrote the row at once). */
export class DayRecordDamaged extends Error {}

const prefix = (adId: string, field: string) => `adCabinet day|${adId}|${field}`;
const opened = (adId: string, field: string, hour: number) =>
	`${prefix(adId, field)}|opened in hour ${hour}`;
const bit = (adId: string, field: string, hour: number, index: number, value: 0 | 1) =>
	`${prefix(adId, field)}|hour ${hour}|bit ${index} is ${value}`;

function bitTexts(adId: string, field: string, hour: number): string[] {
	const texts: string[] = [];
	for (let i = 0; i < BITS; i++)
		texts.push(bit(adId, field, hour, i, 0), bit(adId, field, hour, i, 1));
	return texts;
}

type Decoded = { value: number } | 'none' | 'busy' | 'damaged';

function decode(adId: string, field: string, hour: number, found: Set<string>): Decoded {
	let units = 0;
	let missing = 0;
	for (let i = BITS - 1; i >= 0; i--) {
		const zero = found.has(bit(adId, field, hour, i, 0));
		const one = found.has(bit(adId, field, hour, i, 1));
		if (zero && one) return 'busy';
		if (!zero && !one) missing++;
		units = units * 2 + (one ? 1 : 0);
	}
	if (missing === BITS) return 'none';
	if (missing > 0) return 'damaged';
	return { value: units / SCALE };
}

/** The start of the ad's current day for this field, or undefined when no day is open. */
export async function readDayStart(
	records: SharedRecords,
	adId: string,
	field: string,
	now: number,
): Promise<DayStart | undefined> {
	const current = Math.floor(now / HOUR_MS);
	// The hours a day still open may have opened in, and before them as many hours whose days have
	// ended: those are never read again, and their texts are taken out so that the row all of this
	// node's executions read and write does not grow with every day of an hourly rule.
	const hours: number[] = [];
	const ended: number[] = [];
	for (let hour = current - 2 * DAY_HOURS + 1; hour <= current; hour++)
		(hour > current - DAY_HOURS ? hours : ended).push(hour);
	const markers = [...ended, ...hours].map((hour) => opened(adId, field, hour));
	const present = await records.testAndRecord(markers);
	try {
		const over = ended.filter((hour) => present.has(opened(adId, field, hour)));
		if (over.length > 0)
			await records.forget(
				over.flatMap((hour) => [opened(adId, field, hour), ...bitTexts(adId, field, hour)]),
			);
		// Days never overlap but two runs opening one at once: the earliest open day counts.
		const open = hours.filter((hour) => present.has(opened(adId, field, hour)));
		if (open.length === 0) return undefined;
		const texts = open.flatMap((hour) => bitTexts(adId, field, hour));
		for (let attempt = 1; ; attempt++) {
			const found = await records.testAndRecord(texts);
			await records.forget(texts.filter((text) => !found.has(text)));
			let busy = false;
			for (const hour of open) {
				const decoded = decode(adId, field, hour, found);
				if (decoded === 'none') continue; // a mark another run made only to test it
				if (decoded === 'damaged') throw new DayRecordDamaged();
				if (decoded === 'busy') {
					busy = true;
					break;
				}
				return { value: decoded.value, endsAt: (hour + DAY_HOURS) * HOUR_MS };
			}
			if (!busy) return undefined;
			if (attempt >= BUSY_TRIES) throw new DayRecordBusy();
			await sleep(BUSY_WAIT_MS);
		}
	} finally {
		await records.forget(markers.filter((marker) => !present.has(marker)));
	}
}

/** Opens the ad's day for this field now, from its value right before the change. */
export async function openDay(
	records: SharedRecords,
	adId: string,
	field: string,
	value: number,
	now: number,
): Promise<DayStart> {
	const hour = Math.floor(now / HOUR_MS);
	const units = Math.round(value * SCALE);
	const texts: string[] = [];
	for (let i = 0; i < BITS; i++)
		texts.push(bit(adId, field, hour, i, Math.floor(units / 2 ** i) % 2 === 1 ? 1 : 0));
	// The value's texts first, then the mark that a reader looks for.
	await records.testAndRecord(texts);
	await records.testAndRecord([opened(adId, field, hour)]);
	return { value: units / SCALE, endsAt: (hour + DAY_HOURS) * HOUR_MS };
}
