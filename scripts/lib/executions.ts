/**
 * Execution records as n8n's REST API gives them to the editor: the list (paged by cursor, at most
 * 100 a page) and one record with its run data (serialized with `flatted`).
 */
import { join } from 'node:path';
import type { N8nRest } from '../lib/rest';
import type { N8nRuntime } from '../lib/runtime';
import type { RunData } from '../lib/workflows';

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
