import { itemsOf, listExamples, runExample } from '../../harness';
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

	test.each(examples.map((example) => [example.file, example] as const))('%s runs without errors', async (_file, example) => {
		const result = await runExample(example, credentialsFor(sandbox()));
		expect(result.error).toBeUndefined();
		for (const [name, run] of Object.entries(result.nodes)) {
			expect([name, run.error?.message]).toEqual([name, undefined]);
			expect([name, itemsOf(result, name).length > 0]).toEqual([name, true]);
		}
	});

	test('stats-to-csv writes one CSV line per statistics row', async () => {
		const example = examples.find((e) => e.file === 'stats-to-csv.json');
		if (!example) throw new Error('stats-to-csv.json is missing');
		const result = await runExample(example, credentialsFor(sandbox()));
		const rows = itemsOf(result, 'Stats by campaign');
		expect(rows.length).toBeGreaterThan(10);
		const [file] = itemsOf(result, 'CSV file');
		const csv = Buffer.from(file.binary?.data.data ?? '', 'base64').toString('utf8').replace(/^\uFEFF/, '');
		const lines = csv.split('\n').filter(Boolean);
		expect(file.binary?.data.fileName).toBe('ad-stats.csv');
		expect(lines).toHaveLength(rows.length + 1);
		expect(lines[0].split(',')).toEqual(Object.keys(rows[0].json));
		expect(lines[1]).toContain(String(rows[0].json.campaign_name));
	});
});
