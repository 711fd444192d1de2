/**
 * The polls of each trigger that are under way in this n8n process.
 *
 * n8n starts a poll at every poll time whether or not the previous poll of the trigger has ended,
 * and a poll that waits for the rate limit (or for a renewed token) can outlast the interval. Two
 * polls of one trigger at once would both read the same stored state and emit the same rows twice;
 * a backlog of waiting polls would also grow without end when each minute asks for more requests
 * than the limit allows. So a poll that finds the previous one still under way gives way: it sends
 * nothing and emits nothing, and the next poll reads on from the stored state, so no row is lost.
 *
 * n8n runs all polls of an active workflow in one process (main, or the leader of several mains),
 * so what this process knows is all there is to know.
 */
const underWay = new Map<string, { startedAt: number }>();

/**
 * After this long a poll is taken as lost and no longer holds the next one back: a run may take at
 * most 30 minutes, its renewal 5 more.
 */
export const LOST_POLL_MS = 40 * 60_000;

/**
 * Claims the trigger for one poll. Returns the function that ends the claim, or undefined when a
 * poll of the same trigger is still under way (then this poll must give way).
 */
export function claimPoll(trigger: string, now = Date.now()): (() => void) | undefined {
	const current = underWay.get(trigger);
	if (current && now - current.startedAt < LOST_POLL_MS) return undefined;
	const claim = { startedAt: now };
	underWay.set(trigger, claim);
	return () => {
		// A poll taken as lost that ends late must not end the claim of the poll after it.
		if (underWay.get(trigger) === claim) underWay.delete(trigger);
	};
}

/** Which trigger a poll belongs to: its workflow and its node (a workflow may hold several). */
export function triggerKey(
	workflowId: string | undefined,
	nodeId: string,
	nodeName: string,
): string {
	return `${workflowId ?? ''}\u0000${nodeId || nodeName}`;
}
