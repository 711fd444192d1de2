/**
 * What an operator (or an Error Trigger workflow) does in n8n once a fault is over: retry, with
 * n8n's own retry over its REST API (POST /rest/executions/:id/retry, the editor's "Retry with
 * original workflow"), every execution whose process died under it (status `crashed`, or one the
 * stage killed). Such an execution carried work no later run redoes: a Stats Trigger poll had
 * already emitted its rows and moved the trigger's state on, so its rows, restatements of older
 * hours included, reach the stores only through the retry. The retry runs the rows it carried
 * through the rest of the workflow. An execution that failed in a node (the API down, a refused
 * password) is not retried: the trigger kept its state and the sync re-reads its window, so the
 * next run does its work.
 */
import { REAL_RATE_LIMIT as RATE_LIMIT } from '../../sandbox';
import { restCall } from './inject';
import { FINISHED, settle, type ExecutionRow, type Executions } from './executions';
import type { FaultRecord } from './faults';
import type { SimClock } from './clock';
import { wake, type Month } from './setup';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** n8n marks a dead worker's job failed once Bull's lock on it ran out and a stalled check ran. */
const CRASH_NOTICED_MS = 240_000;

/** The executions of `fault` whose process died, once n8n has marked them ended. */
async function crashedOf(
	fault: FaultRecord,
	executions: Executions,
): Promise<{ crashed: ExecutionRow[]; unnoticed: number[] }> {
	const inFault = (e: ExecutionRow) => e.createdAt >= fault.fromMs && e.createdAt < fault.toMs;
	const deadline = Date.now() + CRASH_NOTICED_MS;
	for (;;) {
		const all = await executions.refresh();
		const killed = all.filter((e) => executions.abandoned.has(e.id) && inFault(e));
		const unnoticed = killed.filter((e) => !FINISHED.has(e.status)).map((e) => e.id);
		if (!unnoticed.length || Date.now() > deadline) {
			const crashed = all.filter(
				(e) =>
					inFault(e) &&
					e.mode !== 'retry' &&
					(e.status === 'crashed' || (executions.abandoned.has(e.id) && e.status === 'error')),
			);
			return { crashed, unnoticed };
		}
		await sleep(1_000);
	}
}

/**
 * Retries the crashed executions of a fault whose last step has settled, and waits for the
 * retries to end as an hourly step does (pacing included). Returns what was done, for the report.
 */
export async function retryCrashed(
	m: Month,
	fault: FaultRecord,
	executions: Executions,
	clock: SimClock,
): Promise<string[]> {
	const { crashed, unnoticed } = await crashedOf(fault, executions);
	const out = unnoticed.map((id) => `execution ${id} still not marked ended; not retried`);
	if (!crashed.length) return out;
	// The operator retries a minute later at the earliest: the dead process's requests have then
	// left the API's rate window, which the retry's process, new to them, cannot know of.
	clock.jumpTo(clock.now() + RATE_LIMIT.windowSeconds * 1000 + 1_000);
	wake(m);
	const before = executions.lastId;
	const requestsBefore = m.sandbox.requests.length;
	const asked = crashed.map(async (e) => {
		try {
			await restCall(m, 'POST', `/rest/executions/${e.id}/retry`, { loadWorkflow: false }, 300_000);
			return undefined;
		} catch (error) {
			return `retry of #${e.id} refused: ${(error as Error).message}`;
		}
	});
	const outcome = await settle(executions, clock, before, {
		due: [...new Set(crashed.map((e) => e.workflowId))],
		triggerId: m.flows.trigger.id,
		requestsBefore,
		requests: m.sandbox.requests,
		timeoutMs: 180_000,
		wake: () => wake(m),
		pacedFlowId: m.flows.ads.id,
	});
	for (const refused of await Promise.all(asked)) if (refused) out.push(refused);
	const retries = executions.since(before).filter((e) => e.mode === 'retry');
	const nameOf = (id: string) => Object.entries(m.flows).find(([, f]) => f.id === id)?.[0] ?? id;
	for (const e of crashed) out.push(`${nameOf(e.workflowId)} #${e.id} ${e.status} retried`);
	out.push(
		`retries ${retries.map((r) => `#${r.id} ${r.status}`).join(', ') || 'none listed'}${outcome.timedOut ? `; did not settle: ${outcome.waitingFor.join(', ')}` : ''}`,
	);
	return out;
}
