/**
 * Two runs of examples/create-ads-from-sheet.json started at the same instant, as two people (or a
 * person and a retrying caller) pressing "Execute workflow" together: two `POST
 * /rest/workflows/:id/run` sent at once over n8n's REST API, each run followed to its end; then
 * what reached the sandbox for each sheet row: its create requests and the ads it has.
 */
import { strict as assert } from 'node:assert';
import { apiRequests } from '../../harness/sandbox';
import type { Sandbox } from '../../sandbox';
import { readExecution, UNFINISHED } from '../lib/executions';
import type { N8nRest } from '../lib/rest';
import type { N8nRuntime } from '../lib/runtime';
import { seconds } from '../lib/stage';
import {
	exampleId,
	itemsOf,
	readWorkflow,
	type Example,
	type RunData,
	type WorkflowNode,
} from '../lib/workflows';

export const FILE = 'create-ads-from-sheet.json';
/** Pairs started in queue mode at most, until one lands on two different workers. */
export const MAX_PAIRS = 4;
/** The campaign the recipe's Create ad node names. */
const CAMPAIGN = 2201;
const SAMPLE_SHEET = 'Sample sheet';
const ROWS_NODE = 'One row per creative';
export const CREATE_NODE = 'Create ad';
/** The create requests of an ad: POST /api/advertisement/<platform>/. */
const CREATE_PATH = /^\/api\/advertisement\/[^/]+\/$/;

export interface Recipe {
	example: Example;
	trigger: WorkflowNode;
}

/**
 * The recipe as shipped for the first pair. A later pair (when Bull gave the first pair to one
 * worker) gets rows of its own, each title marked with the pair's number, so that it does not meet
 * the ads of the pairs before it; the Create ad node stays as shipped.
 */
export function recipe(pair: number, copy = false): Recipe {
	const workflow = readWorkflow(FILE);
	const trigger = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
	assert.ok(trigger, `${FILE} starts with a Manual Trigger`);
	assert.ok(
		workflow.nodes.some((n) => n.name === CREATE_NODE),
		`${FILE} has a ${CREATE_NODE} node`,
	);
	if (pair > 1) {
		const sheet = workflow.nodes.find((n) => n.name === SAMPLE_SHEET);
		assert.ok(sheet, `${FILE} has a ${SAMPLE_SHEET} node`);
		const text = JSON.stringify(sheet.parameters).replace(
			/title: '([^']+)'/g,
			`title: '$1 (pair ${pair})'`,
		);
		sheet.parameters = JSON.parse(text) as WorkflowNode['parameters'];
		workflow.name = `${workflow.name} (pair ${pair})`;
	}
	workflow.settings = { ...(workflow.settings as object), saveDataSuccessExecution: 'all' };
	// A copy of the same workflow left active beside it: another workflow ID, so another record row.
	const tag = copy ? `${pair}-copy` : String(pair);
	if (copy) workflow.name = `${workflow.name} (copy)`;
	return {
		example: { file: `twice-${tag}-${FILE}`, id: exampleId(`twice/${tag}/${FILE}`), workflow },
		trigger,
	};
}

interface Row {
	title: string;
	text: string;
	url: string;
}

export interface PairOutcome {
	ids: [string, string];
	runs: [RunData, RunData];
	rows: Row[];
	/** Per row, in the sheet's order. */
	createsPerRow: number[];
	adsPerRow: number[];
	/** Every API request of the pair, as `<count> <METHOD path>`, and how many the rate limit refused. */
	requests: string[];
	rateLimited: number;
	/** How long the two starts took to be answered, and both runs to end. */
	tookMs: number;
}

/**
 * Starts a run of each recipe (the same one twice, or a workflow and its copy) with one pair of REST
 * calls sent together, and returns their ids.
 */
async function startTogether(rest: N8nRest, recipes: [Recipe, Recipe]): Promise<[string, string]> {
	const prepared = await Promise.all(
		recipes.map(async ({ example, trigger }) => ({
			example,
			trigger,
			workflowData: await rest.request<Record<string, unknown>>(
				'GET',
				`/rest/workflows/${example.id}`,
			),
		})),
	);
	const start = async ({ example, trigger, workflowData }: (typeof prepared)[number]) =>
		await rest.request<{ executionId?: string }>('POST', `/rest/workflows/${example.id}/run`, {
			workflowData,
			triggerToStartFrom: { name: trigger.name },
		});
	const [a, b] = await Promise.all(prepared.map(start));
	if (!a?.executionId || !b?.executionId)
		throw new Error(`n8n did not start both runs: ${JSON.stringify([a, b])}`);
	return [a.executionId, b.executionId];
}

/** One execution's run data once it has ended. */
async function ended(
	runtime: N8nRuntime,
	rest: N8nRest,
	id: string,
	timeoutMs: number,
): Promise<RunData> {
	const deadline = Date.now() + timeoutMs;
	let last = 'not saved';
	for (;;) {
		try {
			const execution = await readExecution(runtime, rest, id);
			last = execution.summary.status;
			if (!UNFINISHED.has(last) && execution.run.data?.resultData) return execution.run;
		} catch {
			// not saved yet
		}
		if (Date.now() > deadline)
			throw new Error(`execution ${id} did not end within ${seconds(timeoutMs)} (last: ${last})`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

const sameCreative = (row: Row, title: unknown, text: unknown, url: unknown) =>
	title === row.title && text === row.text && url === row.url;

/** Runs the pair to its end and counts, per row, the create requests since now and the ads. */
export async function runPair(
	runtime: N8nRuntime,
	rest: N8nRest,
	sandbox: Sandbox,
	recipe: Recipe,
	timeoutMs = 150_000,
	other: Recipe = recipe,
): Promise<PairOutcome> {
	const mark = apiRequests(sandbox).length;
	const started = Date.now();
	const ids = await startTogether(rest, [recipe, other]);
	const runs = (await Promise.all(
		ids.map(async (id) => await ended(runtime, rest, id, timeoutMs)),
	)) as [RunData, RunData];
	const tookMs = Date.now() - started;
	const rows = (itemsOf(runs[0], ROWS_NODE) ?? itemsOf(runs[1], ROWS_NODE) ?? []).map(
		(item) => item.json as unknown as Row,
	);
	assert.ok(rows.length > 0, `${ROWS_NODE} gave no rows in either run`);
	const sent = apiRequests(sandbox).slice(mark);
	const byPath = new Map<string, number>();
	for (const r of sent)
		byPath.set(`${r.method} ${r.path}`, (byPath.get(`${r.method} ${r.path}`) ?? 0) + 1);
	const requests = [...byPath].map(([path, count]) => `${count} ${path}`);
	const rateLimited = sent.filter((r) => r.rateLimited).length;
	const creates = sent.filter((r) => r.method === 'POST' && CREATE_PATH.test(r.path));
	const createsPerRow = rows.map(
		(row) =>
			creates.filter((r) => {
				const body = r.body as Record<string, unknown>;
				return sameCreative(row, body.title, body.text, body.promote_url);
			}).length,
	);
	const adsPerRow = rows.map(
		(row) =>
			sandbox.data.ads.filter(
				(ad) =>
					ad.status !== 'deleted' &&
					ad.campaignId === CAMPAIGN &&
					sameCreative(row, ad.fields.title, ad.fields.text, ad.fields.promote_url),
			).length,
	);
	return { ids, runs, rows, createsPerRow, adsPerRow, requests, rateLimited, tookMs };
}

/** One run as a line: its status, and what Create ad gave (made, skipped) or the error. */
export function describeRun(run: RunData): string {
	const error = run.data.resultData.error;
	const items = itemsOf(run, CREATE_NODE) ?? [];
	const skipped = items.filter((item) => item.json.skipped === true);
	const made = items.length - skipped.length;
	const why = error ? `; ${(error.message ?? '').split('\n')[0]}` : '';
	return `${run.status ?? 'unknown'}: ${made} made, ${skipped.length} skipped${why}`;
}

/** The pair as lines: each run, its rows, and what reached the sandbox. */
export function printPair(outcome: PairOutcome, where: [string, string]): void {
	outcome.runs.forEach((run, i) =>
		console.log(`  execution ${outcome.ids[i]} (${where[i]}): ${describeRun(run)}`),
	);
	console.log(`  rows: ${outcome.rows.map((r) => `"${r.title}"`).join(', ')}`);
	console.log(`  create requests per row: ${outcome.createsPerRow.join(', ')}`);
	console.log(`  ads per row: ${outcome.adsPerRow.join(', ')}`);
	console.log(
		`  requests at the sandbox: ${outcome.requests.join(', ')}; ${outcome.rateLimited} answered 429 by the rate limit`,
	);
	console.log(`  (both ended ${seconds(outcome.tookMs)} after the starts)`);
}
