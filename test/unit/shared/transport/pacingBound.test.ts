import { Pacer } from '../../../../nodes/shared/transport/pacing';
import type { WaitBound } from '../../../../nodes/shared/toolCall';

const LIMIT = { requests: 2, windowMs: 10_000 };
/** The margin past the window's edge the pacer keeps (100 ms + 1% of the window). */
const MARGIN = 100 + LIMIT.windowMs / 100;
const KEY = 'cred\u0000/api/v2/advertisement/';

class TooLong extends Error {
	constructor(
		readonly waitMs: number,
		readonly blocked: boolean,
	) {
		super(`wait ${waitMs}`);
	}
}
/** A deadline `maxWaitMs` from now. */
const bound = (maxWaitMs: number): WaitBound => ({
	endsAt: Date.now() + maxWaitMs,
	error: (waitMs, blocked) => new TooLong(waitMs, blocked),
});

describe("Pacer with a deadline on the wait (a tool call's)", () => {
	beforeEach(() => {
		jest.useFakeTimers();
		jest.setSystemTime(Date.parse('2026-11-23T10:00:00Z'));
	});
	afterEach(() => jest.useRealTimers());

	test('a wait that ends by the deadline is taken', async () => {
		const pacer = new Pacer();
		const t0 = Date.now();
		await pacer.admit(KEY, LIMIT);
		await pacer.admit(KEY, LIMIT);
		const admitted = pacer.admit(KEY, LIMIT, false, bound(LIMIT.windowMs + MARGIN));
		await jest.advanceTimersByTimeAsync(LIMIT.windowMs + MARGIN);
		await expect(admitted).resolves.toBe(LIMIT.windowMs + MARGIN);
		expect(Date.now() - t0).toBe(LIMIT.windowMs + MARGIN);
	});

	test('a longer wait fails at once with the wait until a place is free, counting those queued ahead, and takes no place', async () => {
		const pacer = new Pacer();
		const t0 = Date.now();
		await pacer.admit(KEY, LIMIT);
		await pacer.admit(KEY, LIMIT);
		// Two requests of a workflow queue for the next window's places.
		const queued = [pacer.admit(KEY, LIMIT), pacer.admit(KEY, LIMIT)];
		const refused = pacer.admit(KEY, LIMIT, false, bound(1_000));
		await expect(refused).rejects.toEqual(
			expect.objectContaining({ waitMs: 2 * (LIMIT.windowMs + MARGIN), blocked: false }),
		);
		await jest.advanceTimersByTimeAsync(LIMIT.windowMs + MARGIN);
		await expect(Promise.all(queued)).resolves.toHaveLength(2);
		// The refused request left no turn: the next one in the following window starts first.
		expect(pacer.waitFor(KEY, LIMIT)).toBe(LIMIT.windowMs + MARGIN);
		expect(Date.now() - t0).toBe(LIMIT.windowMs + MARGIN);
	});

	test('a path blocked after a 429 is named as blocked', async () => {
		const pacer = new Pacer();
		pacer.block(KEY, LIMIT);
		await expect(pacer.admit(KEY, LIMIT, false, bound(1_000))).rejects.toEqual(
			expect.objectContaining({ waitMs: LIMIT.windowMs + 1_000, blocked: true }),
		);
	});

	test('a request whose turn comes later than foreseen (a 429 meanwhile) gives its turn up without a start', async () => {
		const pacer = new Pacer();
		await pacer.admit(KEY, LIMIT);
		await pacer.admit(KEY, LIMIT);
		const waiting = pacer.admit(KEY, LIMIT, false, bound(LIMIT.windowMs + MARGIN));
		const outcome = waiting.then(
			() => 'admitted',
			(error: TooLong) => error,
		);
		await jest.advanceTimersByTimeAsync(1_000);
		pacer.block(KEY, LIMIT);
		const behind = pacer.admit(KEY, LIMIT);
		await jest.advanceTimersByTimeAsync(LIMIT.windowMs + MARGIN);
		expect(await outcome).toEqual(expect.objectContaining({ blocked: true }));
		// The request behind it starts when the block ends, with both places of the window free.
		await jest.advanceTimersByTimeAsync(LIMIT.windowMs);
		await behind;
		await expect(pacer.admit(KEY, LIMIT, false, bound(0))).resolves.toBe(0);
	});
});
