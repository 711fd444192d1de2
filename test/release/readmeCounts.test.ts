import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { newestVersion, packageNodeDescriptions } from '../support/packageNodes';

/**
 * The README's stated counts (nodes, operations, the newest node versions) are the package's: a node,
 * an operation or a node version added without the README saying so fails here. Operations are
 * counted as a user adding each node now sees them: in its newest version.
 */
const ROOT = join(__dirname, '..', '..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
const descriptions = packageNodeDescriptions();

/** Whether a parameter is shown in node version `version` (its @version show and hide rules). */
function shownIn(property: INodeProperties, version: number): boolean {
	const show = property.displayOptions?.show?.['@version'] as number[] | undefined;
	const hide = property.displayOptions?.hide?.['@version'] as number[] | undefined;
	return (!show || show.includes(version)) && !(hide ?? []).includes(version);
}

/** The operations of a node's newest version: `<resource> <operation>`. */
function operationsOf(description: INodeTypeDescription): string[] {
	const version = newestVersion(description.version);
	const shown = description.properties.filter((p) => shownIn(p, version));
	const resources = new Set(
		shown
			.filter((p) => p.name === 'resource')
			.flatMap((p) => (p.options ?? []).map((o) => String((o as { value: string }).value))),
	);
	const operations = new Set<string>();
	for (const property of shown.filter((p) => p.name === 'operation')) {
		for (const resource of (property.displayOptions?.show?.resource ?? []) as string[]) {
			if (!resources.has(resource)) continue;
			for (const option of property.options ?? [])
				operations.add(`${resource} ${String((option as { value: string }).value)}`);
		}
	}
	return [...operations];
}

describe("the README's counts", () => {
	test('the number of nodes and of operations', () => {
		const operations = descriptions.flatMap(operationsOf).length;
		const stated = /\*\*(\d+) nodes, (\d+) operations\.\*\*/.exec(readme);
		expect(stated).not.toBeNull();
		expect({ nodes: Number(stated?.[1]), operations: Number(stated?.[2]) }).toEqual({
			nodes: descriptions.length,
			operations,
		});
	});

	test("each node's newest version", () => {
		const stated = /Newest node versions[^:]*: ([^.]+(?:\.\d+[^.]*)*)\./.exec(readme);
		expect(stated).not.toBeNull();
		const listed = Object.fromEntries(
			(stated?.[1] ?? '').split(', ').map((entry) => {
				const at = entry.lastIndexOf(' ');
				return [entry.slice(0, at), Number(entry.slice(at + 1))];
			}),
		);
		const actual = Object.fromEntries(
			descriptions.map((d) => [
				d.displayName.replace(/^Ad Cabinet /, ''),
				newestVersion(d.version),
			]),
		);
		expect(listed).toEqual(actual);
	});
});
