/**
 * Execution records as n8n's REST API gives them to the editor: the list (paged by cursor, at most
 * 100 a page) and one record with its run data (serialized with `flatted`).
 */
import { join } from 'node:path';
import type { N8nRest } from './rest';
import type { N8nRuntime } from './runtime';
import { seconds } from './stage';
import type { RunData } from './workflows';

export interface ExecutionSummary {
	id: string;
	workflowId: string;
	mode: string;
	status: string;
	createdAt: string;
	startedAt: string | null;
	stoppedAt: string | null;
}

interface ExecutionPage {
	results: ExecutionSummary[];
	nextCursor?: string | null;
	count: number;
}

interface ExecutionRecord extends ExecutionSummary {
	finished: boolean;
	data: string;
}

export interface Execution {
	summary: ExecutionSummary;
	finished: boolean;
	run: RunData;
}

/** Statuses of an execution that has not ended yet. */
export const UNFINISHED = new Set(['new', 'running', 'waiting', 'unknown']);

/** Every execution of a workflow, newest first. */
export async function listExecutions(
	rest: N8nRest,
	workflowId: string,
): Promise<ExecutionSummary[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const all: ExecutionSummary[] = [];
	let cursor: string | undefined;
	for (let page = 0; page < 100; page++) {
		const more = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
		const answer = await rest.request<ExecutionPage>(
			'GET',
			`/rest/executions?limit=100&filter=${filter}${more}`,
		);
		all.push(...answer.results);
		if (!answer.nextCursor || answer.results.length === 0) break;
		cursor = answer.nextCursor;
	}
	return all;
}

export async function readExecution(
	runtime: N8nRuntime,
	rest: N8nRest,
	id: string,
): Promise<Execution> {
	const flatted = require(join(runtime.modulesDir, 'flatted')) as { parse(text: string): unknown };
	const record = await rest.request<ExecutionRecord>('GET', `/rest/executions/${id}`);
	return {
		summary: record,
		finished: record.finished,
		run: {
			status: record.status,
			mode: record.mode,
			data: flatted.parse(record.data) as RunData['data'],
		},
	};
}

/** The bytes of a binary property kept in n8n's binary data store (database mode in queue mode). */
export async function binaryText(rest: N8nRest, id: string): Promise<string> {
	const response = await rest.fetchRaw(
		`/rest/binary-data?id=${encodeURIComponent(id)}&action=download`,
	);
	const text = await response.text();
	if (!response.ok) throw new Error(`binary data ${id}: ${response.status} ${text.slice(0, 200)}`);
	return text;
}

/** Publishes a workflow over REST, as the editor's Activate does, so that its triggers start. */
export async function activateWorkflow(rest: N8nRest, id: string): Promise<void> {
	const workflow = await rest.request<{ versionId: string }>('GET', `/rest/workflows/${id}`);
	await rest.request('POST', `/rest/workflows/${id}/activate`, { versionId: workflow.versionId });
}

/** Unpublishes a workflow over REST, as the editor's Deactivate does: its triggers stop starting runs. */
export async function deactivateWorkflow(rest: N8nRest, id: string): Promise<void> {
	await rest.request('POST', `/rest/workflows/${id}/deactivate`, {});
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for the runs a schedule or a trigger starts: trigger-mode executions from `readyAt` on. */
export class TriggeredRuns {
	constructor(
		private readonly rest: N8nRest,
		private readonly readyAt: number,
	) {}

	async list(workflowId: string): Promise<ExecutionSummary[]> {
		return (await listExecutions(this.rest, workflowId))
			.filter((e) => e.mode === 'trigger' && Date.parse(e.createdAt) >= this.readyAt)
			.sort((a, b) => Number(a.id) - Number(b.id));
	}

	/** The first execution with an id above `afterId`, once it has ended (or with `started`, once it runs). */
	async next(
		workflowId: string,
		afterId: number,
		until: 'ended' | 'started',
		timeoutMs = 90_000,
	): Promise<ExecutionSummary> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const run = (await this.list(workflowId)).find((e) => Number(e.id) > afterId);
			if (run && (until === 'started' || !UNFINISHED.has(run.status))) return run;
			if (Date.now() > deadline)
				throw new Error(
					`no execution of ${workflowId} after ${afterId} ${until} within ${seconds(timeoutMs)}`,
				);
			await sleep(until === 'started' ? 100 : 500);
		}
	}

	async lastId(workflowIds: string[]): Promise<number> {
		let last = 0;
		for (const id of workflowIds)
			for (const e of await this.list(id)) last = Math.max(last, Number(e.id));
		return last;
	}

	/** Waits until no execution of these workflows is running, so that what follows falls between runs. */
	async quiet(workflowIds: string[]): Promise<void> {
		const deadline = Date.now() + 60_000;
		for (;;) {
			const running = [];
			for (const id of workflowIds)
				running.push(...(await this.list(id)).filter((e) => UNFINISHED.has(e.status)));
			if (!running.length) return;
			if (Date.now() > deadline)
				throw new Error(
					`executions ${running.map((e) => e.id).join(', ')} still running after 60 s`,
				);
			await sleep(200);
		}
	}
}
