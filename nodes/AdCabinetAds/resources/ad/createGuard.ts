import type { IDataObject } from 'n8n-workflow';
import { isOutOfTime, type Clock } from '../../../shared/store/clock';
import { claim, type Claim } from '../../../shared/store/claims';
import { SETTLE_MS, type SharedRecords, type Tidy } from '../../../shared/store/records';

/**
 * What a create with Skip Identical does before its request, when two executions may create the
 * same ad at once (a schedule firing twice, a manual run meeting the scheduled one, a job run again
 * in queue mode), read top to bottom:
 * 1. the hold of this process: another execution here creating the same ad goes first;
 * 2. the ad list: an identical ad already there is this row's ad;
 * 3. the claim in n8n's shared records, for executions of the same node in other processes: when
 *    another run holds it, this run looks for that run's ad and stands back;
 * 4. the create is sent, and the claim goes when it has ended.
 * After the node's last write, one look at the list finds a twin made by a run that none of this
 * could see (another workflow, or a claim lost to an overlapping write): see twins.ts.
 */

/** What the guard may use, so that a test can run it on a store and an API of its own. */
export interface CreatePorts {
	/** n8n's shared records of this node, or undefined where n8n gives the node none. */
	records?: SharedRecords;
	clock: Clock;
	tidy: Tidy;
	/** Takes this process's hold of the ad; `waited`: another execution held it first. */
	hold: () => Promise<{ waited: boolean; release: () => void }>;
	/** An identical ad in the list; `fresh`: read again, not taken from this execution's reads. */
	findIdentical: (fresh: boolean) => Promise<IDataObject | undefined>;
	log: (what: string) => void;
}

export type CreateDecision =
	/** An identical ad exists (or was just made by another run): this row's ad. */
	| { skip: IDataObject }
	/** Another run holds the claim and its ad did not appear: nothing was sent. */
	| { pending: true }
	/** Send the create; `settle` hears how it ended (the ad made, or undefined when it failed). */
	| { send: true; settle: (made: boolean) => Promise<void> };

/**
 * When a run that stood back looks for the other run's ad in the list: a create takes a few seconds,
 * so the first look comes after 3 s, and 4 looks in 33 s spend little of the list's 10 requests a
 * minute, which the other run's own reads also draw on.
 */
export const APPEAR_WAITS_MS = [3_000, 6_000, 12_000, 12_000];

async function claimFor(
	ports: CreatePorts,
	identity: string,
): Promise<Claim | { outOfTime: Error } | undefined> {
	if (!ports.records) return undefined;
	try {
		return await claim(ports.records, `create|${identity}`, {
			// Confirmed after every write that overlapped it has landed: a second more per ad made, so
			// that the run whose claim was dropped stands back before its create, not after it.
			settleMs: SETTLE_MS,
			clock: ports.clock,
			tidy: ports.tidy,
			onDropped: (attempt) =>
				ports.log(
					`the claim to create an ad was dropped by another run's write of the same moment (attempt ${attempt}); claiming again`,
				),
			onAgain: (error) =>
				ports.log(
					`the claim to create an ad failed once (${error instanceof Error ? error.message : String(error)}); claiming again`,
				),
		});
	} catch (error) {
		// A tool call out of time answers now; nothing was sent.
		if (isOutOfTime(error)) return { outOfTime: error };
		// The records did not answer: the hold and the look after the create still apply.
		ports.log(
			`the claim to create an ad could not be made (${error instanceof Error ? error.message : String(error)}); creating with the hold and the look after the create only`,
		);
		return undefined;
	}
}

export async function guardCreate(ports: CreatePorts, identity: string): Promise<CreateDecision> {
	const hold = await ports.hold();
	let claimed: Claim | { outOfTime: Error } | undefined;
	let sending = false;
	try {
		// After waiting for another execution of this process, its ad may be in the list now.
		const there = await ports.findIdentical(hold.waited);
		if (there) return { skip: there };
		claimed = await claimFor(ports, identity);
		if (claimed && 'outOfTime' in claimed) throw claimed.outOfTime;
		for (const wait of APPEAR_WAITS_MS) {
			if (!claimed || claimed.made) break;
			// Another process is creating the same ad at this moment: its ad is this row's ad. Until it
			// appears, the claim is tried again, so that a run whose claim is gone (it failed, or its
			// release was lost) holds nobody back.
			await ports.clock.sleep(wait);
			const appeared = await ports.findIdentical(true);
			if (appeared) return { skip: appeared };
			claimed = await claimFor(ports, identity);
			if (claimed && 'outOfTime' in claimed) throw claimed.outOfTime;
		}
		if (claimed && !claimed.made) return { pending: true };
		if (claimed?.recentlyDone) {
			// A run made this ad within the last minutes: the list is read again (the ad may be there
			// now, or have been deleted since, and then it is made again).
			const made = await ports.findIdentical(true);
			if (made) return { skip: made };
		}
		sending = true;
		const mine = claimed && 'outOfTime' in claimed ? undefined : claimed;
		return {
			send: true,
			settle: async (made) => {
				try {
					if (made) await mine?.done().catch(() => undefined);
					else await mine?.release().catch(() => undefined);
				} finally {
					hold.release();
				}
			},
		};
	} finally {
		if (!sending) {
			// Decided without a create, or failed: nothing of this run holds anyone back.
			hold.release();
			if (claimed && 'release' in claimed) await claimed.release().catch(() => undefined);
		}
	}
}
