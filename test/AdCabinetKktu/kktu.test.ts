import type { INodeParameters } from 'n8n-workflow';
import { runNode } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';

interface TreeNode {
	id: string;
	tree_id: number;
	code: string;
	name: string;
	children: TreeNode[];
}

/** Ground truth from the sandbox's seeded tree, walked independently of the node's code. */
function expectedFlat(tree: TreeNode[]) {
	const out: { id: string; code: string; name: string; level: number; path: string[] }[] = [];
	const walk = (nodes: TreeNode[], level: number, path: string[]) => {
		for (const node of nodes) {
			out.push({
				id: node.id,
				code: node.code,
				name: node.name,
				level,
				path: [...path, node.name],
			});
			walk(node.children, level + 1, [...path, node.name]);
		}
	};
	walk(tree, 1, []);
	return out;
}

const getMany = (parameters: INodeParameters = {}): INodeParameters => ({
	resource: 'category',
	operation: 'getAll',
	...parameters,
});

describe('Ad Cabinet KKTU', () => {
	const sandbox = useSandbox();

	test('Get Tree returns the tree as the API sends it, one item per top-level category', async () => {
		const { items, error } = await runNode({
			type: 'adCabinetKktu',
			parameters: { resource: 'category', operation: 'getTree' },
			credentials: credentialsFor(sandbox()),
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual(JSON.parse(JSON.stringify(sandbox().data.kktu)));
		expect(items.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(true);
		expect(apiRequests(sandbox()).map((r) => [r.method, r.api, r.path])).toEqual([
			['GET', 'client', '/api/kktu'],
		]);
	});

	test('Get Many returns only the third-level categories by default, with level and path', async () => {
		const { items, error } = await runNode({
			type: 'adCabinetKktu',
			parameters: getMany(),
			credentials: credentialsFor(sandbox()),
		});
		expect(error).toBeUndefined();
		const tree = sandbox().data.kktu as unknown as TreeNode[];
		const leaves = expectedFlat(tree).filter((node) => node.level === 3);
		expect(items).toHaveLength(sandbox().data.kktuIdsAtLevel(3).length);
		expect(items.map((item) => item.json)).toEqual(
			leaves.map((leaf) => ({ ...leaf, tree_id: 1, selectable: true })),
		);
		expect(items[0].json).toMatchObject({
			code: '1.1.1',
			level: 3,
			path: ['Food and beverages', 'Restaurants and cafes', 'Restaurants and cafes: goods'],
		});
	});

	test('with Only Selectable off, Get Many lists every level, parents before children', async () => {
		const { items } = await runNode({
			type: 'adCabinetKktu',
			parameters: getMany({ onlySelectable: false }),
			credentials: credentialsFor(sandbox()),
		});
		const expected = expectedFlat(sandbox().data.kktu as unknown as TreeNode[]);
		expect(items.map((item) => [item.json.id, item.json.level, item.json.path])).toEqual(
			expected.map((node) => [node.id, node.level, node.path]),
		);
		expect(new Set(items.map((item) => item.json.level))).toEqual(new Set([1, 2, 3]));
		expect(items.filter((item) => item.json.selectable).length).toBe(
			sandbox().data.kktuIdsAtLevel(3).length,
		);
	});

	test('the search filter matches names (case-insensitive) and code prefixes', async () => {
		const byName = await runNode({
			type: 'adCabinetKktu',
			parameters: getMany({ filters: { search: 'HOTELS' } }),
			credentials: credentialsFor(sandbox()),
		});
		expect(byName.items.map((item) => item.json.name)).toEqual([
			'Hotels: goods',
			'Hotels: services',
			'Hotels: promotions',
		]);
		const byCode = await runNode({
			type: 'adCabinetKktu',
			parameters: getMany({ onlySelectable: false, filters: { search: '2.3' } }),
			credentials: credentialsFor(sandbox()),
		});
		expect(byCode.items.map((item) => item.json.code)).toEqual(['2.3', '2.3.1', '2.3.2', '2.3.3']);
	});

	test('Limit cuts the list; a Limit below 1 is refused before any request', async () => {
		const limited = await runNode({
			type: 'adCabinetKktu',
			parameters: getMany({ returnAll: false, limit: 4 }),
			credentials: credentialsFor(sandbox()),
		});
		expect(limited.items.map((item) => item.json.code)).toEqual([
			'1.1.1',
			'1.1.2',
			'1.1.3',
			'1.2.1',
		]);
		sandbox().clearLog();
		const refused = await runNode({
			type: 'adCabinetKktu',
			parameters: getMany({ returnAll: false, limit: 0 }),
			credentials: credentialsFor(sandbox()),
		});
		expect(refused.error?.message).toBe(
			'Limit: must be a whole number of at least 1 (got 0). Nothing was sent to the API.',
		);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	test('a transient 502 on the tree is retried (a read) and the list comes out whole', async () => {
		sandbox().faults.onNth(1, '502');
		const { items, error } = await runNode({
			type: 'adCabinetKktu',
			parameters: getMany(),
			credentials: credentialsFor(sandbox()),
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(sandbox().data.kktuIdsAtLevel(3).length);
		expect(apiRequests(sandbox()).map((r) => r.status)).toEqual([502, 200]);
	});
});
