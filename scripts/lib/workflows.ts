/**
 * The example workflows as n8n imports them, the sandbox credential they use, and the run data n8n
 * hands back (`n8n execute --rawOutput`, or GET /rest/executions/:id for a manual run).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SandboxCredential, SignInCredential } from '../../harness/sandbox';
import { REPO_ROOT } from './runtime';

export const EXAMPLES_DIR = join(REPO_ROOT, 'examples');
/** The credential id and name every example refers to. */
export const SANDBOX_CREDENTIAL = { id: 'adCabinetSandbox', name: 'Ad Cabinet sandbox' };
export const CREDENTIAL_TYPE = 'adCabinetApi';

export interface WorkflowNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	disabled?: boolean;
	/** `continueErrorOutput`: the node's items that fail leave by an error output of their own. */
	onError?: string;
	/** The node's note in the editor (shown on the canvas with notesInFlow). */
	notes?: string;
	notesInFlow?: boolean;
}

export interface WorkflowJson {
	id?: string;
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
	[key: string]: unknown;
}

export interface Example {
	file: string;
	/** Stable id given at import time, so the same example keeps its URL in `npm run dev`. */
	id: string;
	workflow: WorkflowJson;
}

export function exampleId(file: string): string {
	return `ex${createHash('sha256').update(file).digest('hex').slice(0, 14)}`;
}

/** A workflow as its file under examples/ holds it (`folder/file.json` for a sub-folder's). */
export function readWorkflow(file: string): WorkflowJson {
	return JSON.parse(readFileSync(join(EXAMPLES_DIR, file), 'utf8')) as WorkflowJson;
}

export function listExamples(): Example[] {
	return readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => ({
			file,
			id: exampleId(file),
			workflow: readWorkflow(file),
		}));
}

/** Writes one file per example for `n8n import:workflow --separate --input=<dir>`. */
export function writeWorkflowImport(dir: string, examples: Example[]): void {
	mkdirSync(dir, { recursive: true });
	for (const example of examples) {
		const workflow = { ...example.workflow, id: example.id, active: false };
		// One folder of files: an example of a subfolder (`alerts/x.json`) is written as `alerts-x.json`.
		writeFileSync(join(dir, example.file.replace(/\//g, '-')), JSON.stringify(workflow, null, 2));
	}
}

/** The file for `n8n import:credentials`: plain data, which n8n encrypts with its key on import. */
export function writeCredentialImport(
	file: string,
	data: SandboxCredential | SignInCredential,
): void {
	writeFileSync(
		file,
		JSON.stringify([{ ...SANDBOX_CREDENTIAL, type: CREDENTIAL_TYPE, data }], null, 2),
	);
}

/** Nodes that execute (sticky notes and disabled nodes never produce a run). */
export function executableNodes(workflow: WorkflowJson): WorkflowNode[] {
	return workflow.nodes.filter(
		(node) => node.type !== 'n8n-nodes-base.stickyNote' && !node.disabled,
	);
}

type Connections = Record<string, { main?: Array<Array<{ node: string }> | null> }>;

/**
 * The nodes reached only through an error output (a node with `onError: continueErrorOutput`
 * sends the items that failed through its last output): they run only when something failed.
 */
export function onlyOnError(workflow: WorkflowJson): Set<string> {
	const connections = workflow.connections as Connections;
	const byName = new Map(workflow.nodes.map((node) => [node.name, node]));
	const incoming = new Map<string, Array<{ from: string; error: boolean }>>();
	for (const [from, outputs] of Object.entries(connections)) {
		const main = outputs.main ?? [];
		const errorOutput = byName.get(from)?.onError === 'continueErrorOutput' ? main.length - 1 : -1;
		main.forEach((targets, index) => {
			for (const { node } of targets ?? [])
				incoming.set(node, [...(incoming.get(node) ?? []), { from, error: index === errorOutput }]);
		});
	}
	const out = new Set<string>();
	for (let grew = true; grew;) {
		grew = false;
		for (const [node, edges] of incoming)
			if (!out.has(node) && edges.every((edge) => edge.error || out.has(edge.from))) {
				out.add(node);
				grew = true;
			}
	}
	return out;
}

/** A polling trigger starts the workflow: `n8n execute` would pass it through without polling. */
function pollingTriggerOf(
	workflow: WorkflowJson,
	pollingTypes: Set<string>,
): WorkflowNode | undefined {
	return workflow.nodes.find((node) => pollingTypes.has(node.type) && !node.disabled);
}

/** The node types `n8n execute` starts a workflow from (n8n's own list); it refuses any other. */
const CLI_START_TYPES = new Set([
	'n8n-nodes-base.manualTrigger',
	'n8n-nodes-base.executeWorkflowTrigger',
]);

/**
 * The trigger from which a workflow must be run as the editor's "Execute workflow" does (over
 * REST), or undefined when `n8n execute` can run it: one of our polling triggers (`n8n execute`
 * would not poll), or a trigger `n8n execute` cannot start from, such as the Schedule Trigger of
 * a recipe meant to run on a schedule.
 */
export function manualRunTriggerOf(
	workflow: WorkflowJson,
	pollingTypes: Set<string>,
): WorkflowNode | undefined {
	const polling = pollingTriggerOf(workflow, pollingTypes);
	if (polling) return polling;
	const enabled = workflow.nodes.filter((node) => !node.disabled);
	if (enabled.some((node) => CLI_START_TYPES.has(node.type))) return undefined;
	// n8n names every trigger node type "…Trigger".
	return enabled.find((node) => node.type.endsWith('Trigger'));
}

// ---- run data ----------------------------------------------------------------------------------

export interface BinaryRef {
	data?: string;
	id?: string;
	mimeType?: string;
	fileName?: string;
	fileExtension?: string;
	fileSize?: string;
}

export interface Item {
	json: Record<string, unknown>;
	binary?: Record<string, BinaryRef>;
	pairedItem?: unknown;
}

interface NodeRunData {
	/** When n8n started the node's run (ms since the epoch, n8n's clock). */
	startTime?: number;
	error?: { message?: string; description?: string };
	data?: { main?: Array<Item[] | null> };
}

export interface RunData {
	status?: string;
	mode?: string;
	data: {
		resultData: {
			error?: { message?: string; description?: string; node?: { name?: string } };
			runData: Record<string, NodeRunData[]>;
			lastNodeExecuted?: string;
		};
	};
}

/** The run data `n8n execute --rawOutput` logs (one info line of JSON, found in n8n's JSON log). */
export function runDataFromLog(messages: string[]): RunData | undefined {
	for (const message of messages) {
		if (!message.startsWith('{')) continue;
		try {
			const parsed = JSON.parse(message) as Partial<RunData>;
			if (parsed.data?.resultData?.runData) return parsed as RunData;
		} catch {
			// another JSON-looking line
		}
	}
	return undefined;
}

/** Items of a node's first output in its last run, or undefined when it did not run. */
export function itemsOf(run: RunData, nodeName: string): Item[] | undefined {
	const runs = run.data.resultData.runData[nodeName];
	if (!runs?.length) return undefined;
	return runs[runs.length - 1].data?.main?.[0] ?? [];
}

/**
 * The bytes of a binary property: inline base64, or a file in n8n's binary data store
 * (`filesystem-v2:<path>` ids under `<user folder>/.n8n/storage/`, n8n 2.x's default).
 */
export function binaryBytes(binary: BinaryRef, userFolder: string): Buffer {
	const id = binary.id ?? '';
	const separator = id.indexOf(':');
	if (separator > 0) {
		const path = id.slice(separator + 1);
		for (const root of [
			join(userFolder, '.n8n', 'storage'),
			join(userFolder, '.n8n', 'binaryData'),
		]) {
			if (existsSync(join(root, path))) return readFileSync(join(root, path));
		}
		throw new Error(`binary ${id} not found in ${userFolder}/.n8n`);
	}
	return Buffer.from(binary.data ?? '', 'base64');
}
