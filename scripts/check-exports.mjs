// `npm run check:exports`: every exported name of every TypeScript file under the source folders
// must be imported by another file. An export no other file uses widens what a reader must keep in
// mind when changing the file; drop the `export` (or the code, if its own file does not use it
// either). Imports count in every form: `import`, `import type`, `export … from` (a re-export
// counts as a use; `export *` passes uses through), `import * as ns` (each `ns.name`), `require()`
// and `import()` of a relative path (a path into dist/ counts as its source), and `import('…')`
// types. Used from outside: the node and credential classes package.json's `n8n` section lists,
// jest test files and the entry files package.json's scripts run directly.
// Prints the findings per file and the count per folder; exits 1 when there is any.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import ts from 'typescript';
import { files, FOLDERS, known, rel, ROOT } from './sourceFiles.mjs';

const ALL = '*';

/** A relative specifier as the file it names, or undefined (a package, or outside the sources). */
function resolveSpecifier(from, specifier) {
	if (!specifier.startsWith('.')) return undefined;
	let base = resolve(dirname(from), specifier).replace(/\.(js|ts)$/, '');
	const dist = join(ROOT, 'dist') + sep;
	if (base.startsWith(dist)) base = join(ROOT, base.slice(dist.length));
	for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) {
		if (known.has(candidate)) return candidate;
	}
	return undefined;
}

const hasExport = (node) =>
	ts.canHaveModifiers(node) &&
	(ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
const hasDefault = (node) =>
	(ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);

/** Per file: its exports (name → declaration line) and the uses it makes of other files. */
function scan(file) {
	const text = readFileSync(file, 'utf8');
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
	const exports = new Map();
	const uses = []; // { target, name } with name ALL for every export
	const stars = []; // targets of `export * from`
	const namespaces = new Map(); // local namespace name → target
	const listed = new Set(); // names exported by an `export { … }` list, not at their declaration
	const line = (node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
	const use = (specifier, name) => {
		const target = resolveSpecifier(file, specifier);
		if (target) uses.push({ target, name });
		return target;
	};

	for (const statement of source.statements) {
		if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
			const specifier = statement.moduleSpecifier.text;
			const clause = statement.importClause;
			if (!clause) continue;
			if (clause.name) use(specifier, 'default');
			const bindings = clause.namedBindings;
			if (bindings && ts.isNamespaceImport(bindings)) {
				const target = resolveSpecifier(file, specifier);
				if (target) namespaces.set(bindings.name.text, target);
			} else if (bindings) {
				for (const element of bindings.elements) {
					use(specifier, (element.propertyName ?? element.name).text);
				}
			}
		} else if (ts.isExportDeclaration(statement)) {
			const specifier =
				statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
					? statement.moduleSpecifier.text
					: undefined;
			const clause = statement.exportClause;
			if (!clause) {
				const target = specifier && resolveSpecifier(file, specifier);
				if (target) stars.push(target);
			} else if (ts.isNamespaceExport(clause)) {
				exports.set(clause.name.text, line(statement));
				if (specifier) use(specifier, ALL);
			} else {
				for (const element of clause.elements) {
					exports.set(element.name.text, line(element));
					listed.add(element.name.text);
					if (specifier) use(specifier, (element.propertyName ?? element.name).text);
				}
			}
		} else if (ts.isExportAssignment(statement)) {
			exports.set('default', line(statement));
		} else if (hasExport(statement)) {
			if (hasDefault(statement)) exports.set('default', line(statement));
			else if (ts.isVariableStatement(statement)) {
				for (const declaration of statement.declarationList.declarations) {
					if (ts.isIdentifier(declaration.name))
						exports.set(declaration.name.text, line(declaration));
				}
			} else if (statement.name && ts.isIdentifier(statement.name)) {
				exports.set(statement.name.text, line(statement));
			}
		}
	}

	// require('./x'), import('./x') and import('./x') types anywhere in the file, and `ns.name`.
	const visit = (node) => {
		if (ts.isCallExpression(node) && node.arguments.length === 1) {
			const [argument] = node.arguments;
			const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
			const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
			if ((isRequire || isImport) && ts.isStringLiteralLike(argument)) {
				for (const name of namesTaken(node)) use(argument.text, name);
			}
		}
		if (ts.isImportTypeNode(node)) {
			const literal = ts.isLiteralTypeNode(node.argument) ? node.argument.literal : undefined;
			if (literal && ts.isStringLiteral(literal)) {
				const qualifier = node.qualifier;
				const first = qualifier && (ts.isIdentifier(qualifier) ? qualifier : leftmost(qualifier));
				use(literal.text, first ? first.text : ALL);
			}
		}
		if (ts.isIdentifier(node) && namespaces.has(node.text) && !isDeclarationName(node)) {
			const target = namespaces.get(node.text);
			const parent = node.parent;
			if (ts.isPropertyAccessExpression(parent) && parent.expression === node) {
				uses.push({ target, name: parent.name.text });
			} else if (ts.isQualifiedName(parent) && parent.left === node) {
				uses.push({ target, name: parent.right.text });
			} else {
				uses.push({ target, name: ALL });
			}
		}
		ts.forEachChild(node, visit);
	};
	visit(source);

	// Whether a name is used in its own file beyond its declaration and its export.
	const ownUses = new Map();
	const count = (node) => {
		if (ts.isIdentifier(node) && exports.has(node.text) && !isDeclarationName(node)) {
			ownUses.set(node.text, (ownUses.get(node.text) ?? 0) + 1);
		}
		ts.forEachChild(node, count);
	};
	count(source);
	return { exports, uses, stars, ownUses, listed };
}

function leftmost(name) {
	return ts.isIdentifier(name) ? name : leftmost(name.left);
}

function isDeclarationName(node) {
	const parent = node.parent;
	if (!parent) return false;
	if (ts.isExportSpecifier(parent) || ts.isImportSpecifier(parent) || ts.isNamespaceImport(parent))
		return true;
	return 'name' in parent && parent.name === node && !ts.isPropertyAccessExpression(parent);
}

/** Which names a `require()`/`import()` call takes: destructured, `.name`, or every one. */
function namesTaken(call) {
	let node = call;
	while (
		ts.isAwaitExpression(node.parent) ||
		ts.isParenthesizedExpression(node.parent) ||
		ts.isAsExpression(node.parent)
	) {
		node = node.parent;
	}
	const parent = node.parent;
	if (ts.isPropertyAccessExpression(parent) && parent.expression === node)
		return [parent.name.text];
	if (ts.isVariableDeclaration(parent) && ts.isObjectBindingPattern(parent.name)) {
		return parent.name.elements.map((element) => {
			const name = element.propertyName ?? element.name;
			return ts.isIdentifier(name) ? name.text : ALL;
		});
	}
	return [ALL];
}

/** Files whose exports count as used from outside the sources. */
function entryFiles() {
	const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
	const entries = new Set();
	for (const path of [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])]) {
		entries.add(join(ROOT, path.replace(/^dist\//, '').replace(/\.js$/, '.ts')));
	}
	for (const command of Object.values(pkg.scripts ?? {})) {
		for (const match of command.matchAll(/[\w./-]+\.ts\b/g)) entries.add(join(ROOT, match[0]));
	}
	for (const file of files) if (file.endsWith('.test.ts')) entries.add(file);
	return entries;
}

const scanned = new Map(files.map((file) => [file, scan(file)]));
const used = new Map(files.map((file) => [file, new Set()]));

/** Marks `name` of `target` used, following `export *` to the files that define it. */
function markUsed(target, name, seen = new Set()) {
	if (seen.has(target)) return;
	seen.add(target);
	const info = scanned.get(target);
	if (!info) return;
	if (name === ALL) {
		for (const exported of info.exports.keys()) used.get(target).add(exported);
	} else if (info.exports.has(name)) {
		used.get(target).add(name);
		return;
	}
	for (const star of info.stars) markUsed(star, name, seen);
}

for (const [file, info] of scanned) {
	for (const { target, name } of info.uses) if (target !== file) markUsed(target, name);
}
for (const file of entryFiles()) {
	if (scanned.has(file)) markUsed(file, ALL);
}

const findings = new Map();
for (const [file, info] of scanned) {
	const unused = [...info.exports].filter(([name]) => !used.get(file).has(name));
	if (unused.length) findings.set(file, unused);
}

const perFolder = new Map(FOLDERS.map((folder) => [folder, 0]));
for (const [file, unused] of [...findings].sort(([a], [b]) => a.localeCompare(b))) {
	console.log(rel(file));
	for (const [name, at] of unused.sort((a, b) => a[1] - b[1])) {
		const info = scanned.get(file);
		const advice = info.listed.has(name)
			? 'in an export list no file imports it from: take it out of the list'
			: info.ownUses.get(name)
				? 'used only in this file: drop `export`'
				: 'used nowhere: delete it';
		console.log(`  ${at}: ${name}  ${advice}`);
	}
	const folder = rel(file).split('/')[0];
	perFolder.set(folder, perFolder.get(folder) + unused.length);
}
const total = [...perFolder.values()].reduce((a, b) => a + b, 0);
console.log(
	`\nexports no other file imports: ${total} (${[...perFolder].map(([f, n]) => `${f} ${n}`).join(', ')})`,
);
process.exit(total ? 1 : 0);
