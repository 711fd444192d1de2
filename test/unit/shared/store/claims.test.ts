import { claim } from '../../../../nodes/shared/store/claims';
import type { SharedRecords } from '../../../../nodes/shared/store/records';

/** n8n's records: a set of texts per node; a test records what was missing. */
function memoryRecords(): SharedRecords & { texts: Set<string> } {
	const texts = new Set<string>();
	return {
		texts,
		async testAndRecord(items) {
			const found = new Set(items.filter((text) => texts.has(text)));
			for (const text of items) texts.add(text);
			return found;
		},
		async forget(items) {
			for (const text of items) texts.delete(text);
		},
	};
}

/**
 * n8n's records as they behave when two calls overlap: each reads the row, and writes the whole row
 * back later, so the later write drops what the earlier one recorded.
 */
function overlappingRecords(): SharedRecords & { texts: Set<string>; overlapNext: () => void } {
	let texts = new Set<string>();
	let waiting: Array<() => void> = [];
	let overlap = 0;
	const store = {
		get texts() {
			return texts;
		},
		overlapNext: () => {
			overlap = 2;
		},
		async testAndRecord(items: string[]) {
			const read = new Set(texts);
			if (overlap > 0) {
				overlap--;
				// Both calls read before either writes.
				await new Promise<void>((resolve) => {
					waiting.push(resolve);
					if (waiting.length === 2) {
						for (const go of waiting) go();
						waiting = [];
					}
				});
			}
			const found = new Set(items.filter((text) => read.has(text)));
			for (const text of items) read.add(text);
			texts = read;
			return found;
		},
		async forget(items: string[]) {
			for (const text of items) texts.delete(text);
		},
	};
	return store;
}

const T0 = Date.UTC(2026, 11, 2, 9, 0, 30);

describe('a claim in the shared records', () => {
	test('the first run makes it; another run of the same moment stands back and leaves nothing behind', async () => {
		const records = memoryRecords();
		const first = await claim(records, 'create|ad', T0);
		expect(first.made).toBe(true);
		const before = new Set(records.texts);
		const second = await claim(records, 'create|ad', T0 + 5_000);
		expect(second.made).toBe(false);
		expect(records.texts).toEqual(before);
		// Another subject is free.
		expect((await claim(records, 'create|other', T0)).made).toBe(true);
	});

	test('a claim let go frees the subject; one done tells the next run to read the API again', async () => {
		const records = memoryRecords();
		const failed = await claim(records, 'create|ad', T0);
		await failed.release();
		const next = await claim(records, 'create|ad', T0 + 1_000);
		expect(next).toMatchObject({ made: true, recentlyDone: false });
		await next.done();
		const after = await claim(records, 'create|ad', T0 + 2_000);
		expect(after).toMatchObject({ made: true, recentlyDone: true });
	});

	test('a claim never let go (its run crashed) lapses after two slots of 2 minutes', async () => {
		const records = memoryRecords();
		expect((await claim(records, 'create|ad', T0)).made).toBe(true);
		expect((await claim(records, 'create|ad', T0 + 150_000)).made).toBe(false);
		expect((await claim(records, 'create|ad', T0 + 240_000)).made).toBe(true);
	});

	test('a claim of shorter slots (an update) lapses within a minute, and never meets one of 2-minute slots', async () => {
		const records = memoryRecords();
		expect((await claim(records, 'update|7', T0, 30_000)).made).toBe(true);
		expect((await claim(records, 'update|7', T0 + 20_000, 30_000)).made).toBe(false);
		expect((await claim(records, 'update|7', T0 + 60_000, 30_000)).made).toBe(true);
		expect((await claim(records, 'update|8', T0, 30_000)).made).toBe(true);
		expect((await claim(records, 'update|8', T0 + 1_000)).made).toBe(true);
	});

	test('two claims whose writes overlap both get made, and the run whose write was dropped finds out', async () => {
		const records = overlappingRecords();
		records.overlapNext();
		const [a, b] = await Promise.all([
			claim(records, 'create|ad', T0),
			claim(records, 'create|ad', T0),
		]);
		expect([a.made, b.made]).toEqual([true, true]);
		const mine = await Promise.all([a.stillMine(), b.stillMine()]);
		// Exactly one of them was written over by the other.
		expect(mine.filter((kept) => !kept)).toHaveLength(1);
	});

	test('with a settling time, of two claims whose writes overlap exactly one is made: the run whose write was dropped stands back before writing', async () => {
		const records = overlappingRecords();
		records.overlapNext();
		const [a, b] = await Promise.all([
			claim(records, 'create|ad', T0, undefined, { settleMs: 20 }),
			claim(records, 'create|ad', T0, undefined, { settleMs: 20 }),
		]);
		expect([a.made, b.made].sort()).toEqual([false, true]);
		const winner = a.made ? a : b;
		expect(await winner.stillMine()).toBe(true);
		// The run that stood back left no text of its own: the winner's done frees the subject.
		await winner.done();
		expect((await claim(records, 'create|ad', T0 + 1_000)).made).toBe(true);
	});

	test('with a settling time, a claim dropped by a write about another subject is made again', async () => {
		const records = memoryRecords();
		const dropped: number[] = [];
		const pending = claim(records, 'create|ad', T0, undefined, {
			settleMs: 40,
			onDropped: (attempt) => dropped.push(attempt),
		});
		await new Promise((resolve) => setTimeout(resolve, 10));
		// Another subject's claim read the row before this one wrote it, and wrote it back after.
		const other = 'adCabinet claim|create|other|slot 1';
		records.texts.clear();
		records.texts.add(other);
		const made = await pending;
		expect(made.made).toBe(true);
		expect(dropped).toEqual([1]);
		expect(await made.stillMine()).toBe(true);
		expect(records.texts.has(other)).toBe(true);
		expect((await claim(records, 'create|ad', T0 + 1_000)).made).toBe(false);
	});

	test("a claim whose first write of a new row lost to another run's (the row's unique key) is tried again and finds that run's claim", async () => {
		const records = memoryRecords();
		let calls = 0;
		const racing: typeof records = {
			...records,
			async testAndRecord(items) {
				calls++;
				if (calls === 1) {
					// The other run's INSERT of the row came first, with its claim.
					await claim(records, 'create|ad', T0);
					throw new Error('duplicate key value violates unique constraint "PK_processed_data"');
				}
				return await records.testAndRecord(items);
			},
		};
		const again: unknown[] = [];
		const second = await claim(racing, 'create|ad', T0, undefined, {
			settleMs: 10,
			onAgain: (error) => again.push(error),
		});
		expect(second.made).toBe(false);
		expect(again).toHaveLength(1);
		expect(calls).toBe(2);
	});

	test('a claim whose records fail twice in a row fails: the caller knows the records did not answer', async () => {
		const failing = memoryRecords();
		failing.testAndRecord = async () => {
			throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
		};
		await expect(claim(failing, 'create|ad', T0)).rejects.toThrow('ECONNREFUSED');
	});
});
