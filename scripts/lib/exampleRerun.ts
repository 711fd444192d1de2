/**
 * What an example with data tables or a second run needs around its check (exampleChecks.ts): the
 * tables created before it runs, and the second run in n8n with its entry's `rerun` check.
 */
import { strict as assert } from 'node:assert';
import { apiRequests } from '../../harness/sandbox';
import type { Sandbox } from '../../sandbox';
import type { Checks } from './checks';
import { byTableId, createDataTables } from './dataTables';
import type { PlannedExample } from './exampleChecks';
import type { N8nRest } from './rest';
import { itemsOf, type RunData, type WorkflowNode } from './workflows';

type Edit = (workflow: Record<string, unknown>) => Record<string, unknown>;

/**
 * Creates the example's data tables. Answers the edit n8n 1.x's run needs (its Data Table node
 * finds a table by ID only), or undefined when none is needed.
 */
export async function prepareTables(
	checks: Checks,
	rest: N8nRest,
	{ example, expectation }: PlannedExample,
	n8nVersion: string,
): Promise<Edit | undefined> {
	const specs = expectation.dataTables;
	if (!specs?.length) return undefined;
	let ids = new Map<string, string>();
	await checks.check(
		`${example.file}: its data tables created (${specs.map((s) => s.name).join(', ')})`,
		async () => {
			ids = await createDataTables(rest, specs);
		},
	);
	if (!n8nVersion.startsWith('1.')) return undefined;
	return (workflow) => ({
		...workflow,
		...byTableId(workflow as { nodes: WorkflowNode[] }, ids),
	});
}

/** The entry's second run, in n8n only, right after the first. */
export async function checkRerun(
	checks: Checks,
	sandbox: Sandbox,
	{ example, expectation }: PlannedExample,
	runIt: () => Promise<RunData>,
): Promise<void> {
	const rerun = expectation.rerun;
	if (!rerun) return;
	sandbox.clearLog();
	await checks.check(`${example.file}, run again: ${rerun.title}`, async () => {
		const run = await runIt();
		assert.equal(run.status, 'success', `execution status ${run.status}`);
		await rerun.check({
			requests: apiRequests(sandbox),
			sandbox,
			items: (name) => {
				const items = itemsOf(run, name);
				assert.ok(items, `node "${name}" did not run`);
				return items;
			},
		});
	});
}
