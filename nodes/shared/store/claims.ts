import { randomUUID } from 'node:crypto';
import { sleep } from 'n8n-workflow';
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
 *
 * A claim made with a settling time is confirmed before it is trusted: after that time every write
 * that overlapped it has landed, and the row keeps exactly one run's texts. The run whose own text
 * is missing then claims again: when the other run of the same subject holds it, it stands back
 * before writing anything; when its texts were dropped by a write about another subject, it gets
 * the claim back.
 */
const SLOT_MS = 120_000;
/** Claims tried at most when each one made is dropped again by an overlapping write. */
const ATTEMPTS = 3;
/**
 * A claim whose call failed is tried once more after this: the very first write of a row is an
 * INSERT, and of two runs writing a new row at the same moment, the one whose INSERT comes second
 * fails on the row's unique key. Tried again, it reads the row the other run made, with its claim.
 */
const AGAIN_AFTER_MS = 250;

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

const heldElsewhere: Claim = {
	made: false,
	recentlyDone: false,
	stillMine: async () => false,
	done: async () => undefined,
	release: async () => undefined,
};

async function claimOnce(
	records: SharedRecords,
	subject: string,
	now: number,
	slotMs: number,
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
	if (!made) return heldElsewhere;
	const release = async () => await records.forget([mine, own]);
	return {
		made,
		recentlyDone: done.some((text) => found.has(text)),
		stillMine: async () => {
			const kept = (await records.testAndRecord([own])).has(own);
			// Recorded by this test only: the claim text may be another run's now, and stays.
			if (!kept) await records.forget([own]);
			return kept;
		},
		done: async () => {
			await release();
			await records.testAndRecord([done[0]]);
		},
		release,
	};
}

interface ClaimOptions {
	/** How long a claim made waits before it is confirmed; none when unset. */
	settleMs?: number;
	/** Told each time a claim made was found dropped by an overlapping write. */
	onDropped?: (attempt: number) => void;
	/** Told when a claim's call failed once and is tried again. */
	onAgain?: (error: unknown) => void;
}

/**
 * Claims the subject. With `settleMs`, a claim made is confirmed after that long (see above), and
 * claimed again, at most ATTEMPTS times in all, when an overlapping write dropped it. Throws when
 * the records fail twice in a row (the database cannot be reached).
 */
export async function claim(
	records: SharedRecords,
	subject: string,
	now = Date.now(),
	slotMs = SLOT_MS,
	options: ClaimOptions = {},
): Promise<Claim> {
	const { settleMs, onDropped, onAgain } = options;
	const started = Date.now();
	for (let attempt = 1; ; attempt++) {
		const at = () => now + (Date.now() - started);
		const made = await claimOnce(records, subject, at(), slotMs).catch(async (error: unknown) => {
			onAgain?.(error);
			await sleep(AGAIN_AFTER_MS);
			return await claimOnce(records, subject, at(), slotMs);
		});
		if (!made.made || !settleMs) return made;
		await sleep(settleMs);
		if (await made.stillMine()) return made;
		// Dropped by an overlapping write: the other run of this subject may hold the claim now.
		onDropped?.(attempt);
		if (attempt === ATTEMPTS) return heldElsewhere;
	}
}
