import { realClock, type Clock } from './clock';
import { SETTLE_MS, Tidy, testOnly, type SharedRecords } from './records';

/**
 * The value an ad's CPM or daily budget had at the start of its current day, for Max Change % per
 * Day, kept in the shared records so that it holds across executions and queue-mode workers.
 *
 * A day opens with the first change of the field and lasts until the end of the 25th whole hour
 * after the hour it opened in: at least 24 hours after that change, at most 25. Its start value is
 * the value the API showed right before that change. Once it has ended, the next change opens a new
 * day from the value the API shows then.
 *
 * The records keep only "was this text recorded", so the start value is kept as texts that name it:
 * one text saying the day opened in hour h, and one text for each hexadecimal digit of the value (in
 * units of 0.0001; a CPM of 1.50 is 4 digits), all written in one call, so a reader finds all of
 * them or none. A reader tests every digit a position may hold; the test records the ones that were
 * not there, and they are taken out again at once (and kept out, see Tidy in records.ts).
 *
 * A position holding two digits means another run is reading at this moment, or two runs opened
 * the same day from different values. The reader tries again a moment later; when it still finds
 * two, every value the digits can spell is a start the day may have, and the bound holds for each
 * of them: the strictest range counts.
 */

const HOUR_MS = 3_600_000;

/** A day ends this many whole hours after the start of the hour it opened in. */
const DAY_HOURS = 25;

/** The start value is kept to 4 decimals (the API's money has 2). */
const SCALE = 10_000;
/** Hexadecimal digits at most: values up to 2^48 units. */
const DIGITS = 12;

/** How often a read that found two digits at a position tries again, and how long it waits between. */
const BUSY_TRIES = 3;
const BUSY_WAIT_MS = 250;

interface DayStart {
	/** The lowest and the highest start the day may have (equal unless two runs opened it at once). */
	low: number;
	high: number;
	/** When the day ends (ms since the epoch). */
	endsAt: number;
}

/** Part of the record is missing: it was cut short. */
export class DayRecordDamaged extends Error {}

const prefix = (adId: string, field: string) => `adCabinet day|${adId}|${field}`;
const opened = (adId: string, field: string, hour: number) =>
	`${prefix(adId, field)}|opened in hour ${hour}`;
const digit = (adId: string, field: string, hour: number, position: number, value: number) =>
	`${prefix(adId, field)}|hour ${hour}|digit ${position} is ${value.toString(16)}`;

function digitTexts(adId: string, field: string, hour: number): string[] {
	const texts: string[] = [];
	for (let position = 0; position < DIGITS; position++)
		for (let value = 0; value < 16; value++) texts.push(digit(adId, field, hour, position, value));
	return texts;
}

/** The texts of a day opened in `hour` from `value`. */
function dayTexts(adId: string, field: string, hour: number, value: number): string[] {
	let units = Math.round(value * SCALE);
	const texts = [];
	let position = 0;
	do {
		texts.push(digit(adId, field, hour, position++, units % 16));
		units = Math.floor(units / 16);
	} while (units > 0 && position < DIGITS);
	return [...texts, opened(adId, field, hour)];
}

type Decoded = { low: number; high: number; busy: boolean } | 'none' | 'damaged';

function decode(adId: string, field: string, hour: number, found: Set<string>): Decoded {
	const held: number[][] = [];
	for (let position = 0; position < DIGITS; position++) {
		const values: number[] = [];
		for (let value = 0; value < 16; value++)
			if (found.has(digit(adId, field, hour, position, value))) values.push(value);
		held.push(values);
	}
	let top = DIGITS - 1;
	while (top >= 0 && held[top].length === 0) top--;
	if (top < 0) return 'none';
	if (held.slice(0, top + 1).some((values) => values.length === 0)) return 'damaged';
	let low = 0;
	let high = 0;
	for (let position = top; position >= 0; position--) {
		low = low * 16 + Math.min(...held[position]);
		high = high * 16 + Math.max(...held[position]);
	}
	const busy = held.some((values) => values.length > 1);
	return { low: low / SCALE, high: high / SCALE, busy };
}

interface DayOptions {
	clock?: Clock;
	/** Where this run's removals are checked (see records.ts). */
	tidy?: Tidy;
	/** Told when a day just opened waits for its confirmation (nothing but that wait is left). */
	onConfirmWait?: () => void;
}

/** The start of the ad's current day for this field, or undefined when no day is open. */
export async function readDayStart(
	records: SharedRecords,
	adId: string,
	field: string,
	now: number,
	options: DayOptions = {},
): Promise<DayStart | undefined> {
	const clock = options.clock ?? realClock;
	const tidy = options.tidy ?? new Tidy(clock);
	const current = Math.floor(now / HOUR_MS);
	// The hours a day still open may have opened in, and before them as many hours whose days have
	// ended: those are never read again, and their texts are taken out so that the row all of this
	// node's executions read and write does not grow with every day of an hourly rule.
	const hours: number[] = [];
	const ended: number[] = [];
	for (let hour = current - 2 * DAY_HOURS + 1; hour <= current; hour++)
		(hour > current - DAY_HOURS ? hours : ended).push(hour);
	const present = await testOnly(
		records,
		tidy,
		[...ended, ...hours].map((hour) => opened(adId, field, hour)),
	);
	const over = ended.filter((hour) => present.has(opened(adId, field, hour)));
	if (over.length > 0)
		await records.forget(
			over.flatMap((hour) => [opened(adId, field, hour), ...digitTexts(adId, field, hour)]),
		);
	const open = hours.filter((hour) => present.has(opened(adId, field, hour)));
	if (open.length === 0) return undefined;
	const texts = open.flatMap((hour) => digitTexts(adId, field, hour));
	for (let attempt = 1; ; attempt++) {
		const found = await testOnly(records, tidy, texts);
		let start: DayStart | undefined;
		let busy = false;
		for (const hour of open) {
			const decoded = decode(adId, field, hour, found);
			if (decoded === 'none') continue; // a mark another run made only to test it
			if (decoded === 'damaged') throw new DayRecordDamaged();
			busy ||= decoded.busy;
			// Days never overlap but when two runs open one at once: every start found counts.
			const endsAt = (hour + DAY_HOURS) * HOUR_MS;
			start = start
				? {
						low: Math.min(start.low, decoded.low),
						high: Math.max(start.high, decoded.high),
						endsAt: Math.min(start.endsAt, endsAt),
					}
				: { low: decoded.low, high: decoded.high, endsAt };
		}
		if (!busy || attempt >= BUSY_TRIES) return start;
		await clock.sleep(BUSY_WAIT_MS);
	}
}

/**
 * Opens the ad's day for this field now, from its value right before the change, and confirms it:
 * after every write that overlapped this one has landed, the record is read again (written again
 * first when one of them dropped it), so that another run's change after this one's write is held
 * to it. Returns the day as it then reads, which holds another run's start too when two runs opened
 * it at the same moment.
 */
async function openDay(
	records: SharedRecords,
	adId: string,
	field: string,
	value: number,
	now: number,
	options: DayOptions = {},
): Promise<DayStart> {
	const clock = options.clock ?? realClock;
	const tidy = options.tidy ?? new Tidy(clock);
	const hour = Math.floor(now / HOUR_MS);
	const texts = dayTexts(adId, field, hour, value);
	// The read before found no day and took its marks out again; those now stay.
	tidy.keep(texts);
	await records.testAndRecord(texts);
	const confirm = async () => {
		await clock.sleep(SETTLE_MS);
		await records.testAndRecord(texts);
	};
	// Once a second later, when every write that overlapped this one has landed (written again when
	// one of them dropped it), before the change is sent...
	options.onConfirmWait?.();
	await confirm();
	// ...and once more after another run's look at what it took out of the records (a second after
	// its removal) may have taken these texts out with it: a reader that found no day before this
	// write removes its marks of them. The claim on the ad is let go after this (letGoOfUpdate).
	tidy.track(
		(async () => {
			await clock.sleep(SETTLE_MS / 4);
			await confirm();
		})(),
	);
	const start = await readDayStart(records, adId, field, now, { clock, tidy });
	if (!start) throw new DayRecordDamaged();
	return start;
}

/** Why a value was refused by its day's bound. */
export interface DayRefusal {
	/** The start the value was measured from (the one it is furthest from). */
	from: number;
	/** How far the value is from it, in percent. */
	moved: number;
	/** The range allowed now (empty when low > high). */
	low: number;
	high: number;
	/** The day found open (undefined: none was, the bound was the current value). */
	day?: DayStart;
}

function refusal(asked: number, day: DayStart, percent: number): DayRefusal | undefined {
	const away = (from: number) => (from === 0 ? 0 : (Math.abs(asked - from) / Math.abs(from)) * 100);
	const from = away(day.low) >= away(day.high) ? day.low : day.high;
	if (away(from) <= percent + 1e-9) return undefined;
	return {
		from,
		moved: away(from),
		low: day.high * (1 - percent / 100),
		high: day.low * (1 + percent / 100),
	};
}

/**
 * Max Change % per Day for one field of one change: `asked` must stay within `percent` of every
 * start the ad's day may have, or of `current` when no day is open. Unless `dryRun`, a change that
 * passes opens the day first when none was open (see openDay), and is held to the day as it reads
 * once opened. Returns the refusal, or undefined when the change may be sent.
 */
export async function boundByDay(
	records: SharedRecords,
	change: { adId: string; field: string; asked: number; current: number; percent: number },
	now: number,
	options: DayOptions & { dryRun?: boolean } = {},
): Promise<DayRefusal | undefined> {
	const { adId, field, asked, current, percent } = change;
	const day = await readDayStart(records, adId, field, now, options);
	const first = refusal(asked, day ?? { low: current, high: current, endsAt: 0 }, percent);
	if (first) return { ...first, day };
	if (day || options.dryRun) return undefined;
	const opened = await openDay(records, adId, field, current, now, options);
	const second = refusal(asked, opened, percent);
	return second && { ...second, day: opened };
}
