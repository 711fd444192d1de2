import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

const ROOT = join(__dirname, '..', '..');

/**
 * Each node the package lists for n8n (package.json's `n8n.nodes`), its description loaded from its
 * TypeScript source, so that a test reads what the next build will hold.
 */
export function packageNodeDescriptions(): INodeTypeDescription[] {
	const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[] };
	};
	return pkg.n8n.nodes.map((built) => {
		const source = join(ROOT, built.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
		const Type = Object.values(require(source) as Record<string, new () => INodeType>)[0];
		return new Type().description;
	});
}

/** A node's newest version: what a node added to a workflow today gets. */
export const newestVersion = (version: number | number[]) =>
	Math.max(...(Array.isArray(version) ? version : [version]));
