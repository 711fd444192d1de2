import type {
	IExecuteSingleFunctions,
	ILoadOptionsFunctions,
	INodeListSearchResult,
} from 'n8n-workflow';
import { PATHS } from './constants';
import { apiRequest, type RequestContext } from './transport/request';

/** A KKTU classifier node, flattened. */
export interface KktuNode {
	id: string;
	tree_id?: number;
	code: string;
	name: string;
	children?: KktuNode[];
}

/** A KKTU node with its place in the tree (what the KKTU node's Get Many outputs). */
interface FlatKktuNode {
	id: string;
	tree_id?: number;
	code: string;
	name: string;
	/** 1 for roots; an ad takes only level 3. */
	level: number;
	/** Names from the root down to this node. */
	path: string[];
	selectable: boolean;
}

/** `kktu_ids` takes the id of a node on the third level (docs/api-rules.md#kktu-category). */
export const SELECTABLE_KKTU_LEVEL = 3;

async function fetchKktuTree(this: RequestContext, itemIndex?: number): Promise<KktuNode[]> {
	const body = (await apiRequest.call(this, {
		api: 'client',
		method: 'GET',
		path: PATHS.kktu,
		itemIndex,
	})) as { items?: KktuNode[] } | KktuNode[] | undefined;
	if (Array.isArray(body)) return body;
	return Array.isArray(body?.items) ? body.items : [];
}

/** Depth-first, parents before children, in the API's order. */
export function flattenKktu(tree: KktuNode[]): FlatKktuNode[] {
	const out: FlatKktuNode[] = [];
	const walk = (nodes: KktuNode[], level: number, path: string[]) => {
		for (const node of nodes) {
			const nodePath = [...path, node.name];
			out.push({
				id: String(node.id),
				...(node.tree_id !== undefined ? { tree_id: node.tree_id } : {}),
				code: node.code,
				name: node.name,
				level,
				path: nodePath,
				selectable: level === SELECTABLE_KKTU_LEVEL,
			});
			if (Array.isArray(node.children) && node.children.length)
				walk(node.children, level + 1, nodePath);
		}
	};
	walk(tree, 1, []);
	return out;
}

/** Case-insensitive match on name, code or path. */
export function matchesKktu(node: FlatKktuNode, search: string | undefined): boolean {
	if (!search) return true;
	const needle = search.trim().toLowerCase();
	return (
		node.code.toLowerCase().startsWith(needle) ||
		node.name.toLowerCase().includes(needle) ||
		node.path.join(' / ').toLowerCase().includes(needle)
	);
}

function label(node: FlatKktuNode): string {
	return `${node.code} ${node.path.join(' / ')}`;
}

/** Searchable list of the selectable KKTU nodes, for a resource locator. */
export async function searchKktu(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const results = flattenKktu(await fetchKktuTree.call(this))
		.filter((node) => node.selectable && matchesKktu(node, filter))
		.map((node) => ({ name: label(node), value: node.id }));
	return { results };
}

const treesByExecution = new WeakMap<object, Promise<FlatKktuNode[]>>();

/**
 * The flattened tree, read once per execution of a node and shared by all its items: a sheet of
 * 200 ads checks its KKTU ids against one GET /api/kktu, not 200. The node's execution
 * context object is the key, so the copy goes when the execution does.
 */
export async function kktuForExecution(this: IExecuteSingleFunctions): Promise<FlatKktuNode[]> {
	const key = executionKey(this);
	let flat = key && treesByExecution.get(key);
	if (!flat) {
		flat = fetchKktuTree.call(this, this.getItemIndex()).then(flattenKktu);
		if (key) {
			treesByExecution.set(key, flat);
			// A failed read is not kept, so a later item asks again.
			flat.catch(() => treesByExecution.delete(key));
		}
	}
	return await flat;
}

/** The node's context object of this execution; undefined where a runner provides none (no caching then). */
function executionKey(fx: IExecuteSingleFunctions): object | undefined {
	try {
		return fx.getContext('node');
	} catch {
		return undefined;
	}
}
