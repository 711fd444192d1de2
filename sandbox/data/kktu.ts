import type { KktuNode } from './model';

const TREE: readonly [string, readonly string[]][] = [
	['Food and beverages', ['Restaurants and cafes', 'Grocery', 'Beverages']],
	['Electronics', ['Smartphones', 'Computers', 'Home appliances']],
	['Education', ['Online courses', 'Language schools', 'Children education']],
	['Financial services', ['Banking', 'Insurance', 'Investments']],
	['Travel', ['Air travel', 'Hotels', 'Tours']],
];

const LEAF_SUFFIXES = ['goods', 'services', 'promotions'];

const KKTU_TREE_ID = 1;

/** KKTU classifier: 5 roots, 3 children each, 3 leaves each. Ids are numeric strings in depth-first order from 501. */
export function buildKktuTree(): KktuNode[] {
	let nextId = 501;
	const node = (code: string, name: string, children: KktuNode[] = []): KktuNode => ({
		id: String(nextId++),
		tree_id: KKTU_TREE_ID,
		code,
		name,
		children,
	});
	return TREE.map(([rootName, childNames], r) => {
		const root = node(`${r + 1}`, rootName);
		root.children = childNames.map((childName, c) => {
			const child = node(`${r + 1}.${c + 1}`, childName);
			child.children = LEAF_SUFFIXES.map((suffix, l) =>
				node(`${r + 1}.${c + 1}.${l + 1}`, `${childName}: ${suffix}`),
			);
			return child;
		});
		return root;
	});
}

/** Every node with its nesting level (1 = root). */
export function flattenKktu(tree: KktuNode[]): { node: KktuNode; level: number }[] {
	const out: { node: KktuNode; level: number }[] = [];
	const walk = (nodes: KktuNode[], level: number) => {
		for (const n of nodes) {
			out.push({ node: n, level });
			walk(n.children, level + 1);
		}
	};
	walk(tree, 1);
	return out;
}
