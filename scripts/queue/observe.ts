/**
 * What the queue stage watches while n8n runs: the triggers' polls as the sandbox saw them, and
 * afterwards the executions, the triggers' stored state and the CSV files, over n8n's REST API.
 */
import type { Sandbox } from '../../sandbox';
import type { N8nRest } from '../lib/rest';
import type { N8nRuntime } from '../lib/runtime';
import { itemsOf } from '../lib/workflows';
import {
	binaryText,
	listExecutions,
	readExecution,
	sleep,
	UNFINISHED,
	type Execution,
} from '../lib/executions';
import { clock, type Observed, type TriggerObserved } from './checks';
import { pollsOf } from '../lib/statsRows';
import { NAMES, TRIGGER_UNIT } from '../lib/statsWorkflows';

/** The trigger's state in the workflow's static data (pollState.ts: `wm` is its watermark). */
function watermarkOf(staticData: unknown): number | undefined {
	const node = (staticData as Record<string, { adCabinetStats?: { wm?: unknown } }> | undefined)?.[
		`node:${NAMES.trigger}`
	];
	const wm = node?.adCabinetStats?.wm;
	return typeof wm === 'number' ? wm : undefined;
}

interface TriggerFlow {
	currency: string;
	id: string;
}

/**
 * Waits until each trigger has polled at least 3 times and has an execution from a poll after the
 * first (a period completed while polling), all of them finished. Prints each poll.
 */
export async function waitForPolls(
	rest: N8nRest,
	sandbox: Sandbox,
	triggers: TriggerFlow[],
	deadline: number,
): Promise<{ met: boolean; polls: number[] }> {
	const shown = triggers.map(() => 0);
	const runs = triggers.map(() => 0);
	let lastList = 0;
	for (;;) {
		const polls = triggers.map((t) => pollsOf(sandbox.requests, TRIGGER_UNIT, t.currency));
		triggers.forEach((trigger, i) => {
			for (const poll of polls[i].slice(shown[i])) {
				console.log(
					`  ${trigger.currency} poll ${polls[i].indexOf(poll) + 1} at ${clock(poll.at)} (main's clock), window from ${clock(poll.from)}`,
				);
			}
			shown[i] = polls[i].length;
		});
		const enough = polls.every((p) => p.length >= 3);
		if (Date.now() - lastList >= 5_000 || enough) {
			lastList = Date.now();
			let done = true;
			for (const [i, trigger] of triggers.entries()) {
				const list = await listExecutions(rest, trigger.id);
				if (list.length !== runs[i]) {
					runs[i] = list.length;
					console.log(
						`  ${runs[i]} execution(s) of the ${trigger.currency} trigger workflow so far`,
					);
				}
				done &&= runs[i] >= 2 && list.every((e) => !UNFINISHED.has(e.status));
			}
			if (enough && done) {
				// Let the last poll store its state and hand over its execution.
				await sleep(5_000);
				return { met: true, polls: polls.map((p) => p.length) };
			}
		}
		if (Date.now() > deadline) return { met: false, polls: polls.map((p) => p.length) };
		await sleep(2_000);
	}
}

/** Reads executions, static data and CSV files; again if a trigger polled meanwhile. */
export async function observe(
	runtime: N8nRuntime,
	rest: N8nRest,
	sandbox: Sandbox,
	triggers: TriggerFlow[],
	scheduledId: string,
): Promise<Observed> {
	const pollCount = () =>
		triggers.map((t) => pollsOf(sandbox.requests, TRIGGER_UNIT, t.currency).length).join();
	const read = async (workflowId: string): Promise<Execution[]> => {
		// A paced run that met an expired token can take half a minute on a loaded machine.
		const deadline = Date.now() + 120_000;
		let list = await listExecutions(rest, workflowId);
		while (list.some((e) => UNFINISHED.has(e.status)) && Date.now() < deadline) {
			await sleep(1_000);
			list = await listExecutions(rest, workflowId);
		}
		const runs: Execution[] = [];
		for (const summary of list.sort((a, b) => Number(a.id) - Number(b.id))) {
			runs.push(await readExecution(runtime, rest, summary.id));
		}
		return runs;
	};
	for (let attempt = 1; ; attempt++) {
		const before = pollCount();
		const observedTriggers: TriggerObserved[] = [];
		for (const trigger of triggers) {
			const polls = pollsOf(sandbox.requests, TRIGGER_UNIT, trigger.currency);
			const workflow = await rest.request<{ staticData?: unknown }>(
				'GET',
				`/rest/workflows/${trigger.id}`,
			);
			observedTriggers.push({
				currency: trigger.currency,
				polls,
				watermark: watermarkOf(workflow.staticData),
				staticData: workflow.staticData,
				runs: await read(trigger.id),
			});
		}
		const scheduledRuns = await read(scheduledId);
		if (pollCount() !== before && attempt < 3) {
			console.log('  a trigger polled while reading; reading again');
			await sleep(5_000);
			continue;
		}
		const csv = new Map<string, string>();
		const csvErrors = new Map<string, string>();
		for (const execution of scheduledRuns) {
			const id = itemsOf(execution.run, NAMES.csv)?.[0]?.binary?.data?.id;
			try {
				if (!id) throw new Error('no binary "data" on the first item');
				csv.set(execution.summary.id, await binaryText(rest, id));
			} catch (error) {
				csvErrors.set(execution.summary.id, (error as Error).message);
			}
		}
		return { triggers: observedTriggers, scheduledRuns, csv, csvErrors };
	}
}
