import { createHash } from 'node:crypto';
import {
	DayRecordBusy,
	DayRecordDamaged,
	openDay,
	readDayStart,
} from '../../../../nodes/shared/store/dayStart';
import type { SharedRecords } from '../../../../nodes/shared/store/records';

const HOUR = 3_600_000;

/** The shared records as n8n keeps them: hashes of the texts, testing records what was missing. */
function memoryRecords(): SharedRecords & { hashes: Set<string>; texts: Set<string> } {
	const hashes = new Set<string>();
	const texts = new Set<string>();
	const hash = (text: string) => createHash('md5').update(text).digest('base64');
	return {
		hashes,
		texts,
		async testAndRecord(items) {
			const found = new Set<string>();
			for (const text of items) {
				if (hashes.has(hash(text))) found.add(text);
				else {
					hashes.add(hash(text));
					texts.add(text);
				}
			}
			return found;
		},
		async forget(items) {
			for (const text of items) {
				hashes.delete(hash(text));
				texts.delete(text);
			}
		},
	};
}

const T0 = Date.UTC(2026, 11, 2, 7, 40);

describe('the day start of an ad kept in the shared records', () => {
	test('no day is open until a change opens one; a read leaves nothing behind', async () => {
		const records = memoryRecords();
		expect(await readDayStart(records, '101', 'cpm', T0)).toBeUndefined();
		expect(records.hashes.size).toBe(0);
	});

	test('the start value opened by one run is read back exactly by later runs for 24 to 25 hours', async () => {
		const records = memoryRecords();
		await openDay(records, '101', 'cpm', 1.49, T0);
		const size = records.hashes.size;
		for (const later of [T0, T0 + HOUR, T0 + 24 * HOUR]) {
			const start = await readDayStart(records, '101', 'cpm', later);
			expect(start).toEqual({ value: 1.49, endsAt: Date.UTC(2026, 11, 3, 8, 0) });
		}
		// Reading took out again every text it recorded only to test it.
		expect(records.hashes.size).toBe(size);
		// The day ends at the end of the 25th whole hour after the hour it opened in.
		expect(await readDayStart(records, '101', 'cpm', Date.UTC(2026, 11, 3, 8, 0))).toBeUndefined();
	});

	test("a day that has ended is taken out of the records at the next read, so an hourly rule's row stays small", async () => {
		const records = memoryRecords();
		await openDay(records, '101', 'cpm', 1.49, T0);
		await openDay(records, '102', 'cpm', 2, T0);
		const oneDay = records.hashes.size / 2;
		// A day later the first ad's day has ended: reading it takes that day's texts out.
		const dayAfter = Date.UTC(2026, 11, 3, 8, 0);
		expect(await readDayStart(records, '101', 'cpm', dayAfter)).toBeUndefined();
		expect(records.hashes.size).toBe(oneDay);
		expect([...records.texts].every((text) => text.startsWith('adCabinet day|102|'))).toBe(true);
		// Its next day opens and reads back as before.
		await openDay(records, '101', 'cpm', 1.9, dayAfter);
		expect((await readDayStart(records, '101', 'cpm', dayAfter + HOUR))?.value).toBe(1.9);
		expect(records.hashes.size).toBe(2 * oneDay);
	});

	test('each ad and each field has a day of its own; large and fractional values survive', async () => {
		const records = memoryRecords();
		await openDay(records, '101', 'cpm', 0.5, T0);
		await openDay(records, '101', 'daily_budget', 123456.78, T0);
		await openDay(records, '102', 'cpm', 7.1234, T0);
		expect((await readDayStart(records, '101', 'cpm', T0 + HOUR))?.value).toBe(0.5);
		expect((await readDayStart(records, '101', 'daily_budget', T0 + HOUR))?.value).toBe(123456.78);
		expect((await readDayStart(records, '102', 'cpm', T0 + HOUR))?.value).toBe(7.1234);
		expect(await readDayStart(records, '103', 'cpm', T0 + HOUR)).toBeUndefined();
	});

	test('a mark another run recorded only to test it is not taken for a day', async () => {
		const records = memoryRecords();
		await records.testAndRecord([`adCabinet day|101|cpm|opened in hour ${Math.floor(T0 / HOUR)}`]);
		expect(await readDayStart(records, '101', 'cpm', T0 + HOUR)).toBeUndefined();
	});

	test('a record read by another run at that moment is read again, and refused when it stays so', async () => {
		const records = memoryRecords();
		await openDay(records, '101', 'cpm', 1.49, T0);
		const hour = Math.floor(T0 / HOUR);
		// Another run's test of bit 0 recorded the other value of it, and has not taken it out yet.
		const both = [0, 1].map((v) => `adCabinet day|101|cpm|hour ${hour}|bit 0 is ${v}`);
		await records.testAndRecord(both);
		const keep = {
			...records,
			forget: async (items: string[]) => records.forget(items.filter((t) => !both.includes(t))),
		};
		await expect(readDayStart(keep, '101', 'cpm', T0 + HOUR)).rejects.toBeInstanceOf(DayRecordBusy);
	});

	test('a record cut short by two writes at once is refused, never read as another value', async () => {
		const records = memoryRecords();
		await openDay(records, '101', 'cpm', 1.49, T0);
		const hour = Math.floor(T0 / HOUR);
		await records.forget([0, 1].map((v) => `adCabinet day|101|cpm|hour ${hour}|bit 3 is ${v}`));
		await expect(readDayStart(records, '101', 'cpm', T0 + HOUR)).rejects.toBeInstanceOf(
			DayRecordDamaged,
		);
	});
});
