/**
 * A manual run over REST, as the editor's "Execute workflow" button does it: the only way to run a
 * workflow that starts with a polling trigger for real (in `execute`'s CLI mode n8n passes a poll
 * node through without polling; in manual mode it polls once, as "Fetch Test Event" does), or one
 * that starts with a Schedule Trigger (`n8n execute` starts only from a Manual Trigger; here the
 * trigger fires once, as in the editor).
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { N8nRest } from './rest';
import type { N8nRuntime } from './runtime';
import { seconds } from './stage';
import type { Example, RunData, WorkflowNode } from './workflows';

interface ExecutionRecord {
	id: string;
	finished: boolean;
	mode: string;
	status: string;
	/** The run data, serialized with `flatted` (it may hold cycles). */
	data: string;
}

const RUNNING = new Set(['new', 'running', 'waiting', 'unknown']);

export async function runManually(
	runtime: N8nRuntime,
	rest: N8nRest,
	example: Example,
	trigger: WorkflowNode,
	timeoutMs = 120_000,
	/** Changes to the workflow the body carries (what n8n 1.x runs), as a user makes in the editor. */
	edit?: (workflow: Record<string, unknown>) => Record<string, unknown>,
): Promise<RunData> {
	// n8n 2.x runs the stored workflow; n8n 1.x wants it in the body, as its editor sends it.
	const stored = await rest.request<Record<string, unknown>>(
		'GET',
		`/rest/workflows/${example.id}`,
	);
	const workflowData = edit ? edit(stored) : stored;
	const started = await rest.request<{ executionId?: string; waitingForWebhook?: boolean }>(
		'POST',
		`/rest/workflows/${example.id}/run`,
		{ workflowData, triggerToStartFrom: { name: trigger.name } },
	);
	if (!started?.executionId) {
		throw new Error(`n8n did not start a run of ${example.file}: ${JSON.stringify(started)}`);
	}
	const flatted = require(join(runtime.modulesDir, 'flatted')) as { parse(text: string): unknown };
	const deadline = Date.now() + timeoutMs;
	let lastStatus = 'not saved';
	while (Date.now() < deadline) {
		let record: ExecutionRecord | undefined;
		try {
			record = await rest.request<ExecutionRecord>(
				'GET',
				`/rest/executions/${started.executionId}`,
			);
		} catch {
			// not saved yet
		}
		// n8n 1.x on SQLite writes an ended run's status and its data in two updates, not in one
		// transaction: between them the record says "success" and still holds the placeholder data.
		const data = record && !RUNNING.has(record.status) ? parsedRun(flatted, record) : undefined;
		if (record && data) return { status: record.status, mode: record.mode, data };
		if (record) lastStatus = record.status;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new Error(
		`execution ${started.executionId} of ${example.file} did not finish with its run data within ${timeoutMs / 1000}s (last status: ${lastStatus})`,
	);
}

/** A manual run that must succeed: prints the workflow's status, time and error, and asserts success. */
export async function runToSuccess(
	runtime: N8nRuntime,
	rest: N8nRest,
	flow: { example: Example; trigger: WorkflowNode },
): Promise<RunData> {
	const t = Date.now();
	const result = await runManually(runtime, rest, flow.example, flow.trigger);
	const error = result.data.resultData.error;
	console.log(
		`  ${flow.example.workflow.name}: ${result.status ?? '?'} in ${seconds(Date.now() - t)}${error ? ` (${error.message ?? ''}${error.description ? `: ${error.description}` : ''})` : ''}`,
	);
	assert.equal(result.status, 'success', `${flow.example.file} ended ${result.status}`);
	return result;
}

/** The run data of an ended execution record, or undefined while n8n has not written it yet. */
function parsedRun(
	flatted: { parse(text: string): unknown },
	record: ExecutionRecord,
): RunData['data'] | undefined {
	const data = flatted.parse(record.data) as RunData['data'] | undefined;
	return data?.resultData ? data : undefined;
}
