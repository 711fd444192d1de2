import type { SharedRecords } from './records';

/**
 * A claim that one run makes before a write, in the records every n8n process shares, so that a
 * run in another process (a queue-mode worker, or main for a manual run) about to make the same
 * write sees it and does not. A claim is kept for the time slot it was made in and the next one
 * (2 to 4 minutes): long enough for the write it covers, and it lapses by itself, so a run that
 * crashed before letting go leaves nothing that blocks for good.
 *
 * Testing a claim records it, so the claim and the test are one call: the run that finds neither
 * this slot's nor the last slot's text made the claim; a run that finds either did not, and takes
 * out again whatever its test recorded. Two calls that overlap within the milliseconds of one read
 * and write of the row can both find nothing (see records.ts); what a write does about that is its
 * own (a create looks for a twin after it is made).
 */
const SLOT_MS = 120_000;

const textOf = (subject: string, slot: number) => `adCabinet claim|${subject}|slot ${slot}`;

export interface Claim {
	/** Whether this run made the claim; false: another run holds it. */
	made: boolean;
	/** Lets go of a claim this run made (nothing when it made none). */
	release: () => Promise<void>;
}

export async function claim(
	records: SharedRecords,
	subject: string,
	now = Date.now(),
): Promise<Claim> {
	const slot = Math.floor(now / SLOT_MS);
	const texts = [textOf(subject, slot), textOf(subject, slot - 1)];
	const found = await records.testAndRecord(texts);
	const recordedNow = texts.filter((text) => !found.has(text));
	if (found.size > 0) {
		await records.forget(recordedNow);
		return { made: false, release: async () => undefined };
	}
	// The last slot's text was recorded only to test it.
	await records.forget([texts[1]]);
	return { made: true, release: async () => await records.forget([texts[0]]) };
}
