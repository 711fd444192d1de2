import { randomUUID } from 'node:crypto';
import type { SharedRecords } from './records';

/**
 * A claim that one run makes before a write, in the records every n8n process shares, so that a
 * run in another process (a queue-mode worker, or main for a manual run) about to make the same
 * write sees it and does not. A claim is kept for the time slot it was made in and the next one
 * (by default slots of 2 minutes, so 2 to 4 minutes) unless let go: a run that crashed before
 * letting go blocks nothing for good. A claim that covers a shorter write takes shorter slots.
 *
 * Testing a claim records it, so the claim and the test are one call; the texts a test recorded
 * only to test them are taken out again. A run that made a write records that it is done, so that a
 * later run of the same slot knows to read the API again (the ad it made may since be deleted).
 *
 * Not atomic (see records.ts): two calls that overlap within the milliseconds of one read and write
 * of the row can both find nothing, and the later write drops the earlier one's texts. Each claim
 * also records a text of its own run, so the run whose write was dropped finds it missing
 * afterwards (`stillMine`) and knows another run may have made the same write.
 */
const SLOT_MS = 120_000;

// The slot's length is part of the text, so that claims of one subject with other slots never meet.
const slotName = (slot: number, slotMs: number) =>
	`slot ${slot}${slotMs === SLOT_MS ? '' : ` of ${slotMs} ms`}`;
const claimText = (subject: string, slot: number, slotMs: number) =>
	`adCabinet claim|${subject}|${slotName(slot, slotMs)}`;
const doneText = (subject: string, slot: number, slotMs: number) =>
	`adCabinet done|${subject}|${slotName(slot, slotMs)}`;

export interface Claim {
	/** Whether this run made the claim; false: another run holds it. */
	made: boolean;
	/** Whether a run finished the same write within the last slots (read the API again first). */
	recentlyDone: boolean;
	/** False when another run's write of the row dropped this claim: it may have claimed too. */
	stillMine: () => Promise<boolean>;
	/** The write was made: the claim goes, and later runs of the slot know it was done. */
	done: () => Promise<void>;
	/** The write was not made: the claim goes. */
	release: () => Promise<void>;
}

export async function claim(
	records: SharedRecords,
	subject: string,
	now = Date.now(),
	slotMs = SLOT_MS,
): Promise<Claim> {
	const slot = Math.floor(now / slotMs);
	const mine = claimText(subject, slot, slotMs);
	const own = `${mine}|by ${randomUUID()}`;
	const held = [mine, claimText(subject, slot - 1, slotMs)];
	const done = [doneText(subject, slot, slotMs), doneText(subject, slot - 1, slotMs)];
	const texts = [...held, ...done, own];
	const found = await records.testAndRecord(texts);
	const made = !held.some((text) => found.has(text));
	// What this test recorded and should not keep: all of it when another run holds the claim.
	const keep = made ? new Set([mine, own]) : new Set<string>();
	await records.forget(texts.filter((text) => !found.has(text) && !keep.has(text)));
	if (!made)
		return {
			made,
			recentlyDone: false,
			stillMine: async () => false,
			done: async () => undefined,
			release: async () => undefined,
		};
	const release = async () => await records.forget([mine, own]);
	return {
		made,
		recentlyDone: done.some((text) => found.has(text)),
		stillMine: async () => (await records.testAndRecord([own])).has(own),
		done: async () => {
			await release();
			await records.testAndRecord([done[0]]);
		},
		release,
	};
}
