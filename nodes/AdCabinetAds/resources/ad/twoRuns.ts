import type { IExecuteSingleFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { clockWithin, isOutOfTime, realClock, type Clock } from '../../../shared/store/clock';
import { Tidy } from '../../../shared/store/records';
import { atEndOfWrites } from '../../../shared/endOfWrites';
import { perExecution } from '../../../shared/writes';
import { APPEAR_WAITS_MS } from './createGuard';
import { credentialViewOf } from '../../../shared/auth';
import { claim, type Claim } from '../../../shared/store/claims';
import { takeHold } from '../../../shared/store/holds';
import { sharedRecordsOf, type SharedRecords } from '../../../shared/store/records';
import { pacer, paceKey } from '../../../shared/transport/pacing';
import type { CredentialView } from '../../../shared/auth/credentialView';
import { callDeadline, deadlineMessage, type CallDeadline } from '../../../shared/callDeadline';

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

/** How long an update waits for another run's change of the same ad to end. */
const UPDATE_WAIT_MS = 20_000;
const UPDATE_LOOK_MS = 500;
/**
 * An update's claim covers one read of the ad and one PUT, seconds: in slots of 30 s it lapses
 * within a minute when its run stopped midway (a worker killed), so that the retry of that
 * execution, a minute later, finds the ad free instead of waiting on a claim nobody will let go.
 */
const UPDATE_SLOT_MS = 30_000;

interface Guarded {
	/** Whether this run had to wait for another run of this process first. */
	waited: boolean;
	/** Lets go of the hold (and of a claim that should not outlive the write). */
	release: () => Promise<void>;
}

async function holderOf(fx: IExecuteSingleFunctions): Promise<string> {
	return paceKey(fx.getNode(), await credentialViewOf(fx), '');
}

/**
 * This execution's checks that what its guards took out of the records stays out (records.ts). The
 * node's last write waits for them, and for the claims let go after them, so that nothing of the
 * execution is left running when it ends.
 */
export function tidyOf(fx: IExecuteSingleFunctions): Tidy {
	const table = perExecution<Tidy>(fx, 'tidy');
	let tidy = table.get('tidy');
	if (!tidy) {
		tidy = new Tidy(realClock);
		table.set('tidy', tidy);
	}
	const mine = tidy;
	atEndOfWrites(fx, 'tidy', async () => await mine.settled());
	return mine;
}

/**
 * The clock of the two-runs guards: in a tool call every wait draws on the call's one deadline, and
 * a wait past it answers at once, with `reason`, when to try again and what the call sent.
 */
export function guardClock(
	fx: IExecuteSingleFunctions,
	reason: string,
	tryAgainMs?: (waitMs: number) => number,
): Clock {
	const call = callDeadline(fx);
	if (!call) return realClock;
	return clockWithin(
		call.endsAt,
		(waitMs) =>
			new NodeOperationError(
				fx.getNode(),
				deadlineMessage(call, reason, tryAgainMs?.(waitMs) ?? Math.max(waitMs, 1_000)),
				{ itemIndex: fx.getItemIndex() },
			),
	);
}

/** The shared records, or undefined where n8n gives the node none (the hold still works). */
export function recordsOrNone(fx: IExecuteSingleFunctions): SharedRecords | undefined {
	try {
		return sharedRecordsOf(fx);
	} catch {
		return undefined;
	}
}

/** The hold of this process for creating an ad of this identity. */
export async function holdCreate(fx: IExecuteSingleFunctions, identity: string): Promise<Guarded> {
	const call = callDeadline(fx);
	// A tool call waits for another execution's create of the same ad only within its deadline;
	// a create takes a few seconds, so it is tried again after 5.
	const hold = await takeHold(
		`${await holderOf(fx)}|create|${identity}`,
		HOLD_MAX_MS,
		call && {
			endsAt: call.endsAt,
			tooLong: () =>
				new NodeOperationError(
					fx.getNode(),
					deadlineMessage(
						call,
						'The ad was not created: another execution is creating the same ad at this moment (two runs at once)',
						5_000,
					),
					{ itemIndex: fx.getItemIndex() },
				),
		},
	);
	return { waited: hold.waitedMs > 0, release: async () => hold.release() };
}

/**
 * The claim across processes to change one ad: when another run holds it, looked at again every
 * half second for up to 20 s. Throws when the records do not answer.
 */
export async function claimUpdate(
	records: SharedRecords,
	adId: string,
	clock: Clock,
	tidy: Tidy,
): Promise<Claim & { waited: boolean }> {
	const until = clock.now() + UPDATE_WAIT_MS;
	let waited = false;
	for (;;) {
		const claimed = await claim(records, `update|${adId}`, { slotMs: UPDATE_SLOT_MS, clock, tidy });
		if (claimed.made || clock.now() >= until) return { ...claimed, waited };
		waited = true;
		await clock.sleep(UPDATE_LOOK_MS);
	}
}

/**
 * A tool call that would wait past its deadline for another execution's change of the same ad:
 * when to try again is when the ad's path takes a request after those queued on it (the other run
 * waits there, and its change then takes a few seconds), and at least a few seconds.
 */
function busyUpdate(
	fx: IExecuteSingleFunctions,
	call: CallDeadline,
	adId: string,
	view: CredentialView,
	adPath: string | undefined,
): NodeOperationError {
	const pathWait =
		adPath !== undefined && view.pace
			? pacer.waitFor(paceKey(fx.getNode(), view, adPath), view.pace)
			: 0;
	return new NodeOperationError(
		fx.getNode(),
		deadlineMessage(
			call,
			`Ad ${adId} was not changed: another execution of this workflow is changing the same ad at this moment (two runs at once)`,
			Math.max(5_000, pathWait + 2_000),
		),
		{ itemIndex: fx.getItemIndex() },
	);
}

/**
 * The hold of this process and the claim across processes for changing one ad: the later run waits
 * for the earlier one's PUT to end, then reads the ad again, so that each bound holds against the
 * value the API had when its PUT was sent. A tool call waits for the hold only within its deadline.
 */
export async function holdUpdate(
	fx: IExecuteSingleFunctions,
	adId: string,
	adPath?: string,
): Promise<Guarded> {
	const view = await credentialViewOf(fx);
	const call = callDeadline(fx);
	const hold = await takeHold(
		`${paceKey(fx.getNode(), view, '')}|update|${adId}`,
		HOLD_MAX_MS,
		call && { endsAt: call.endsAt, tooLong: () => busyUpdate(fx, call, adId, view, adPath) },
	);
	const records = recordsOrNone(fx);
	let claimed: (Claim & { waited: boolean }) | undefined;
	let waited = hold.waitedMs > 0;
	if (records) {
		let outOfTime: Error | undefined;
		const clock = guardClock(
			fx,
			`Ad ${adId} was not changed: another run is changing the same ad at this moment (two runs at once)`,
			() => 5_000,
		);
		claimed = await claimUpdate(records, adId, clock, tidyOf(fx)).catch((error: unknown) => {
			// A tool call out of time answers now; other failures of the records are worked around.
			if (isOutOfTime(error)) outOfTime = error;
			return undefined;
		});
		if (outOfTime) {
			hold.release();
			throw outOfTime;
		}
		waited ||= claimed?.waited ?? false;
		if (claimed && !claimed.made) {
			hold.release();
			throw new NodeOperationError(
				fx.getNode(),
				`Ad ${adId} was not changed: another run of this workflow has been changing the same ad for over ${UPDATE_WAIT_MS / 1000} s (two executions at once). No write was sent, so nothing changed. A run that stopped midway holds the ad for a minute at most: running this again in a minute is safe.`,
				{ itemIndex: fx.getItemIndex() },
			);
		}
	}
	const tidy = tidyOf(fx);
	return {
		waited,
		release: async () => {
			hold.release();
			if (claimed) letGoOfUpdate(claimed, tidy);
		},
	};
}

/**
 * Lets go of an update's claim once this run's checks of what it took out of the records have ended
 * (a second or so, in the background): until then a text this run tested, such as the mark of a day
 * it found not open, may be taken out again, and the next run to change the ad, waiting for the
 * claim, must not have written it by then.
 */
export function letGoOfUpdate(claimed: Claim, tidy: Tidy): void {
	tidy.afterChecks(async () => await claimed.release());
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
		`Ad made twice: this run (execution ${fx.getExecutionId()}) created ad ${String(mine)}, and another run (of this workflow or another one) created ad ${others} with the same campaign, title, promote URL and text at the same moment. Both ads exist: delete one of them in the cabinet, or its budget is spent twice. Do not run this row again until one is deleted; a run after that skips the ad that is left.`,
		{
			itemIndex: fx.getItemIndex(),
			description:
				'Two runs checked the ad list before either ad existed and both created it; the list read after the creates found both. See "When two runs meet" in the production guide.',
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

/** The error of an ad made whose look for a twin, after the node's last write, could not be read. */
export function lookFailed(
	fx: IExecuteSingleFunctions,
	made: unknown,
	error: unknown,
	itemIndex: number,
): NodeOperationError {
	const why = error instanceof Error ? error.message : String(error);
	return new NodeOperationError(
		fx.getNode(),
		`Ad ${String(made)} was created, but the ad list could not be read afterwards to make sure no other run created the same ad at the same moment (${why}). The ad exists: look in the cabinet for another ad with the same campaign, title, promote URL and text, and delete one if there are two. Running this row again is safe: it skips the ad that exists.`,
		{ itemIndex },
	);
}
