// `npm run release:check`: what must hold before a version is published. Run after `npm run build`
// (the npm script does both). Checks, each printed PASS or FAIL:
//   1. the `npm pack` file list: every node, credential, codex file and icon n8n loads, the README and
//      the CHANGELOG, and nothing else outside dist/ (no sources of tests, sandbox, harness or scripts);
//   2. n8n's community-package scanner (scripts/verify.mjs);
//   3. lint (n8n's community-node rules);
//   4. every documentationUrl (nodes and credential) and every codex (*.node.json) link points at a
//      section that exists in the README that is shipped, and the README's own links resolve;
//   5. the version is semver and the CHANGELOG has a section for it.
// Exits non-zero when any check fails.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const results = [];

function check(name, run) {
	let problems;
	try {
		problems = run();
	} catch (error) {
		problems = [error instanceof Error ? error.message : String(error)];
	}
	results.push({ name, problems });
	console.log(`${problems.length ? 'FAIL' : 'PASS'} ${name}`);
	for (const problem of problems) console.log(`     - ${problem}`);
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
console.log(`npm pack: ${packed.filename}, ${files.size} files, ${(packed.size / 1024).toFixed(1)} KB\n`);

check('npm pack file list', () => {
	const problems = [];
	const need = (path, why) => {
		if (!files.has(path)) problems.push(`${path} is not in the package (${why})`);
	};
	need('package.json', 'always');
	need('README.md', 'the user guide the docs links point at');
	need('CHANGELOG.md', 'the changes of each version');
	need(pkg.main, 'package.json "main"');
	for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) need(file, 'listed under "n8n" in package.json');
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
	const allowedOutside = new Set(['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', pkg.main]);
	for (const path of files) {
		if (!path.startsWith('dist/') && !allowedOutside.has(path)) problems.push(`${path} should not be published`);
		if (/^dist\/(test|sandbox|harness|scripts|bench)\//.test(path)) problems.push(`${path}: not part of the nodes`);
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

run("n8n's community-package scanner", process.execPath, [join(root, 'scripts', 'verify.mjs')]);
run('lint', 'npm', ['run', 'lint', '--silent']);

check('documentation links resolve to README sections', () => {
	const problems = [];
	const readme = readFileSync(join(root, 'README.md'), 'utf8');
	const anchors = anchorsOf(readme);
	const ours = [`https://www.npmjs.com/package/${pkg.name}`, pkg.homepage].filter(Boolean);
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
			for (const entry of entries) links.push([`${file.replace(/\.js$/, '.json')} ${kind}`, entry.url]);
		}
	}
	if (!links.length) problems.push('no documentation links found');
	for (const [where, url] of links) {
		const [address, anchor] = String(url).split('#');
		if (!ours.includes(address)) problems.push(`${where}: ${url} is not this package's page (${ours[0]})`);
		else if (!anchor) problems.push(`${where}: ${url} names no README section`);
		else if (!anchors.has(anchor)) problems.push(`${where}: ${url}: the README has no section "#${anchor}"`);
	}
	// The README's own links: local files exist, in-page anchors exist.
	for (const match of readme.matchAll(/\]\(([^)\s]+)\)/g)) {
		const target = match[1];
		if (/^[a-z]+:/i.test(target)) continue;
		if (target.startsWith('#')) {
			if (!anchors.has(target.slice(1))) problems.push(`README link ${target}: no such section`);
		} else if (!existsSync(join(root, target.split('#')[0]))) {
			problems.push(`README link ${target}: no such file in the repository`);
		}
	}
	console.log(`     ${links.length} documentation links checked`);
	return problems;
});

check('version and CHANGELOG', () => {
	const problems = [];
	if (!/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(pkg.version)) problems.push(`version "${pkg.version}" is not semver`);
	const changelogFile = join(root, 'CHANGELOG.md');
	if (!existsSync(changelogFile)) return [...problems, 'CHANGELOG.md is missing'];
	const headings = readFileSync(changelogFile, 'utf8')
		.split('\n')
		.filter((line) => line.startsWith('## '));
	if (!headings.some((line) => line.slice(3).trim().split(/\s/)[0].replace(/^\[|\]$/g, '') === pkg.version)) {
		problems.push(`CHANGELOG.md has no "## ${pkg.version}" section`);
	}
	return problems;
});

const failed = results.filter((result) => result.problems.length);
console.log(
	`\nrelease check: ${results.length - failed.length} of ${results.length} passed${failed.length ? ` (failed: ${failed.map((f) => f.name).join(', ')})` : ''}`,
);
process.exit(failed.length ? 1 : 0);
