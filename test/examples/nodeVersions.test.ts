import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { EXAMPLES_DIR } from '../../harness/examples';
import { newestVersion, packageNodeDescriptions } from '../support/packageNodes';

/** Every workflow file under examples/, its folders included, as its path there. */
function exampleFiles(dir = EXAMPLES_DIR): string[] {
	return readdirSync(dir)
		.sort()
		.flatMap((entry) => {
			const path = join(dir, entry);
			if (statSync(path).isDirectory()) return exampleFiles(path);
			return entry.endsWith('.json') ? [path] : [];
		});
}

/**
 * An example shows what a user gets who adds the node today: each of the package's nodes in every
 * example is at the node's newest version, so raising a node's version fails here until the
 * examples follow.
 */
test("every node of the package in every example is at the node's newest version", () => {
	const newest = new Map(
		packageNodeDescriptions().map((d) => [
			`n8n-nodes-ad-cabinet.${d.name}`,
			newestVersion(d.version),
		]),
	);
	const found: Array<[string, string, string, number]> = [];
	for (const path of exampleFiles()) {
		const workflow = JSON.parse(readFileSync(path, 'utf8')) as {
			nodes: Array<{ name: string; type: string; typeVersion: number }>;
		};
		for (const node of workflow.nodes) {
			// An AI tool variant (`adCabinetStatsTool`) shares its node's versions.
			const type = node.type.replace(/Tool$/, '');
			if (!type.startsWith('n8n-nodes-ad-cabinet.')) continue;
			found.push([relative(EXAMPLES_DIR, path), node.name, type, node.typeVersion]);
		}
	}
	expect(found.length).toBeGreaterThan(10);
	expect(found.filter(([, , type]) => !newest.has(type))).toEqual([]);
	expect(found.filter(([, , type, version]) => version !== newest.get(type))).toEqual([]);
});
