// `npm run release:check`: what must hold before a version is published. Run after `npm run build`
// (the npm script does both). Checks, each printed PASS, FAIL or TODO:
//   1. the `npm pack` file list: every node, credential, codex file and icon n8n loads, the README,
//      the CHANGELOG and the LICENSE, and nothing else outside dist/ (no sources of tests, sandbox,
//      harness or scripts);
//   2. the licence: LICENSE holds the MIT text with a copyright line, as package.json says;
//   3. the identity n8n's verification compares with the repository: repository, bugs, homepage and
//      author in package.json (TODO while missing or still FILL_IN; a failure with --publish);
//   4. the README as npmjs.com shows it, that is after `npm run release:links` (which the publish
//      workflow runs) has made its relative links absolute from `repository`: no relative link or
//      picture left, no placeholder (TODO while repository.url is still FILL_IN), every linked file
//      present, in-page links to existing sections; the README in the repository holds no FILL_IN;
//   5. the GitHub workflows: publish.yml, ci.yml and dependabot.yml parse and hold what publishing
//      with provenance needs (scripts/release/rules.js);
//   6. n8n's community-package scanner (scripts/verify.mjs);
//   7. lint (n8n's community-node rules);
//   8. every documentationUrl (nodes and credential) and every codex (*.node.json) link points at a
//      section that exists in the README that is shipped;
//   9. the version is semver and the CHANGELOG has a section for it; with --publish on a tag, the tag
//      is v<version>;
//  10. every picture in docs/images/ is as new as what it shows: docs/images/manifest.json, written by
//      `npm run screenshots`, holds the hash of each picture's example file or node description
//      (scripts/release/images.js), and a picture without a record or whose source changed fails.
// `--publish` (the publish workflow) turns every TODO into a failure. Exits non-zero when any check
// fails; TODOs alone say what a release still needs and pass.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const rules = require('./release/rules.js');
const workflows = require('./release/workflows.js');
const images = require('./release/images.js');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const publishMode = process.argv.includes('--publish');
const results = [];

/** `run` returns the problems, or { problems, todos }: what only a release needs (failures with --publish). */
function check(name, run) {
	let problems;
	let todos = [];
	try {
		const outcome = run();
		if (Array.isArray(outcome)) problems = outcome;
		else ({ problems, todos } = outcome);
	} catch (error) {
		problems = [error instanceof Error ? error.message : String(error)];
	}
	if (publishMode) {
		problems = [...problems, ...todos];
		todos = [];
	}
	results.push({ name, problems, todos });
	console.log(`${problems.length ? 'FAIL' : todos.length ? 'TODO' : 'PASS'} ${name}`);
	for (const problem of problems) console.log(`     - ${problem}`);
	for (const todo of todos) console.log(`     - for a release: ${todo}`);
}

/** GitHub's (and npm's) anchor for a Markdown heading. */
function slug(heading) {
	return heading
		.trim()
		.toLowerCase()
		.replace(/<[^>]*>/g, '')
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

/** Every anchor a Markdown text offers: heading slugs (numbered when repeated) and explicit ids. */
function anchorsOf(markdown) {
	const anchors = new Set();
	const seen = new Map();
	let fenced = false;
	for (const line of markdown.split('\n')) {
		if (line.startsWith('```')) fenced = !fenced;
		if (fenced) continue;
		const heading = /^#{1,6}\s+(.*)$/.exec(line);
		if (heading) {
			const base = slug(heading[1]);
			const n = seen.get(base) ?? 0;
			seen.set(base, n + 1);
			anchors.add(n ? `${base}-${n}` : base);
		}
		for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]);
	}
	return anchors;
}

const packed = JSON.parse(
	execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
		cwd: root,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'ignore'],
	}),
)[0];
const files = new Set(packed.files.map((file) => file.path));
console.log(
	`npm pack: ${packed.filename}, ${files.size} files, ${(packed.size / 1024).toFixed(1)} KB`,
);
// The pack list: files outside dist/ by name, dist/ by folder.
const folders = new Map();
for (const path of [...files].sort()) {
	const parts = path.split('/');
	const key =
		parts[0] === 'dist' ? `${parts.slice(0, Math.min(3, parts.length - 1)).join('/')}/` : path;
	folders.set(key, (folders.get(key) ?? 0) + 1);
}
for (const [key, count] of folders)
	console.log(`     ${key.endsWith('/') ? `${key} (${count} files)` : key}`);
console.log('');

check('npm pack file list', () => {
	const problems = [];
	const need = (path, why) => {
		if (!files.has(path)) problems.push(`${path} is not in the package (${why})`);
	};
	need('package.json', 'always');
	need('README.md', 'the user guide the docs links point at');
	need('CHANGELOG.md', 'the changes of each version');
	need('LICENSE', 'the MIT licence package.json names');
	need(pkg.main, 'package.json "main"');
	for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials])
		need(file, 'listed under "n8n" in package.json');
	for (const file of pkg.n8n.nodes) need(file.replace(/\.js$/, '.json'), 'its codex');
	for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
		const Type = Object.values(require(join(root, file)))[0];
		const instance = new Type();
		const icon = instance.description?.icon ?? instance.icon;
		const icons = typeof icon === 'string' ? [icon] : Object.values(icon ?? {});
		for (const entry of icons) {
			const path = join(dirname(file), String(entry).replace(/^file:/, '')).replace(/\\/g, '/');
			need(path, `icon of ${file}`);
		}
	}
	const allowedOutside = new Set([
		'package.json',
		'README.md',
		'CHANGELOG.md',
		'LICENSE',
		pkg.main,
	]);
	for (const path of files) {
		if (!path.startsWith('dist/') && !allowedOutside.has(path))
			problems.push(`${path} should not be published`);
		if (/^dist\/(test|sandbox|harness|scripts|bench)\//.test(path))
			problems.push(`${path}: not part of the nodes`);
	}
	return problems;
});

function run(name, command, args) {
	check(name, () => {
		const result = spawnSync(command, args, { cwd: root, encoding: 'utf8' });
		if (result.status === 0) return [];
		const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-15);
		return [`${command} ${args.join(' ')} exited with ${result.status}`, ...output];
	});
}

check('licence', () => {
	const file = join(root, 'LICENSE');
	const text = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
	const problems = rules.licenceProblems(text, pkg);
	if (!problems.length)
		console.log(`     ${text.split('\n').find((line) => line.startsWith('Copyright'))}`);
	return problems;
});

check('identity (package.json: repository, bugs, homepage, author)', () => {
	const found = rules.identityProblems(pkg);
	for (const path of rules.IDENTITY_FIELDS) {
		const issue = found.find((p) => p.field === path);
		console.log(`     ${path.padEnd(15)} ${issue ? issue.kind : 'set'}`);
	}
	return {
		problems: found.filter((p) => p.kind === 'wrong').map((p) => p.detail),
		todos: found.filter((p) => p.kind !== 'wrong').map((p) => p.detail),
	};
});

check('README as npmjs.com shows it (links made absolute from repository)', () => {
	const readme = readFileSync(join(root, 'README.md'), 'utf8');
	const anchors = anchorsOf(readme);
	const links = rules.readmeLinks(readme);
	const { shown, problems, todos } = rules.npmReadme(readme, pkg, root);
	for (const link of links.filter((l) => l.target.startsWith('#'))) {
		if (!anchors.has(link.target.slice(1)))
			problems.push(`README line ${link.line}: ${link.target}: no such section`);
	}
	const relative = (markdown) =>
		rules
			.readmeLinks(markdown)
			.filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l.target) && !l.target.startsWith('#')).length;
	const placeholders = shown.split('\n').filter((line) => rules.PLACEHOLDER.test(line)).length;
	console.log(
		`     in the repository: ${links.length} links and pictures, ${relative(readme)} relative`,
	);
	console.log(
		`     as npm shows it: ${relative(shown)} relative, ${placeholders} line(s) with a placeholder`,
	);
	return { problems, todos };
});

check('GitHub workflows (publish with provenance, CI, dependabot)', () =>
	workflows.workflowProblems(root, pkg),
);

run("n8n's community-package scanner", process.execPath, [join(root, 'scripts', 'verify.mjs')]);
run('lint', 'npm', ['run', 'lint', '--silent']);

check('documentation links resolve to README sections', () => {
	const problems = [];
	const readme = readFileSync(join(root, 'README.md'), 'utf8');
	const anchors = anchorsOf(readme);
	// README sections of the repository (npm run release:links builds them from repository.url).
	const ours = [pkg.homepage?.split('#')[0]].filter(Boolean);
	const links = [];
	for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
		const Type = Object.values(require(join(root, file)))[0];
		const instance = new Type();
		const url = instance.description?.documentationUrl ?? instance.documentationUrl;
		if (url) links.push([`${file} documentationUrl`, url]);
		const codexFile = join(root, file.replace(/\.js$/, '.json'));
		if (!existsSync(codexFile)) continue;
		const codex = JSON.parse(readFileSync(codexFile, 'utf8'));
		for (const [kind, entries] of Object.entries(codex.resources ?? {})) {
			for (const entry of entries)
				links.push([`${file.replace(/\.js$/, '.json')} ${kind}`, entry.url]);
		}
	}
	if (!links.length) problems.push('no documentation links found');
	for (const [where, url] of links) {
		const [address, anchor] = String(url).split('#');
		if (!ours.includes(address))
			problems.push(
				`${where}: ${url} is not this repository's README (${ours[0]}): run npm run release:links`,
			);
		else if (!anchor) problems.push(`${where}: ${url} names no README section`);
		else if (!anchors.has(anchor))
			problems.push(`${where}: ${url}: the README has no section "#${anchor}"`);
	}
	console.log(`     ${links.length} documentation links checked`);
	return problems;
});

check('version and CHANGELOG', () => {
	const problems = [];
	if (!/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(pkg.version))
		problems.push(`version "${pkg.version}" is not semver`);
	const changelogFile = join(root, 'CHANGELOG.md');
	if (!existsSync(changelogFile)) return [...problems, 'CHANGELOG.md is missing'];
	const headings = readFileSync(changelogFile, 'utf8')
		.split('\n')
		.filter((line) => line.startsWith('## '));
	if (
		!headings.some(
			(line) =>
				line
					.slice(3)
					.trim()
					.split(/\s/)[0]
					.replace(/^\[|\]$/g, '') === pkg.version,
		)
	) {
		problems.push(`CHANGELOG.md has no "## ${pkg.version}" section`);
	}
	// The publish workflow runs on the tag: it must name this version.
	if (
		publishMode &&
		process.env.GITHUB_REF_TYPE === 'tag' &&
		process.env.GITHUB_REF_NAME !== `v${pkg.version}`
	) {
		problems.push(
			`the tag ${process.env.GITHUB_REF_NAME} is not v${pkg.version}, the version in package.json`,
		);
	}
	return problems;
});

check('pictures in docs/images as new as what they show', () => {
	const problems = images.staleImages(root);
	if (!problems.length) console.log(`     every picture matches ${images.MANIFEST}`);
	return problems;
});

const failed = results.filter((result) => result.problems.length);
const needs = [
	...new Set(results.flatMap((result) => result.todos).map((todo) => todo.split(' ')[0])),
];
console.log(
	`\nrelease check${publishMode ? ' (publish)' : ''}: ${results.length - failed.length} of ${results.length} passed${failed.length ? ` (failed: ${failed.map((f) => f.name).join(', ')})` : ''}${needs.length ? `; a release still needs: ${needs.join(', ')}` : ''}`,
);
process.exit(failed.length ? 1 : 0);
