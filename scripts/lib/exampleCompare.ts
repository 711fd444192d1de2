/**
 * "Runs in n8n exactly as in the harness": the same example run in-process (test/harness) against a
 * twin sandbox (same seed, same frozen instant) must give the same items on every node and send the
 * same API requests.
 */
import type { SandboxCredential } from '../../harness/sandbox';
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import type { IConnections, INode, IPinData } from 'n8n-workflow';
import { itemsOf as harnessItemsOf, runExample, type WorkflowResult } from '../../harness';
import type { LoggedRequest } from '../../sandbox';
import { ENCRYPTION_KEY } from './runtime';
import { binaryBytes, executableNodes, itemsOf, type Example, type RunData } from './workflows';

interface ComparableItem {
	json: unknown;
	binary?: Record<string, { fileName?: string; mimeType?: string; sha256: string; size: number }>;
}

function fingerprint(bytes: Buffer): { sha256: string; size: number } {
	return { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
/** n8n and the harness run a few seconds apart: instants derived from "now" may differ by that. */
const CLOCK_SLACK_MS = 5 * 60_000;

/**
 * `actual` with each instant that is within CLOCK_SLACK_MS of the instant at the same place in
 * `expected` replaced by that one, so that only real differences remain for deepStrictEqual.
 */
function alignInstants(actual: unknown, expected: unknown): unknown {
	if (typeof actual === 'string' && typeof expected === 'string') {
		if (actual !== expected && ISO_INSTANT.test(actual) && ISO_INSTANT.test(expected)) {
			const delta = Math.abs(Date.parse(actual) - Date.parse(expected));
			if (delta <= CLOCK_SLACK_MS) return expected;
		}
		return actual;
	}
	if (Array.isArray(actual) && Array.isArray(expected)) {
		return actual.map((value, index) => alignInstants(value, expected[index]));
	}
	if (
		actual &&
		expected &&
		typeof actual === 'object' &&
		typeof expected === 'object' &&
		!Buffer.isBuffer(actual)
	) {
		const other = expected as Record<string, unknown>;
		return Object.fromEntries(
			Object.entries(actual).map(([key, value]) => [key, alignInstants(value, other[key])]),
		);
	}
	return actual;
}

type AnyBinary = { data?: string; id?: string; fileName?: string; mimeType?: string };

function comparable(
	items: Array<{ json: unknown; binary?: Record<string, AnyBinary> }>,
	bytesOf: (b: AnyBinary) => Buffer,
): ComparableItem[] {
	return items.map((item) => {
		const out: ComparableItem = { json: item.json };
		if (item.binary && Object.keys(item.binary).length) {
			out.binary = Object.fromEntries(
				Object.entries(item.binary).map(([key, b]) => [
					key,
					{ fileName: b.fileName, mimeType: b.mimeType, ...fingerprint(bytesOf(b)) },
				]),
			);
		}
		return out;
	});
}

export async function runInHarness(
	example: Example,
	credentials: SandboxCredential,
): Promise<WorkflowResult> {
	// n8n-core's settings in this process: a fixed key spares it generating and announcing one.
	process.env.N8N_ENCRYPTION_KEY ??= ENCRYPTION_KEY;
	const run = runExample(
		{
			file: example.file,
			name: example.workflow.name,
			nodes: example.workflow.nodes as unknown as INode[],
			connections: example.workflow.connections as unknown as IConnections,
			pinData: example.workflow.pinData as IPinData | undefined,
		},
		{ ...credentials },
	);
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error('the harness run took over 120s')), 120_000);
	});
	try {
		return await Promise.race([run, timeout]);
	} finally {
		clearTimeout(timer);
	}
}

/**
 * Triggers whose item is the clock at the moment they fired (the Schedule Trigger's date, time, day
 * of week…): n8n and the harness fire seconds apart, so their items are compared by fields only.
 */
const CLOCK_TRIGGERS = new Set(['n8n-nodes-base.scheduleTrigger']);

/** Asserts every executable node gave the same items in n8n and in the harness. */
export function assertSameOutputs(
	example: Example,
	run: RunData,
	userFolder: string,
	harness: WorkflowResult,
): void {
	if (harness.error) throw new Error(`the harness run itself failed: ${harness.error.message}`);
	for (const node of executableNodes(example.workflow)) {
		// The harness has no data tables (it passes the items on): n8n's rows are the entry's to check.
		if (node.type === 'n8n-nodes-base.dataTable') continue;
		const inN8n = itemsOf(run, node.name);
		if (inN8n === undefined) continue; // reported by the "every node ran" check
		if (CLOCK_TRIGGERS.has(node.type)) {
			assert.deepEqual(
				inN8n.map((item) => Object.keys(item.json as object)),
				harnessItemsOf(harness, node.name).map((item) => Object.keys(item.json)),
				`"${node.name}": the fields of the time it fired differ between n8n and the harness`,
			);
			continue;
		}
		const actual = comparable(inN8n, (b) => binaryBytes(b, userFolder));
		const expected = comparable(
			harnessItemsOf(harness, node.name) as Array<{
				json: unknown;
				binary?: Record<string, AnyBinary>;
			}>,
			(b) => Buffer.from(b.data ?? '', 'base64'),
		);
		assert.equal(
			actual.length,
			expected.length,
			`"${node.name}": ${actual.length} items in n8n, ${expected.length} in the harness`,
		);
		actual.forEach((item, index) =>
			assert.deepStrictEqual(
				alignInstants(item, expected[index]),
				expected[index],
				`"${node.name}" item ${index} differs between n8n and the harness`,
			),
		);
	}
}

function comparableRequest(request: LoggedRequest): Record<string, unknown> {
	const { method, api, path, query, status } = request;
	let body = request.body;
	if (body && typeof body === 'object' && 'files' in body) {
		const multipart = body as {
			fields: unknown;
			files: Record<string, { filename: string; type: string; size: number; sha256: string }>;
		};
		body = {
			fields: multipart.fields,
			files: Object.fromEntries(
				Object.entries(multipart.files).map(([name, f]) => [
					name,
					{ filename: f.filename, type: f.type, size: f.size, sha256: f.sha256 },
				]),
			),
		};
	}
	return { method, api, path, query, body, status };
}

export function assertSameRequests(inN8n: LoggedRequest[], inHarness: LoggedRequest[]): void {
	const actual = inN8n.map(comparableRequest);
	const expected = inHarness.map(comparableRequest);
	const lines = (list: Record<string, unknown>[]) =>
		list.map((r) => `${String(r.method)} ${String(r.path)} → ${String(r.status)}`).join('\n');
	assert.equal(
		actual.length,
		expected.length,
		`n8n sent ${actual.length} requests, the harness ${expected.length}:\n${lines(actual)}\n---\n${lines(expected)}`,
	);
	actual.forEach((request, index) =>
		assert.deepStrictEqual(
			alignInstants(request, expected[index]),
			expected[index],
			`request ${index + 1} differs`,
		),
	);
}
