import type { IExecuteSingleFunctions } from 'n8n-workflow';
import { perExecution } from './writes';

/**
 * Work a node's writes leave for after the last write of its execution, so that one look covers
 * every item (one read of the ad list for every ad made, instead of one per ad). The items of a
 * write go out one at a time in their order (see writeTurn), so when the last of them has ended no
 * other write of the execution is still to come. An item whose outcome depends on that work waits
 * for it after its own write has ended, and fails with what it found.
 */
interface Pending {
	/** The work to run after the last write, by name (one per kind of look). */
	runners: Map<string, () => Promise<void>>;
	/** What each item waits for, by item index. */
	waits: Map<number, Array<Promise<void>>>;
}

function pendingOf(fx: IExecuteSingleFunctions): Pending {
	const table = perExecution<Pending>(fx, 'endOfWrites');
	let pending = table.get('pending');
	if (!pending) {
		pending = { runners: new Map(), waits: new Map() };
		table.set('pending', pending);
	}
	return pending;
}

/** Runs `runner` once after the execution's last write (a second call with the same name adds nothing). */
export function atEndOfWrites(
	fx: IExecuteSingleFunctions,
	name: string,
	runner: () => Promise<void>,
): void {
	const { runners } = pendingOf(fx);
	if (!runners.has(name)) runners.set(name, runner);
}

/** The item's outcome waits for `outcome`, which fails the item when it rejects. */
export function itemWaitsFor(fx: IExecuteSingleFunctions, outcome: Promise<void>): void {
	const { waits } = pendingOf(fx);
	const index = fx.getItemIndex();
	outcome.catch(() => undefined);
	waits.set(index, [...(waits.get(index) ?? []), outcome]);
}

/** Called when an item's write has ended: runs the work left when it was the last one. */
export async function writeEnded(fx: IExecuteSingleFunctions, last: boolean): Promise<void> {
	if (!last) return;
	const { runners } = pendingOf(fx);
	const now = [...runners.values()];
	runners.clear();
	for (const runner of now) await runner().catch(() => undefined);
}

/** Waits for what the item's outcome depends on; throws what fails it. */
export async function itemOutcome(fx: IExecuteSingleFunctions): Promise<void> {
	const { waits } = pendingOf(fx);
	const index = fx.getItemIndex();
	const mine = waits.get(index) ?? [];
	waits.delete(index);
	for (const outcome of mine) await outcome;
}
