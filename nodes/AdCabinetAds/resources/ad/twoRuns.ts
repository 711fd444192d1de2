import type { IExecuteSingleFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';
import { credentialViewOf } from '../../../shared/auth';
import { claim, type Claim } from '../../../shared/store/claims';
import { takeHold } from '../../../shared/store/holds';
import { sharedRecordsOf, type SharedRecords } from '../../../shared/store/records';
import { paceKey } from '../../../shared/transport/pacing';

/**
 * When two executions write the same ad at once: n8n may start one workflow twice at the same
 * instant (a schedule firing twice, a manual run meeting the scheduled one, a webhook called twice,
 * a job re-run in queue mode), and each would read the ad list, find nothing and create.
 *
 * In one process a hold makes the later run wait until the earlier one's write has settled; across
 * processes a claim in n8n's shared records makes it stand back (see claims.ts).
 */

/** A hold covers one item's reads and write, and never lasts longer than this. */
const HOLD_MAX_MS = 5 * 60_000;

/**
 * When a run that stood back looks for the other run's ad in the list: a create takes a few seconds,
 * so the first look comes after 3 s, and 4 looks in 33 s spend little of the list's 10 requests a
 * minute, which the other run's own reads also draw on.
 */
export const APPEAR_WAITS_MS = [3_000, 6_000, 12_000, 12_000];

/**
 * How long a create's claim settles before it is trusted (see claims.ts). Two claims of the same
 * moment overlap when each run reads the record row before the other writes it; each call is a read
 * and a write of a few milliseconds, so after a second every overlapping write has landed, with room
 * for a worker busy with other executions. A second more per ad made, so that the run whose claim
 * was dropped stands back before its create rather than finding the twin after it. An update's
 * claim takes none: two changes of one ad at once end at one of the asked values anyway, and the
 * CPM rule changes many ads an hour.
 */
const CREATE_SETTLE_MS = 1_000;

/** How long an update waits for another run's change of the same ad to end. */
const UPDATE_WAIT_MS = 20_000;
const UPDATE_LOOK_MS = 500;
/**
 * An update's claim covers one read of the ad and one PUT, seconds: in slots of 30 s it lapses
 * within a minute when its run stopped midway (a worker killed), so that the retry of that
 * execution, a minute later, finds the ad free instead of waiting on a claim nobody will let go.
 */
const UPDATE_SLOT_MS = 30_000;

export interface Guarded {
	/** Whether this run had to wait for another run of this process first. */
	waited: boolean;
	/** Lets go of the hold (and of a claim that should not outlive the write). */
	release: () => Promise<void>;
}

async function holderOf(fx: IExecuteSingleFunctions): Promise<string> {
	return paceKey(fx.getNode(), await credentialViewOf(fx), '');
}

/** The shared records, or undefined where n8n gives the node none (the hold still works). */
function recordsOrNone(fx: IExecuteSingleFunctions): SharedRecords | undefined {
	try {
		return sharedRecordsOf(fx);
	} catch {
		return undefined;
	}
}

/** The hold of this process for creating an ad of this identity. */
export async function holdCreate(fx: IExecuteSingleFunctions, identity: string): Promise<Guarded> {
	const hold = await takeHold(`${await holderOf(fx)}|create|${identity}`, HOLD_MAX_MS);
	return { waited: hold.waitedMs > 0, release: async () => hold.release() };
}

/** The claim, across every n8n process, to create an ad of this identity now. */
export async function claimCreate(
	fx: IExecuteSingleFunctions,
	identity: string,
): Promise<Claim | undefined> {
	const records = recordsOrNone(fx);
	if (!records) return undefined;
	try {
		const log = (what: string) =>
			fx.logger.debug(`Ad Cabinet: ${what}`, { executionId: fx.getExecutionId() });
		return await claim(records, `create|${identity}`, Date.now(), undefined, {
			settleMs: CREATE_SETTLE_MS,
			onDropped: (attempt) =>
				log(
					`the claim to create an ad was dropped by another run's write of the same moment (attempt ${attempt}); claiming again`,
				),
			onAgain: (error) =>
				log(
					`the claim to create an ad failed once (${error instanceof Error ? error.message : String(error)}); claiming again`,
				),
		});
	} catch {
		// The records did not answer: the hold and the twin check after the create still apply.
		return undefined;
	}
}

/**
 * The hold of this process and the claim across processes for changing one ad: the later run waits
 * for the earlier one's PUT to end, then reads the ad again, so that each bound holds against the
 * value the API had when its PUT was sent.
 */
export async function holdUpdate(fx: IExecuteSingleFunctions, adId: string): Promise<Guarded> {
	const hold = await takeHold(`${await holderOf(fx)}|update|${adId}`, HOLD_MAX_MS);
	const records = recordsOrNone(fx);
	let claimed: Claim | undefined;
	let waited = hold.waitedMs > 0;
	if (records) {
		const until = Date.now() + UPDATE_WAIT_MS;
		try {
			for (;;) {
				claimed = await claim(records, `update|${adId}`, Date.now(), UPDATE_SLOT_MS);
				if (claimed.made || Date.now() >= until) break;
				waited = true;
				await sleep(UPDATE_LOOK_MS);
			}
		} catch {
			claimed = undefined;
		}
		if (claimed && !claimed.made) {
			hold.release();
			throw new NodeOperationError(
				fx.getNode(),
				`Ad ${adId} was not changed: another run of this workflow has been changing the same ad for over ${UPDATE_WAIT_MS / 1000} s (two executions at once). No write was sent, so nothing changed. A run that stopped midway holds the ad for a minute at most: running this again in a minute is safe.`,
				{ itemIndex: fx.getItemIndex() },
			);
		}
	}
	return {
		waited,
		release: async () => {
			hold.release();
			await claimed?.release().catch(() => undefined);
		},
	};
}

/** The error of an ad made twice: this run made one, another run at the same moment the other. */
export function madeTwice(
	fx: IExecuteSingleFunctions,
	mine: unknown,
	twins: unknown[],
): NodeOperationError {
	const others = twins.map(String).join(', ');
	return new NodeOperationError(
		fx.getNode(),
		`Ad made twice: this run (execution ${fx.getExecutionId()}) created ad ${String(mine)}, and another execution of this workflow created ad ${others} with the same campaign, title, promote URL and text at the same moment. Delete one of them in the cabinet, or its budget is spent twice. This run creates nothing more; do not run this row again until one is deleted.`,
		{
			itemIndex: fx.getItemIndex(),
			description:
				'Two executions ran at once and both checked the ad list before either ad existed. See "When two runs meet" in the production guide.',
		},
	);
}

/** The error of a run that stood back for another run whose ad did not appear. */
export function otherRunPending(fx: IExecuteSingleFunctions, title: string): NodeOperationError {
	const waited = APPEAR_WAITS_MS.reduce((sum, ms) => sum + ms, 0) / 1000;
	return new NodeOperationError(
		fx.getNode(),
		`Ad "${title}" was not created by this run: another execution of this workflow started creating the same ad (same campaign, title, promote URL and text) at the same moment, and its ad did not appear in the ad list within ${waited} s. This run created nothing. If that run failed, run this row again after 4 minutes: repeating is safe, an ad that exists by then is skipped.`,
		{ itemIndex: fx.getItemIndex() },
	);
}
