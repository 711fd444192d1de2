import { NodeHelpers, type INodeParameters, type INodeType } from 'n8n-workflow';
import { itemsOf, listExamples, runExample } from '../../harness';
import { HarnessNodeTypes } from '../../harness/nodeTypes';
import { credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';

describe('example workflows run in-process against the sandbox', () => {
	const sandbox = useSandbox();
	const examples = listExamples();

	test('there are example workflows, each with documentation inside', () => {
		expect(examples.length).toBeGreaterThanOrEqual(2);
		for (const example of examples) {
			expect(example.nodes.some((node) => node.type === 'n8n-nodes-base.stickyNote')).toBe(true);
			for (const node of example.nodes) {
				expect(node.type).toMatch(/^(n8n-nodes-base\.|n8n-nodes-ad-cabinet\.)/);
			}
		}
	});

	test.each(examples.map((example) => [example.file, example] as const))(
		'%s runs without errors',
		async (_file, example) => {
			const result = await runExample(example, credentialsFor(sandbox()));
			expect(result.error).toBeUndefined();
			for (const [name, run] of Object.entries(result.nodes)) {
				expect([name, run.error?.message]).toEqual([name, undefined]);
				expect([name, itemsOf(result, name).length > 0]).toEqual([name, true]);
			}
		},
	);

	test('stats-trigger-to-sheet writes with Append or Update Row on row_key, which n8n keeps when it loads the workflow', async () => {
		const example = examples.find((e) => e.file === 'stats-trigger-to-sheet.json');
		const sheet = example?.nodes.find((node) => node.name === 'Write to sheet');
		if (!example || !sheet)
			throw new Error('stats-trigger-to-sheet.json or its "Write to sheet" node is missing');
		// n8n drops parameters its panel hides (Google Sheets hides Columns and Options until a sheet
		// is chosen), as an import does; the example names its sheet so the match column stays.
		const type = new HarnessNodeTypes().getByNameAndVersion(
			sheet.type,
			sheet.typeVersion,
		) as INodeType;
		const kept = NodeHelpers.getNodeParameters(
			type.description.properties,
			sheet.parameters,
			false,
			false,
			sheet,
			type.description,
		) as INodeParameters;
		expect(kept).toMatchObject({
			operation: 'appendOrUpdate',
			columns: { mappingMode: 'autoMapInputData', matchingColumns: ['row_key'] },
			options: { cellFormat: 'RAW' },
		});
		const result = await runExample(example, credentialsFor(sandbox()));
		const rows = itemsOf(result, 'New stats rows');
		expect(rows.length).toBeGreaterThan(0);
		for (const row of rows)
			expect(row.json.row_key).toEqual(expect.stringMatching(/\|d\|EUR\|c\d+$/));
	});

	test('stats-to-csv writes one CSV line per statistics row', async () => {
		const example = examples.find((e) => e.file === 'stats-to-csv.json');
		if (!example) throw new Error('stats-to-csv.json is missing');
		const result = await runExample(example, credentialsFor(sandbox()));
		const rows = itemsOf(result, 'Stats by campaign');
		expect(rows.length).toBeGreaterThan(10);
		const [file] = itemsOf(result, 'CSV file');
		const csv = Buffer.from(file.binary?.data.data ?? '', 'base64')
			.toString('utf8')
			.replace(/^\uFEFF/, '');
		const lines = csv.split('\n').filter(Boolean);
		expect(file.binary?.data.fileName).toBe('ad-stats.csv');
		expect(lines).toHaveLength(rows.length + 1);
		expect(lines[0].split(',')).toEqual(Object.keys(rows[0].json));
		expect(lines[1]).toContain(String(rows[0].json.campaign_name));
	});
});
