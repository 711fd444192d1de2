import { sleep } from 'n8n-workflow';

interface Hold {
	done: Promise<void>;
	since: number;
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
 */
export async function takeHold(
	key: string,
	maxMs: number,
): Promise<{ waitedMs: number; release: () => void }> {
	const started = Date.now();
	for (;;) {
		const held = holds.get(key);
		if (!held) break;
		const left = held.since + maxMs - Date.now();
		if (left <= 0) break; // the holder went past its bound: taken over
		await Promise.race([held.done, sleep(Math.min(left, LOOK_EVERY_MS))]);
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
