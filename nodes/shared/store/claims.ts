import { randomUUID } from 'node:crypto';
import { realClock, type Clock } from './clock';
import { Tidy, type SharedRecords } from './records';

/**
 * A claim that one run makes before a write, in the records every n8n process shares, so that a
 * run in another process (a queue-mode worker, or main for a manual run) about to make the same
 * write sees it and stands back. The records are per workflow and node: runs of another workflow
 * never see it (the look at the ad list after a create covers them).
 *
 * A claim names its time slot (2 minutes by default). It holds in its slot and the next one, and
 * its run renews it each half slot while its write is under way, so a create delayed by the rate
 * limit keeps it, and a run that died lets it lapse within two slots.
 *
 * The records are not a lock (see records.ts): a call reads the row and writes all of it back, so
 * two calls of the same moment can each miss the other's texts, and the later write drops the
 * earlier one's. So each claim also records a text of its own run. A claim made with a settling
 * time is confirmed after it: by then every write that overlapped it has landed (a call is one read
 * and one write, milliseconds apart), and the run whose own text is gone claims again. It then finds
 * the other run's claim, or, when a write about something else dropped its texts, gets it back.
 *
 * A run that finished the write records that it is done, and only then lets go of its claim, so that
 * a run claiming the same write in the next minutes reads the API again first (the ad may exist now).
 * A claim whose release was put back by an overlapping write is taken out again a second later (see
 * Tidy in records.ts).
 */
const SLOT_MS = 120_000;
/** Claims tried at most when each one made is dropped again by an overlapping write. */
const ATTEMPTS = 3;
/**
 * A claim whose call failed is tried once more after this: the first write of a row is an INSERT,
 * and of two runs writing a new row at the same moment the second fails on the row's key; tried
 * again, it reads the row the other run made.
 */
const AGAIN_AFTER_MS = 250;
/** The longest a claim is renewed: no write waits this long for its turn. */
const KEEP_MAX_MS = 15 * 60_000;

// The slot's length is part of the text, so that claims of one subject with other slots never meet.
const slotName = (slot: number, slotMs: number) =>
	`slot ${slot}${slotMs === SLOT_MS ? '' : ` of ${slotMs} ms`}`;
const claimText = (subject: string, slot: number, slotMs: number) =>
	`adCabinet claim|${subject}|${slotName(slot, slotMs)}`;
const doneText = (subject: string, slot: number, slotMs: number) =>
	`adCabinet done|${subject}|${slotName(slot, slotMs)}`;

export interface Claim {
	/** Whether this run holds the claim; false: another run holds it. */
	made: boolean;
	/** Whether a run finished the same write within the last slots (read the API again first). */
	recentlyDone: boolean;
	/** The write was made: the claim goes, and later runs of the slot know it was done. */
	done: () => Promise<void>;
	/** The write was not made: the claim goes. */
	release: () => Promise<void>;
}

const heldElsewhere: Claim = {
	made: false,
	recentlyDone: false,
	done: async () => undefined,
	release: async () => undefined,
};

interface ClaimOptions {
	/** How long a claim made waits before it is confirmed; none when unset. */
	settleMs?: number;
	/** The slot's length (2 minutes unless set). */
	slotMs?: number;
	clock?: Clock;
	/** Where the removals of this run are checked (a new one when unset). */
	tidy?: Tidy;
	/** Told each time a claim made was found dropped by an overlapping write. */
	onDropped?: (attempt: number) => void;
	/** Told when a claim's call failed once and is tried again. */
	onAgain?: (error: unknown) => void;
}

interface Attempt {
	made: boolean;
	recentlyDone: boolean;
	/** The texts this run keeps while it holds the claim. */
	kept: string[];
	/** This run's own text. */
	own: string;
}

async function attemptClaim(
	records: SharedRecords,
	subject: string,
	slotMs: number,
	clock: Clock,
	tidy: Tidy,
	onAgain?: (error: unknown) => void,
): Promise<Attempt> {
	const slot = Math.floor(clock.now() / slotMs);
	const mine = claimText(subject, slot, slotMs);
	const own = `${mine}|by ${randomUUID()}`;
	const claims = [mine, claimText(subject, slot - 1, slotMs)];
	const dones = [doneText(subject, slot, slotMs), doneText(subject, slot - 1, slotMs)];
	const witness = Tidy.witness();
	const texts = [...claims, ...dones, own, witness];
	let found: Set<string>;
	try {
		found = await records.testAndRecord(texts);
	} catch (error) {
		onAgain?.(error);
		await clock.sleep(AGAIN_AFTER_MS);
		found = await records.testAndRecord(texts);
		// The failed call's write landed before its answer was lost: what it found is unknown, and the
		// claim it recorded is this run's. Held, and the API is read again before the write.
		if (found.has(own)) return { made: true, recentlyDone: true, kept: [mine, own], own };
	}
	// A done text found may also be another claim's test of it: it only makes this run read again.
	const recentlyDone = dones.some((text) => found.has(text));
	const made = !claims.some((text) => found.has(text));
	const kept = made ? [mine, own] : [];
	// What this test recorded only to test it.
	await tidy.forget(
		records,
		texts.filter((text) => !found.has(text) && !kept.includes(text) && text !== witness),
		witness,
	);
	return { made, recentlyDone, kept, own };
}

/**
 * Claims the subject. With `settleMs`, a claim made is confirmed after that long (see above), and
 * claimed again, at most ATTEMPTS times in all, when an overlapping write dropped it. A claim held is
 * renewed each half slot until `done` or `release`. Throws when the records fail twice in a row.
 */
export async function claim(
	records: SharedRecords,
	subject: string,
	options: ClaimOptions = {},
): Promise<Claim> {
	const { settleMs, onDropped, onAgain } = options;
	const slotMs = options.slotMs ?? SLOT_MS;
	const clock = options.clock ?? realClock;
	const tidy = options.tidy ?? new Tidy(clock);
	for (let attempt = 1; ; attempt++) {
		const made = await attemptClaim(records, subject, slotMs, clock, tidy, onAgain);
		if (!made.made) return heldElsewhere;
		if (settleMs) {
			// A wait the clock will not take (a tool call out of time) lets go of the claim made first.
			await clock.sleep(settleMs).catch(async (error: unknown) => {
				await tidy.forget(
					records,
					made.kept.filter((text) => text !== made.own),
					made.own,
				);
				throw error;
			});
			const kept = (await records.testAndRecord([made.own])).has(made.own);
			if (!kept) {
				// Dropped by an overlapping write: the other run of this subject may hold the claim now.
				await records.forget([made.own]).catch(() => undefined);
				onDropped?.(attempt);
				if (attempt === ATTEMPTS) return heldElsewhere;
				continue;
			}
		}
		return held(records, subject, slotMs, clock, tidy, made);
	}
}

/** The claim this run holds: renewed each half slot until it is done or released. */
function held(
	records: SharedRecords,
	subject: string,
	slotMs: number,
	clock: Clock,
	tidy: Tidy,
	made: Attempt,
): Claim {
	const kept = [...made.kept];
	const since = clock.now();
	let over = false;
	// Ends the renewal's wait at once when the claim goes (where n8n's sleep takes a signal).
	const stop = new AbortController();
	void (async () => {
		for (;;) {
			if (
				!(await clock.sleep(slotMs / 2, stop.signal).then(
					() => true,
					() => false,
				))
			)
				return;
			if (over || clock.now() - since > KEEP_MAX_MS) return;
			const slot = Math.floor(clock.now() / slotMs);
			const renewed = [
				claimText(subject, slot, slotMs),
				`${claimText(subject, slot, slotMs)}|${made.own}`,
			];
			kept.push(...renewed.filter((text) => !kept.includes(text)));
			await records.testAndRecord(renewed).catch(() => undefined);
			if (over) await records.forget(renewed).catch(() => undefined);
		}
	})();
	// The own text is the witness of the release: a write that puts the claim back puts it back too.
	const release = async () => {
		over = true;
		stop.abort();
		await tidy.forget(
			records,
			kept.filter((text) => text !== made.own),
			made.own,
		);
	};
	return {
		made: true,
		recentlyDone: made.recentlyDone,
		release,
		// The done text is recorded before the claim goes: a run whose list read came just before the
		// write landed, and whose claim comes just after, then finds the claim or the done text and
		// reads the list again, never neither.
		done: async () => {
			try {
				await records.testAndRecord([doneText(subject, Math.floor(clock.now() / slotMs), slotMs)]);
			} finally {
				await release().catch(() => undefined);
			}
		},
	};
}
