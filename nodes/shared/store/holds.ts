import { waitWithinCall, type Within } from '../callDeadline';

interface Hold {
	done: Promise<void>;
	since: number;
}

/** A deadline a wait for a hold keeps to, and the error that ends the wait instead. */
interface HoldDeadline extends Within {
	/** Told how long this run waited, and the longest the holder may still hold (ms). */
	tooLong: (waitedMs: number, holderLeftMs: number) => Error;
}

/** Holds taken in this n8n process, by key; shared by every execution the process runs. */
const holds = new Map<string, Hold>();

/** How often a run waiting on a hold looks whether the holder has gone past its bound. */
const LOOK_EVERY_MS = 1_000;

/**
 * Takes the hold of a key in this process, after waiting for whoever holds it (another execution
 * writing the same ad). A hold lasts until released, and never longer than `maxMs`: a run that was
 * cancelled or crashed before releasing leaves nothing behind that blocks for good. Returns how
 * long it waited and the release function (calling it twice is harmless).
 *
 * With a deadline (a tool call's, see callDeadline), the wait keeps to it: when the next look
 * would come past it, its `tooLong` is thrown instead, and the hold is not taken.
 */
export async function takeHold(
	key: string,
	maxMs: number,
	within?: HoldDeadline,
): Promise<{ waitedMs: number; release: () => void }> {
	const started = Date.now();
	for (;;) {
		const held = holds.get(key);
		if (!held) break;
		const left = held.since + maxMs - Date.now();
		if (left <= 0) break; // the holder went past its bound: taken over
		await waitWithinCall(
			within,
			Math.min(left, LOOK_EVERY_MS),
			() => (within as HoldDeadline).tooLong(Date.now() - started, left),
			held.done,
		);
	}
	let free: () => void = () => undefined;
	const mine: Hold = { done: new Promise<void>((resolve) => (free = resolve)), since: Date.now() };
	holds.set(key, mine);
	let released = false;
	return {
		waitedMs: mine.since - started,
		release: () => {
			if (released) return;
			released = true;
			if (holds.get(key) === mine) holds.delete(key);
			free();
		},
	};
}
