// `npm run release:links`: sets `bugs` and `homepage` in package.json from `repository`, and
// rewrites the README's relative links to files of this repository as absolute addresses on its
// default branch (pictures through raw.githubusercontent.com), so they work on npmjs.com, which
// shows the README without the repository's files. The publish workflow runs it on its checkout
// before packing; in the repository the README keeps its relative links, so after running it by
// hand commit package.json only. It also builds the nodes' and the credential's documentation links
// (README sections of the repository) from `repository`, in the sources and in dist/ (the publish
// workflow builds first): commit those sources with package.json. Prints what changed.
'use strict';

const { existsSync, readdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { derivedIdentity, rewriteDocLinks, rewriteReadme } = require('./rules');

const root = join(__dirname, '..', '..');
const pkgFile = join(root, 'package.json');
const readmeFile = join(root, 'README.md');
const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));

const derived = derivedIdentity(pkg);
if (!derived) {
	console.error(
		'package.json "repository.url" is not a GitHub repository (git+https://github.com/<owner>/<name>.git)',
	);
	process.exit(1);
}
let changed = 0;
if (pkg.bugs?.url !== derived.bugs.url || pkg.homepage !== derived.homepage) {
	pkg.bugs = derived.bugs;
	pkg.homepage = derived.homepage;
	writeFileSync(pkgFile, `${JSON.stringify(pkg, null, '\t')}\n`);
	console.log(`package.json: bugs ${derived.bugs.url}, homepage ${derived.homepage}`);
	changed++;
}
// The credential's documentationUrl and every codex file's links, in the sources and the build.
const docLinkFiles = [join(root, 'credentials', 'AdCabinetApi.credentials.ts')];
for (const dir of readdirSync(join(root, 'nodes'))) {
	docLinkFiles.push(join(root, 'nodes', dir, `${dir}.node.json`));
}
for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
	docLinkFiles.push(join(root, file), join(root, file.replace(/\.js$/, '.json')));
}
for (const file of docLinkFiles) {
	if (!existsSync(file)) continue;
	const text = readFileSync(file, 'utf8');
	const rewritten = rewriteDocLinks(text, pkg);
	if (rewritten === text) continue;
	writeFileSync(file, rewritten);
	console.log(
		`${file.slice(root.length + 1)}: documentation links built from ${pkg.repository.url}`,
	);
	changed++;
}
const before = readFileSync(readmeFile, 'utf8');
const after = rewriteReadme(before, pkg, root);
if (after !== before) {
	writeFileSync(readmeFile, after);
	const count = before.split('\n').filter((line, i) => line !== after.split('\n')[i]).length;
	console.log(`README.md: ${count} line(s) with links rewritten from ${pkg.repository.url}`);
	changed++;
}
console.log(
	changed
		? 'Commit package.json and the documentation links of credentials/ and nodes/ if they changed. Keep README.md relative in the repository (git checkout README.md): the publish workflow makes its links absolute at publish.'
		: 'Nothing to change: the links already follow package.json.',
);
