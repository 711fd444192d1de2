import type { INode } from 'n8n-workflow';
import { itemsOf, listExamples, runExample, type ExampleWorkflow } from '../../harness';
import { apiWrites, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';

/** Writes to ads (the statistics pages are POSTs too, but read). */
const adWrites = (sandbox: Parameters<typeof apiWrites>[0]) =>
	apiWrites(sandbox).filter((r) => r.path.startsWith('/api/advertisement/'));

function example(file: string): ExampleWorkflow {
	const found = listExamples().find((e) => e.file === file);
	if (!found) throw new Error(`examples/${file} is missing`);
	return found;
}

/** The recipe with one of the Settings node's values changed, as a user edits it. */
function withSetting(recipe: ExampleWorkflow, name: string, value: unknown): ExampleWorkflow {
	const nodes = recipe.nodes.map((node): INode => {
		if (node.name !== 'Settings') return node;
		const parameters = structuredClone(node.parameters) as {
			assignments: { assignments: Array<{ name: string; value: unknown }> };
		};
		const field = parameters.assignments.assignments.find((a) => a.name === name);
		if (!field) throw new Error(`Settings has no ${name}`);
		field.value = value;
		return { ...node, parameters: parameters as unknown as INode['parameters'] };
	});
	return { ...recipe, nodes };
}

describe('the safe-write recipes run twice in-process (npm run test:e2e and test:sheets run them in n8n)', () => {
	const sandbox = useSandbox({ clock: 'frozen' });

	test('ads-from-sheet-rerun-safe: the first run creates one ad per row without an ad_id, the second creates none and gives the same ads', async () => {
		const recipe = example('ads-from-sheet-rerun-safe.json');
		const credentials = credentialsFor(sandbox());
		const first = await runExample(recipe, credentials);
		expect(first.error).toBeUndefined();
		const pending = itemsOf(first, 'Rows without ad_id').map((i) => i.json);
		expect(pending.map((row) => row.key)).toEqual(['night-market', 'coffee-club', 'winter-berlin']);
		const creates = adWrites(sandbox());
		expect(creates.map((r) => [r.method, (r.body as { title: string }).title])).toEqual(
			pending.map((row) => ['POST', row.title]),
		);
		const made = itemsOf(first, 'Create ad').map((i) => i.json.ad_id);

		sandbox().clearLog();
		const second = await runExample(recipe, credentials);
		expect(second.error).toBeUndefined();
		expect(adWrites(sandbox())).toEqual([]);
		expect(itemsOf(second, 'Create ad').map((i) => [i.json.ad_id, i.json.skipped])).toEqual(
			made.map((id) => [id, true]),
		);
	});

	test('cpm-rule: the first run moves the CPM of the ads the rule picks, within the bounds; a second run in the same hour sends no PUT', async () => {
		const recipe = example('cpm-rule.json');
		const credentials = credentialsFor(sandbox());
		const first = await runExample(recipe, credentials);
		expect(first.error).toBeUndefined();
		const picked = itemsOf(first, 'New CPM within bounds').map((i) => i.json);
		const puts = adWrites(sandbox());
		expect(picked.length).toBeGreaterThan(1);
		expect(puts.every((r) => r.method === 'PUT' && r.status === 200)).toBe(true);
		// An ad already at its new CPM gets no PUT; every other picked ad gets exactly one.
		const moved = picked.filter((p) => p.to !== p.from);
		expect(puts.map((r) => [r.path.split('/').at(-1), (r.body as { cpm: number }).cpm])).toEqual(
			moved.map((p) => [String(p.ad_id), p.to]),
		);
		for (const p of moved) {
			expect(p.to).toBeGreaterThanOrEqual(0.5);
			expect(p.to).toBeLessThanOrEqual(5);
			expect(Math.abs(Number(p.to) - Number(p.from)) / Number(p.from)).toBeLessThanOrEqual(0.3);
			expect(p.why).toMatch(/^(CTR .* is below|cost per click .* is below)/);
			expect(sandbox().data.ad(Number(p.ad_id))?.fields.cpm).toBe(p.to);
		}
		expect(itemsOf(first, 'Log the change').map((i) => i.json.ad_id)).toEqual(
			moved.map((p) => p.ad_id),
		);

		sandbox().clearLog();
		const second = await runExample(recipe, credentials);
		expect(second.error).toBeUndefined();
		expect(adWrites(sandbox())).toEqual([]);
		expect(itemsOf(second, 'Update CPM').every((i) => i.json.skipped === true)).toBe(true);
		expect(itemsOf(second, 'Log the change')).toEqual([]);
	});

	test('cpm-rule with dryRun true in Settings: each PUT it would send is shown as a dry run, and none is sent', async () => {
		const recipe = withSetting(example('cpm-rule.json'), 'dryRun', true);
		const result = await runExample(recipe, credentialsFor(sandbox()));
		expect(result.error).toBeUndefined();
		expect(adWrites(sandbox())).toEqual([]);
		const shown = itemsOf(result, 'Update CPM').map((i) => i.json);
		expect(shown.length).toBeGreaterThan(1);
		for (const item of shown) expect(item).toMatchObject({ dryRun: true, method: 'PUT' });
	});
});

describe('the CPM rule recipe when a change is carried out but its answer is lost', () => {
	const sandbox = useSandbox({ clock: 'frozen' });

	test('cpm-rule when one PUT is carried out but its answer is lost: every answered change is logged, the lost one is not, and the run fails naming its ad', async () => {
		const recipe = example('cpm-rule.json');
		let puts = 0;
		// The second PUT of the run is carried out and its connection reset, as a lost answer is.
		sandbox().faults.loseAnswers((path, method) => method === 'PUT' && ++puts === 2);
		const result = await runExample(recipe, credentialsFor(sandbox()));
		const writes = adWrites(sandbox());
		const lost = writes.filter((r) => r.fault === 'lost');
		expect(lost).toHaveLength(1);
		const lostAd = Number(lost[0].path.split('/').at(-1));
		const answered = writes.filter((r) => r.status === 200 && !r.fault);
		expect(answered.length).toBeGreaterThan(0);
		expect(itemsOf(result, 'Log the change').map((i) => Number(i.json.ad_id))).toEqual(
			answered.map((r) => Number(r.path.split('/').at(-1))),
		);
		expect(result.error?.message).toMatch(
			new RegExp(
				`^The change of ad ${lostAd} to a CPM of [\\d.]+ did not complete, so it is not in the log: The Ad Cabinet API could not be reached: the connection was reset`,
			),
		);
		expect(result.error?.message).toContain('may have taken effect');
	});
});
