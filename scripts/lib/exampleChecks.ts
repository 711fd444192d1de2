/** The checks every example goes through once n8n has run it, plus its own entry in expectations.ts. */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { Sandbox } from '../../sandbox';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import type { Checks } from './checks';
import { assertSameOutputs, assertSameRequests, runInHarness } from './exampleCompare';
import type { ExampleExpectation } from './expectationContext';
import { executionStartedAt } from './runClock';
import type { N8nRuntime } from './runtime';
import { awayFromMidnight } from './stage';
import {
	binaryBytes,
	executableNodes,
	itemsOf,
	manualRunTriggerOf,
	onlyOnError,
	CREDENTIAL_TYPE,
	SANDBOX_CREDENTIAL,
	type BinaryRef,
	type Example,
	type RunData,
	type WorkflowNode,
} from './workflows';

/** `n8n execute` can exit 0 having run nothing: the run must have succeeded on every node. */
function assertRanCompletely(example: Example, run: RunData): void {
	const { error, runData } = run.data.resultData;
	if (error) {
		const where = error.node?.name ? ` in "${error.node.name}"` : '';
		const description = error.description ? `\n${error.description}` : '';
		assert.fail(`the run failed${where}: ${error.message ?? ''}${description}`);
	}
	for (const [name, runs] of Object.entries(runData)) {
		const nodeError = runs[runs.length - 1]?.error;
		assert.ok(!nodeError, `"${name}" failed: ${nodeError?.message ?? ''}`);
	}
	assert.equal(run.status, 'success', `execution status ${run.status}`);
	// A node after an error output runs only when an item failed.
	const onError = onlyOnError(example.workflow);
	const skipped = executableNodes(example.workflow).filter(
		(node) => itemsOf(run, node.name) === undefined && !onError.has(node.name),
	);
	assert.deepEqual(
		skipped.map((n) => n.name),
		[],
		'nodes that did not run',
	);
}

/** The node packages that ship with n8n. */
const CORE_PACKAGES = ['n8n-nodes-base', '@n8n/n8n-nodes-langchain'];

export interface PlannedExample {
	example: Example;
	expectation: ExampleExpectation;
	/**
	 * Set when the workflow starts with one of our polling triggers or another trigger `n8n execute`
	 * cannot start from (a Schedule Trigger): it is run manually over REST.
	 */
	trigger?: WorkflowNode;
}

/** Pairs each example with its entry; a missing entry or a wrong run mode is a failed check. */
export async function planExamples(
	checks: Checks,
	examples: Example[],
	expectations: Record<string, ExampleExpectation>,
	pollingTypes: Set<string>,
	packageName: string,
): Promise<PlannedExample[]> {
	await checks.check('every example in examples/ has an entry, and every entry an example', () => {
		const files = new Set(examples.map((e) => e.file));
		const missing = [...files].filter((file) => !expectations[file]);
		const stale = Object.keys(expectations).filter((file) => !files.has(file));
		assert.deepEqual({ missing, stale }, { missing: [], stale: [] });
	});
	await checks.check(
		'every example has a sticky note, uses only n8n core nodes and ours, and the sandbox credential',
		() => {
			const problems: string[] = [];
			for (const { file, workflow } of examples) {
				if (!workflow.nodes.some((node) => node.type === 'n8n-nodes-base.stickyNote')) {
					problems.push(`${file}: no sticky note documents it`);
				}
				for (const node of workflow.nodes) {
					const ours = node.type.startsWith(`${packageName}.`);
					if (!ours && !CORE_PACKAGES.some((core) => node.type.startsWith(`${core}.`))) {
						problems.push(`${file}: "${node.name}" is ${node.type}, neither a core node nor ours`);
					}
					const credential = node.credentials?.[CREDENTIAL_TYPE];
					if (ours && credential?.id !== SANDBOX_CREDENTIAL.id) {
						problems.push(
							`${file}: "${node.name}" does not use the credential id "${SANDBOX_CREDENTIAL.id}"`,
						);
					}
				}
			}
			assert.deepEqual(problems, []);
		},
	);
	const planned: PlannedExample[] = [];
	for (const example of examples) {
		const expectation = expectations[example.file];
		if (!expectation) continue;
		const trigger = manualRunTriggerOf(example.workflow, pollingTypes);
		if (Boolean(trigger) !== (expectation.run === 'manual')) {
			checks.fail(
				`${example.file}: run mode`,
				trigger
					? `starts with "${trigger.name}" (${trigger.type}), which n8n execute does not run: set run: 'manual'`
					: `run: 'manual' is only for workflows that start with a polling trigger or another trigger n8n execute does not run, such as the Schedule Trigger`,
			);
			continue;
		}
		planned.push({ example, expectation, trigger });
	}
	return planned;
}

export interface ExampleRunSetup {
	checks: Checks;
	/** The sandbox n8n talks to, and its twin (same seed and instant) for the harness. */
	sandbox: Sandbox;
	twin: Sandbox;
	userFolder: string;
	runtime: N8nRuntime;
}

/** SheetJS from n8n's install: Convert to File writes spreadsheets with it (2.x: @e965/xlsx). */
function sheetJs(runtime: N8nRuntime): SheetJs {
	for (const name of ['@e965/xlsx', 'xlsx']) {
		try {
			return require(join(runtime.modulesDir, name)) as SheetJs;
		} catch {
			// the other name
		}
	}
	throw new Error(`no SheetJS (xlsx) in ${runtime.modulesDir}`);
}

interface SheetJs {
	read(
		data: Buffer,
		options: { type: 'buffer' },
	): { SheetNames: string[]; Sheets: Record<string, unknown> };
	utils: { sheet_to_json(sheet: unknown, options: { header: 1; raw: true }): unknown[][] };
}

/** Runs one example in n8n and checks it: ran completely, equals the harness, meets its entry. */
export async function checkExample(
	setup: ExampleRunSetup,
	{ example, expectation }: PlannedExample,
	runIt: () => Promise<RunData>,
	how: string,
): Promise<void> {
	const { checks, sandbox, twin, userFolder, runtime } = setup;
	expectation.prepare?.(sandbox);
	expectation.prepare?.(twin);
	// Both runs start from the same rate-limit windows, so that their requests can be compared. The
	// examples before this one left different windows in the two sandboxes (n8n's runs and the
	// harness's take different times), and n8n's run may be a process of its own, which knows nothing
	// of the requests the processes before it sent: a window they filled would answer it 429 where the
	// harness, one process that paced them all, waits instead.
	sandbox.rateLimiter.reset();
	twin.rateLimiter.reset();
	// n8n's run and the harness's run of the same example each read the clock: both fall on one day.
	await awayFromMidnight(2);
	sandbox.clearLog();
	twin.clearLog();
	let run: RunData | undefined;
	await checks.check(`${example.file}: runs in n8n (${how})`, async () => {
		run = await runIt();
		assertRanCompletely(example, run);
	});
	if (!run) return;
	const ran = run;
	const requests = apiRequests(sandbox);
	const binaryOf = (name: string, itemIndex: number, key: string): BinaryRef => {
		const binary = itemsOf(ran, name)?.[itemIndex]?.binary?.[key];
		assert.ok(binary, `"${name}" item ${itemIndex} has no binary property "${key}"`);
		return binary;
	};
	await checks.check(
		`${example.file}: same items on every node and same API requests as the harness`,
		async () => {
			const harness = await runInHarness(example, credentialsFor(twin));
			assertSameOutputs(example, ran, userFolder, harness);
			assertSameRequests(requests, apiRequests(twin));
		},
	);
	await checks.check(`${example.file}: ${expectation.title}`, async () => {
		await expectation.check({
			example,
			run: ran,
			requests,
			sandbox,
			startedAt: executionStartedAt(ran),
			items: (name) => {
				const items = itemsOf(ran, name);
				assert.ok(items, `node "${name}" did not run`);
				return items;
			},
			file: (name, itemIndex = 0, key = 'data') => {
				const binary = binaryOf(name, itemIndex, key);
				const text = binaryBytes(binary, userFolder).toString('utf8');
				return { text, fileName: binary.fileName, mimeType: binary.mimeType };
			},
			sheet: (name, itemIndex = 0, key = 'data') => {
				const binary = binaryOf(name, itemIndex, key);
				const xlsx = sheetJs(runtime);
				const book = xlsx.read(binaryBytes(binary, userFolder), { type: 'buffer' });
				const rows = xlsx.utils.sheet_to_json(book.Sheets[book.SheetNames[0]], {
					header: 1,
					raw: true,
				});
				return {
					sheetNames: book.SheetNames,
					rows,
					fileName: binary.fileName,
					mimeType: binary.mimeType,
				};
			},
		});
	});
}
