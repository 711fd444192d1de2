import { apiClient, TEST_NOW } from '../support/sandboxClient';
import { useSandbox } from '../support/useSandbox';

interface Node {
	id: string;
	tree_id: number;
	code: string;
	name: string;
	children: Node[];
}

describe('KKTU classifier', () => {
	const sandbox = useSandbox({ platform: 'ext', now: TEST_NOW, adCount: 5 });
	const client = apiClient(sandbox, 'client');

	test('{ items } is a three-level tree with dotted codes and string ids', async () => {
		const { status, body } = await client.get('/api/kktu');
		expect(status).toBe(200);
		expect(Object.keys(body)).toEqual(['items']);
		const seen: string[] = [];
		const walk = (nodes: Node[], level: number, parentCode: string | null) => {
			for (const node of nodes) {
				expect(Object.keys(node)).toEqual(['id', 'tree_id', 'code', 'name', 'children']);
				expect(typeof node.id).toBe('string');
				expect(typeof node.tree_id).toBe('number');
				expect(node.code.split('.')).toHaveLength(level);
				if (parentCode) expect(node.code.startsWith(`${parentCode}.`)).toBe(true);
				if (level === 3) expect(node.children).toEqual([]);
				else expect(node.children.length).toBeGreaterThan(0);
				seen.push(node.id);
				walk(node.children, level + 1, node.code);
			}
		};
		expect(body.items.length).toBeGreaterThan(1);
		walk(body.items, 1, null);
		expect(new Set(seen).size).toBe(seen.length);
		expect(sandbox().data.kktuIdsAtLevel(3)).toEqual(
			body.items.flatMap((r: Node) => r.children.flatMap((c) => c.children.map((l) => l.id))),
		);
	});
});
