import type { IExecuteSingleFunctions, INode } from 'n8n-workflow';
import { letNextGuardGo, writeTurn } from '../../../nodes/shared/writeTurn';

const node = { name: 'Ads', type: 'adCabinetAds', typeVersion: 1.3 } as INode;

describe('writeTurn', () => {
	const nodeContext = {};
	/** An item of a node run; every run of the node in one execution shares the node's context. */
	const item = (itemIndex: number, continueOnFail = false) =>
		({
			getContext: () => nodeContext,
			getItemIndex: () => itemIndex,
			getNode: () => node,
			continueOnFail: () => continueOnFail,
		}) as unknown as IExecuteSingleFunctions;
	/** The items of a run of its own (a fresh node context), without Continue On Fail. */
	const itemsOfNewRun = () => {
		const ctx = {};
		return (itemIndex: number) =>
			({
				getContext: () => ctx,
				getItemIndex: () => itemIndex,
				getNode: () => node,
				continueOnFail: () => false,
			}) as unknown as IExecuteSingleFunctions;
	};
	const outcome = (turn: ReturnType<typeof writeTurn>) =>
		turn.wait().then(
			() => 'sent',
			(error: Error) => error.message,
		);

	test('an item waits for the one before; a failed one stops the items after it in that run only', async () => {
		const first = writeTurn(item(0));
		const second = writeTurn(item(1));
		const third = writeTurn(item(2));
		const order: string[] = [];
		const secondGoes = outcome(second).then((result) => order.push(`second ${result}`));
		await first.wait();
		order.push('first sent');
		await first.done(false);
		await secondGoes;
		await second.done(true);
		expect(order[0]).toBe('first sent');
		expect(order[1]).toMatch(/^second Item 2 was not sent: the write of an item before it failed/);
		expect(await outcome(third)).toMatch(/^Item 3 was not sent/);
		await third.done(true);

		// The next run of the node (an AI agent's next tool call) starts afresh.
		const nextRun = writeTurn(item(0));
		expect(await outcome(nextRun)).toBe('sent');
	});

	test('with Continue On Fail the items after a failed one are still sent', async () => {
		const first = writeTurn(item(0, true));
		const second = writeTurn(item(1, true));
		await first.wait();
		await first.done(false);
		expect(await outcome(second)).toBe('sent');
	});
	test("an item's guard starts when the guard before lets it go; its write still waits for the write before", async () => {
		const at = itemsOfNewRun();
		const first = writeTurn(at(0));
		const second = writeTurn(at(1));
		const order: string[] = [];
		await first.guardWait();
		order.push('first guard');
		const secondGoes = (async () => {
			await second.guardWait();
			order.push('second guard');
			await second.wait();
			order.push('second write');
			await second.done(true);
		})();
		await Promise.resolve();
		// The first guard now only waits (its day record's confirmation): the second guard may read.
		letNextGuardGo(at(0));
		await new Promise((resolve) => setImmediate(resolve));
		expect(order).toEqual(['first guard', 'second guard']);
		await first.wait();
		order.push('first write');
		await first.done(true);
		await secondGoes;
		expect(order).toEqual(['first guard', 'second guard', 'first write', 'second write']);
		expect(second.isLast()).toBe(true);
	});

	test('without a let-go, the next guard waits for the write before to end', async () => {
		const at = itemsOfNewRun();
		const first = writeTurn(at(0));
		const second = writeTurn(at(1));
		let secondGuarded = false;
		const secondGoes = second.guardWait().then(() => (secondGuarded = true));
		await first.wait();
		await new Promise((resolve) => setImmediate(resolve));
		expect(secondGuarded).toBe(false);
		await first.done(false);
		// The write before failed without Continue On Fail: the next item does not even start its guard.
		await expect(secondGoes).rejects.toThrow(/^Item 2 was not sent/);
	});
});
