import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeParameters } from 'n8n-workflow';
import { runNode } from '../../harness';
import { EXAMPLES_DIR } from '../../harness/examples';
import { credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';

interface Node {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
}

const SYNC_DIR = join(EXAMPLES_DIR, 'sync');
const examples = readdirSync(SYNC_DIR)
	.filter((file) => file.endsWith('.json'))
	.map((file) => ({
		file,
		...(JSON.parse(readFileSync(join(SYNC_DIR, file), 'utf8')) as { nodes: Node[] }),
	}));

/** The columns the example's note tells the user to create. */
function noteColumns(note: string): string[] {
	const sql = /CREATE TABLE \w+ \(([\s\S]*?)\n\);/.exec(note);
	if (sql) return sql[1].split(',').map((line) => line.trim().split(/\s+/)[0]);
	const listed = /with the columns ([\s\S]*?)\.$/m.exec(note);
	return [...(listed?.[1] ?? '').matchAll(/`(\w+)`/g)].map((match) => match[1]);
}

describe('the sync examples (examples/sync/, run for real by npm run test:sync and test:sheets)', () => {
	const sandbox = useSandbox();

	test('there are three: PostgreSQL Insert or Update, data table Upsert and Google Sheets Append or Update Row, each matching on row_key', () => {
		const stores = examples.map((example) =>
			example.nodes.find((n) => /\.(postgres|dataTable|googleSheets)$/.test(n.type)),
		);
		expect(stores.map((node) => [node?.type, node?.parameters.operation]).sort()).toEqual([
			['n8n-nodes-base.dataTable', 'upsert'],
			['n8n-nodes-base.googleSheets', 'appendOrUpdate'],
			['n8n-nodes-base.postgres', 'upsert'],
		]);
		const sheets = stores.find((node) => node?.type === 'n8n-nodes-base.googleSheets');
		expect(sheets?.parameters).toMatchObject({
			authentication: 'serviceAccount',
			columns: { mappingMode: 'autoMapInputData', matchingColumns: ['row_key'] },
			// Raw stores each value as sent: a key or a name is never read as a date or a number.
			options: { cellFormat: 'RAW' },
		});
		const postgres = stores.find((node) => node?.type === 'n8n-nodes-base.postgres');
		expect((postgres?.parameters.columns as { matchingColumns: string[] }).matchingColumns).toEqual(
			['row_key'],
		);
		const dataTable = stores.find((node) => node?.type === 'n8n-nodes-base.dataTable');
		expect(dataTable?.parameters.filters).toEqual({
			conditions: [{ keyName: 'row_key', condition: 'eq', keyValue: '={{ $json.row_key }}' }],
		});
	});

	test.each(examples.map((example) => [example.file, example] as const))(
		'%s: a rolling Last 3 Days whose rows have exactly the columns its note creates',
		async (_file, example) => {
			const stats = example.nodes.find(
				(n) => n.type === 'n8n-nodes-ad-cabinet.adCabinetStats',
			) as Node;
			expect(stats.typeVersion).toBe(1.2);
			expect(stats.parameters).toMatchObject({
				period: 'lastNDays',
				lastDays: 3,
				includeToday: true,
				simplify: true,
			});
			const note = example.nodes.find((n) => n.type === 'n8n-nodes-base.stickyNote')?.parameters
				.content as string;
			const { items, error } = await runNode({
				type: 'adCabinetStats',
				typeVersion: stats.typeVersion,
				parameters: stats.parameters as INodeParameters,
				credentials: credentialsFor(sandbox()),
			});
			expect(error).toBeUndefined();
			expect(items.length).toBeGreaterThan(5);
			const columns = noteColumns(note).sort();
			for (const item of items) expect(Object.keys(item.json).sort()).toEqual(columns);
		},
	);
});
