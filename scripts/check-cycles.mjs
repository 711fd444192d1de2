// Part of `npm run lint`: no two TypeScript files of the repository import each other, directly or
// through others. Such files have no order in which one can be read, loaded or tested alone: what
// both need belongs in a third file they both import. ESLint's import-x/no-cycle finds the circles
// of value imports as you type; this check counts every import, `import type` and `import()`
// included, so that a circle of types is refused too.
// Prints each circle as the path around it; exits 1 when there is any.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { files, known, rel } from './sourceFiles.mjs';

/** The files of the repository that `file` imports, in any form. */
function importsOf(file) {
	const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
	const targets = new Set();
	for (const { fileName } of importedFiles) {
		if (!fileName.startsWith('.')) continue;
		const base = resolve(dirname(file), fileName).replace(/\.(js|ts)$/, '');
		const target = [`${base}.ts`, join(base, 'index.ts')].find((path) => known.has(path));
		if (target) targets.add(target);
	}
	return [...targets];
}

const graph = new Map(files.map((file) => [file, importsOf(file)]));

// Tarjan's strongly connected components: each component of more than one file holds a circle.
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const components = [];
let counter = 0;
function connect(file) {
	index.set(file, counter);
	low.set(file, counter);
	counter += 1;
	stack.push(file);
	onStack.add(file);
	for (const next of graph.get(file)) {
		if (!index.has(next)) {
			connect(next);
			low.set(file, Math.min(low.get(file), low.get(next)));
		} else if (onStack.has(next)) {
			low.set(file, Math.min(low.get(file), index.get(next)));
		}
	}
	if (low.get(file) !== index.get(file)) return;
	const component = [];
	let member;
	do {
		member = stack.pop();
		onStack.delete(member);
		component.push(member);
	} while (member !== file);
	if (component.length > 1 || graph.get(file).includes(file)) components.push(component);
}
for (const file of files) if (!index.has(file)) connect(file);

/** One shortest way from `from` back to itself inside its component, as the files in order. */
function circleThrough(from, members) {
	const previous = new Map([[from, undefined]]);
	const queue = [from];
	while (queue.length) {
		const file = queue.shift();
		for (const next of graph.get(file)) {
			if (!members.has(next)) continue;
			if (next === from) {
				const path = [file];
				while (previous.get(path[0])) path.unshift(previous.get(path[0]));
				return [...path, from];
			}
			if (!previous.has(next)) {
				previous.set(next, file);
				queue.push(next);
			}
		}
	}
	return [from, from];
}

for (const component of components) {
	const members = new Set(component);
	const start = [...component].sort()[0];
	console.log(
		`import circle of ${component.length} file(s): ${circleThrough(start, members).map(rel).join(' -> ')}`,
	);
}
console.log(
	components.length
		? `\n${components.length} import circle(s): move what the files of each need from one another into a file they both import.`
		: `no import circles among ${files.length} files`,
);
process.exit(components.length ? 1 : 0);
