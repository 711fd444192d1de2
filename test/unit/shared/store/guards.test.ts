import { RecordsModel } from '../../../../harness/processedData';
import { guardCreate } from '../../../../nodes/AdCabinetAds/resources/ad/createGuard';
import { claim } from '../../../../nodes/shared/store/claims';
import { clockWithin } from '../../../../nodes/shared/store/clock';
import { boundByDay, readDayStart } from '../../../../nodes/shared/store/dayStart';
import {
	MAX_RECORDS,
	Tidy,
	testOnly,
	type SharedRecords,
} from '../../../../nodes/shared/store/records';
import { ManualClock, settle } from '../../../support/manualClock';

/**
 * The cases the write guards met on n8n's records as n8n keeps them, each in the order that showed
 * it. The search over every order is twoRunsOrders.test.ts.
 */
const T0 = Date.UTC(2026, 11, 7, 9, 0, 30);
const ROW = 'workflow\u0000n:node';

/** The model's row as the guards reach it; `onCall` may hold a call back or fail it. */
function recordsOf(
	model: RecordsModel,
	onCall?: (call: number, texts: string[]) => Promise<'fail after write' | void>,
): SharedRecords {
	let calls = 0;
	return {
		async testAndRecord(texts) {
			const call = calls++;
			const what = await onCall?.(call, texts);
			const out = await model.record(ROW, texts, MAX_RECORDS);
			if (what === 'fail after write') throw new Error('the answer was lost after the write');
			return new Set(out.processed.map(String));
		},
		async forget(texts) {
			calls++;
			await model.remove(ROW, texts);
		},
	};
}

describe('a claim', () => {
	test('whose call failed after its write landed is this run’s on the retry: it does not stand back from itself', async () => {
		const model = new RecordsModel();
		const clock = new ManualClock(T0);
		const records = recordsOf(model, async (call) => (call === 0 ? 'fail after write' : undefined));
		const claiming = claim(records, 'create|ad', { clock });
		await clock.advance(300);
		const made = await claiming;
		expect(made.made).toBe(true);
		// Another run now finds it held.
		expect((await claim(recordsOf(model), 'create|ad', { clock })).made).toBe(false);
	});

	test('is renewed while its write waits, so a create delayed past its slots keeps it', async () => {
		const model = new RecordsModel();
		const clock = new ManualClock(T0);
		const mine = await claim(recordsOf(model), 'create|ad', { clock });
		expect(mine.made).toBe(true);
		// Ten minutes of a create held back by the rate limit: five slots of 2 minutes.
		await clock.advance(10 * 60_000);
		expect((await claim(recordsOf(model), 'create|ad', { clock })).made).toBe(false);
		await mine.done();
		await clock.advance(2_000);
		expect((await claim(recordsOf(model), 'create|ad', { clock })).made).toBe(true);
	});

	test('of a run that made its ad: a claim between any two of its last calls finds the claim or the done text', async () => {
		// Another run read the list just before this run's create was answered, and claims between
		// two calls of this run's `done`: it must stand back, or know to read the list again.
		for (let point = 0; point < 3; point++) {
			const model = new RecordsModel();
			const clock = new ManualClock(T0);
			let armed = false;
			let after = 0;
			const seen: Array<{ made: boolean; recentlyDone: boolean }> = [];
			const between = async () => {
				if (armed && after++ === point)
					seen.push(await claim(recordsOf(model), 'create|ad', { clock }));
			};
			const records: SharedRecords = {
				testAndRecord: async (texts) => {
					const found = await recordsOf(model).testAndRecord(texts);
					await between();
					return found;
				},
				forget: async (texts) => {
					await recordsOf(model).forget(texts);
					await between();
				},
			};
			const mine = await claim(records, 'create|ad', { clock });
			expect(mine.made).toBe(true);
			armed = true;
			await mine.done();
			// Past this run's last call: the claim comes after it.
			if (seen.length === 0) seen.push(await claim(recordsOf(model), 'create|ad', { clock }));
			expect(seen).toHaveLength(1);
			expect(seen[0].made ? seen[0].recentlyDone : true).toBe(true);
		}
	});

	test('of a run that died lapses within two slots', async () => {
		const model = new RecordsModel();
		const clock = new ManualClock(T0);
		// A run whose renewals stop: its process is gone (here, its records fail from now on).
		let dead = false;
		const records: SharedRecords = {
			testAndRecord: async (texts) => {
				if (dead) throw new Error('the worker was killed');
				return await recordsOf(model).testAndRecord(texts);
			},
			forget: async (texts) => {
				if (dead) throw new Error('the worker was killed');
				await recordsOf(model).forget(texts);
			},
		};
		expect((await claim(records, 'create|ad', { clock })).made).toBe(true);
		dead = true;
		await clock.advance(4 * 60_000 + 1);
		expect((await claim(recordsOf(model), 'create|ad', { clock })).made).toBe(true);
	});
});

describe('a create’s guard', () => {
	test('lets its claim go when the list read after a recent create fails', async () => {
		const model = new RecordsModel();
		const clock = new ManualClock(T0);
		// A create of the same ad finished a moment ago.
		const before = await claim(recordsOf(model), 'create|ad', { clock });
		await before.done();
		const ports = {
			records: recordsOf(model),
			clock,
			tidy: new Tidy(clock),
			hold: async () => ({ waited: false, release: () => undefined }),
			findIdentical: async (fresh: boolean) => {
				if (fresh) throw new Error('the ad list did not answer');
				return undefined;
			},
			log: () => undefined,
		};
		const guarding = guardCreate(ports, 'ad').then(
			() => undefined,
			(error: Error) => error.message,
		);
		await clock.advance(1_500);
		expect(await guarding).toBe('the ad list did not answer');
		await clock.advance(2_000);
		expect((await claim(recordsOf(model), 'create|ad', { clock })).made).toBe(true);
	});
});

describe('in a tool call', () => {
	test('a create that stands back answers when its next look would pass the deadline, and sends nothing', async () => {
		const model = new RecordsModel();
		const clock = new ManualClock(T0);
		// Another process holds the claim and is creating the same ad.
		expect((await claim(recordsOf(model), 'create|ad', { clock })).made).toBe(true);
		const sent: string[] = [];
		const deadline = clockWithin(
			T0 + 20_000,
			(waitMs) => new Error(`out of time: try again in ${Math.ceil(waitMs / 1000)} s`),
			clock,
		);
		const guarding = guardCreate(
			{
				records: recordsOf(model),
				clock: deadline,
				tidy: new Tidy(clock),
				hold: async () => ({ waited: false, release: () => undefined }),
				findIdentical: async () => {
					sent.push(`list read at +${clock.now() - T0} ms`);
					return undefined;
				},
				log: () => undefined,
			},
			'ad',
		).then(
			() => 'decided',
			(error: Error) => error.message,
		);
		await clock.advance(30_000);
		// Looks at 3 s and 9 s fit in 20 s; the next, 12 s later, would end at 21 s.
		expect(await guarding).toBe('out of time: try again in 12 s');
		expect(sent).toEqual(['list read at +0 ms', 'list read at +3000 ms', 'list read at +9000 ms']);
	});
});

describe('a day record', () => {
	test('whose read marks another write put back reads as one start again a second later', async () => {
		const model = new RecordsModel();
		const clock = new ManualClock(T0);
		const tidy = new Tidy(clock);
		const change = { adId: '7', field: 'cpm', asked: 1.1, current: 1, percent: 20 };
		const opening = boundByDay(recordsOf(model), change, T0, { clock, tidy });
		await clock.advance(3_000);
		expect(await opening).toBeUndefined();
		await tidy.settled();
		// A reader tests every digit; another call reads the row before the reader takes its marks
		// out, and writes it back after: the marks are back, and every position reads busy.
		let release: () => void = () => undefined;
		const held = new Promise<void>((resolve) => (release = resolve));
		const readerTidy = new Tidy(clock);
		const reading = testOnly(
			recordsOf(model),
			readerTidy,
			Array.from(
				{ length: 16 },
				(_, digit) =>
					`adCabinet day|7|cpm|hour ${Math.floor(T0 / 3_600_000)}|digit 0 is ${digit.toString(16)}`,
			),
		);
		const other = model.record(ROW, ['another ad’s claim'], MAX_RECORDS, async (step) => {
			if (step.statement === 'update') await held;
		});
		await reading;
		release();
		await other;
		await settle();
		await clock.advance(1_500);
		await readerTidy.settled();
		const day = await readDayStart(recordsOf(model), '7', 'cpm', T0 + 5_000, { clock });
		expect(day && [day.low, day.high]).toEqual([1, 1]);
	});

	test('of every ad a CPM rule changes over a month stays in the row beside 1,000 other ads', async () => {
		// Each of 1,000 ads is changed twice a day, at hours of its own; every change reads its day
		// (opening it at the first change) as the Update node does. A tenth of the ads are read back
		// at the end of each day.
		const texts = new Map<string, true>();
		let largest = 0;
		const fast: SharedRecords = {
			testAndRecord: async (items) => {
				const found = new Set(items.filter((text) => texts.has(text)));
				for (const text of items) texts.set(text, true);
				// The oldest go first past the cap, as in n8n's records.
				for (const text of texts.keys()) {
					if (texts.size <= MAX_RECORDS) break;
					texts.delete(text);
				}
				largest = Math.max(largest, texts.size);
				return found;
			},
			forget: async (items) => {
				for (const text of items) texts.delete(text);
			},
		};
		const clock = new ManualClock(T0);
		const instant = { now: () => clock.now(), sleep: async () => undefined };
		const cpm = new Map<number, number>();
		const opened = new Map<number, { at: number; start: number }>();
		let lost = 0;
		for (let hour = 0; hour < 30 * 24; hour++) {
			const now = T0 + hour * 3_600_000;
			for (let ad = 0; ad < 1_000; ad++) {
				const tidy = new Tidy(instant);
				if (hour % 24 === 23 && ad % 10 === 0) {
					const day = opened.get(ad);
					const read = await readDayStart(fast, String(ad), 'cpm', now, { clock: instant, tidy });
					if (day && now < day.at && (!read || read.low !== day.start)) lost++;
				}
				if ((hour + ad) % 12 !== 0) continue;
				const current = cpm.get(ad) ?? 1;
				const day = opened.get(ad);
				const open = day && now < day.at;
				const asked = Math.round(current * (hour % 2 === 0 ? 1.05 : 0.96) * 100) / 100;
				const refused = await boundByDay(
					fast,
					{ adId: String(ad), field: 'cpm', asked, current, percent: 50 },
					now,
					{ clock: instant, tidy },
				);
				if (!refused) {
					if (!open)
						opened.set(ad, { at: (Math.floor(now / 3_600_000) + 25) * 3_600_000, start: current });
					cpm.set(ad, asked);
				}
				await tidy.settled();
			}
		}
		expect(lost).toBe(0);
		expect(largest).toBeLessThan(MAX_RECORDS);
	});
});
