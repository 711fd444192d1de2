import type { IExecuteSingleFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { deferred, perExecution } from './writes';

/**
 * n8n's routing node starts the requests of all input items at once. Writes take turns instead, in
 * the order of the items: ads are created in row order, and when a write fails (without Continue On
 * Fail) the writes after it are not sent, so a failed run leaves a clear line between the rows sent
 * and the rows not sent.
 *
 * An item's turn has two parts. Its guard (the reads and checks before its write) starts when the
 * guard of the item before has ended, and its write goes when the write of the item before has
 * ended. A guard ends when its item's write has ended, unless it lets the next guard go earlier:
 * a guard whose only work left is a wait (a day record's confirmation a second after it was
 * written) lets the next item's guard do its reads meanwhile, so the items of one run do not wait
 * out a second each in turn. The writes still go one at a time, in order.
 */
export interface WriteTurn {
	/** Waits for the guard of the item before; throws when that item failed and Continue On Fail is off. */
	guardWait(): Promise<void>;
	/** Lets the guard of the item after start now: this item's guard has only a wait left. */
	letNextGuardGo(): void;
	/** Waits for the write of the item before; throws when that write failed and Continue On Fail is off. */
	wait(): Promise<void>;
	/**
	 * Marks this item as ended, once the item before has ended, so the item after may go. Call it
	 * whether or not this item reached its write.
	 */
	done(ok: boolean): Promise<void>;
	/** Whether no item after this one has taken a turn: its write is the execution's last. */
	isLast(): boolean;
}

/**
 * The turn of this item. Must be called before the item's first await, which is when items arrive
 * in their order.
 */
export function writeTurn(fx: IExecuteSingleFunctions): WriteTurn {
	const turns = perExecution<Promise<boolean>>(fx, 'writeTurns');
	// The first item starts a new run of the node (an AI agent's next tool call is one), whose writes
	// do not wait on, nor stop for, a failure of the run before.
	const first = fx.getItemIndex() === 0;
	const before = (!first && turns.get('last')) || Promise.resolve(true);
	const guardBefore = (!first && turns.get('lastGuard')) || Promise.resolve(true);
	const mine = deferred<boolean>();
	const myGuard = deferred<boolean>();
	turns.set('last', mine.promise);
	turns.set('lastGuard', myGuard.promise);
	const stopIfFailed = (earlierOk: boolean) => {
		if (!earlierOk && !fx.continueOnFail())
			throw new NodeOperationError(
				fx.getNode(),
				`Item ${fx.getItemIndex() + 1} was not sent: the write of an item before it failed, and without Continue On Fail the writes after a failed one are stopped. Nothing was sent for this item, so repeating it is safe; fix the failed item and run again.`,
				{ itemIndex: fx.getItemIndex() },
			);
	};
	const turn: WriteTurn = {
		guardWait: async () => stopIfFailed(await guardBefore),
		letNextGuardGo: () => myGuard.resolve(true),
		wait: async () => stopIfFailed(await before),
		done: async (ok) => {
			const earlierOk = await before;
			mine.resolve(earlierOk && ok);
			myGuard.resolve(earlierOk && ok);
		},
		isLast: () => turns.get('last') === mine.promise,
	};
	perExecution<WriteTurn>(fx, 'turnOfItem').set(String(fx.getItemIndex()), turn);
	return turn;
}

/** Lets the guard of the item after this one start now (see WriteTurn); nothing for a read. */
export function letNextGuardGo(fx: IExecuteSingleFunctions): void {
	perExecution<WriteTurn>(fx, 'turnOfItem').get(String(fx.getItemIndex()))?.letNextGuardGo();
}
