// What a release of this package must satisfy beyond its code, shared by `npm run release:check`,
// `npm run release:links` and the jest tests: the identity fields of package.json, the licence and
// the README's links as npmjs.com shows them (the GitHub workflows that publish it: workflows.js).
'use strict';

const { existsSync, statSync } = require('node:fs');
const { join } = require('node:path');

/** Values a maintainer has still to replace carry this mark (GitHub names cannot hold "_"). */
const PLACEHOLDER = /FILL_IN/;

/** The identity fields n8n's verification compares with the source repository, in package.json. */
const IDENTITY_FIELDS = ['repository.url', 'bugs.url', 'homepage', 'author.name', 'author.email'];

function field(pkg, path) {
	if (path === 'author.name' && typeof pkg.author === 'string')
		return pkg.author.replace(/\s*<.*$/, '');
	if (path === 'author.email' && typeof pkg.author === 'string')
		return /<([^>]+)>/.exec(pkg.author)?.[1];
	if (path === 'repository.url' && typeof pkg.repository === 'string') return pkg.repository;
	if (path === 'bugs.url' && typeof pkg.bugs === 'string') return pkg.bugs;
	return path.split('.').reduce((value, key) => (value == null ? undefined : value[key]), pkg);
}

/** {owner, name, base} of a GitHub repository field, or undefined for another host or none. */
function githubRepository(pkg) {
	const url = field(pkg, 'repository.url');
	if (typeof url !== 'string') return undefined;
	const match =
		/^(?:git\+)?https:\/\/github\.com\/([^/\s]+)\/([^/\s#]+?)(?:\.git)?\/?$/.exec(url) ??
		/^(?:github:)?([A-Za-z0-9_-]+)\/([A-Za-z0-9_.-]+)$/.exec(url);
	if (!match) return undefined;
	const [, owner, name] = match;
	return { owner, name, base: `https://github.com/${owner}/${name}` };
}

/**
 * Problems with the identity fields, each {field, kind, detail}: kind is 'missing', 'placeholder'
 * (a value still to fill in) or 'wrong' (present but not what a release needs).
 */
function identityProblems(pkg) {
	const problems = [];
	for (const path of IDENTITY_FIELDS) {
		const value = field(pkg, path);
		const then =
			{
				'repository.url': ', then run npm run release:links',
				'bugs.url': ' (npm run release:links sets it from repository.url)',
				homepage: ' (npm run release:links sets it from repository.url)',
			}[path] ?? '';
		if (typeof value !== 'string' || value.trim() === '') {
			problems.push({
				field: path,
				kind: 'missing',
				detail: `${path} is missing: set it in package.json${then}`,
			});
		} else if (PLACEHOLDER.test(value)) {
			problems.push({
				field: path,
				kind: 'placeholder',
				detail: `${path} is still the placeholder "${value}": fill it in package.json${then}`,
			});
		}
	}
	const repo = githubRepository(pkg);
	const url = field(pkg, 'repository.url');
	if (typeof url === 'string' && !repo) {
		problems.push({
			field: 'repository.url',
			kind: 'wrong',
			detail: `"${url}" is not a GitHub repository (git+https://github.com/<owner>/<name>.git): the README's links and pictures are built from it`,
		});
	}
	if (repo) {
		const expected = { 'bugs.url': `${repo.base}/issues`, homepage: `${repo.base}#readme` };
		for (const [path, wanted] of Object.entries(expected)) {
			const value = field(pkg, path);
			if (typeof value === 'string' && value !== wanted && !PLACEHOLDER.test(value)) {
				problems.push({
					field: path,
					kind: 'wrong',
					detail: `${path} is "${value}", not ${wanted} (from repository.url)`,
				});
			}
		}
	}
	const email = field(pkg, 'author.email');
	if (
		typeof email === 'string' &&
		!PLACEHOLDER.test(email) &&
		!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)
	) {
		problems.push({
			field: 'author.email',
			kind: 'wrong',
			detail: `"${email}" is not an email address`,
		});
	}
	return problems;
}

/** The MIT licence text after its copyright line, whitespace folded. */
const MIT_BODY = [
	'Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated documentation files (the "Software"), to deal in the Software without restriction, including without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the following conditions:',
	'The above copyright notice and this permission notice shall be included in all copies or substantial portions of the Software.',
	'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.',
].join(' ');

const fold = (text) => text.replace(/\s+/g, ' ').trim();

/** Problems with LICENSE against package.json's "license" (MIT). */
function licenceProblems(text, pkg) {
	const problems = [];
	if (pkg.license !== 'MIT') problems.push(`package.json "license" is "${pkg.license}", not "MIT"`);
	if (text === undefined) return [...problems, 'LICENSE is missing'];
	const lines = text.trim().split('\n');
	if (lines[0].trim() !== 'MIT License') problems.push('LICENSE does not start with "MIT License"');
	const copyright = lines.find((line) => /^Copyright \(c\) \d{4}/.test(line));
	if (!copyright) problems.push('LICENSE has no "Copyright (c) <year> <holder>" line');
	else if (PLACEHOLDER.test(copyright)) problems.push(`LICENSE copyright is still "${copyright}"`);
	if (!fold(text).endsWith(fold(MIT_BODY)))
		problems.push('LICENSE does not hold the MIT licence text');
	return problems;
}

// ---- README links -------------------------------------------------------------------------

/** Markdown links and images outside code, each {image, target, index, length, line}. */
function readmeLinks(markdown) {
	const links = [];
	let fenced = false;
	let offset = 0;
	markdown.split('\n').forEach((line, lineIndex) => {
		if (line.startsWith('```')) fenced = !fenced;
		if (!fenced) {
			const pattern = /(!?)\[((?:[^[\]]|\[[^\]]*\])*)\]\(([^)\s]+)\)/g;
			for (const match of line.matchAll(pattern)) {
				const at = match.index + match[0].lastIndexOf('(') + 1;
				links.push({
					image: match[1] === '!',
					target: match[3],
					index: offset + at,
					length: match[3].length,
					line: lineIndex + 1,
				});
			}
			for (const match of line.matchAll(/<(?:img|a)\s[^>]*?(?:src|href)="([^"]+)"/g)) {
				const at = match.index + match[0].lastIndexOf(match[1]);
				links.push({
					image: match[0].startsWith('<img'),
					target: match[1],
					index: offset + at,
					length: match[1].length,
					line: lineIndex + 1,
				});
			}
		}
		offset += line.length + 1;
	});
	return links;
}

/** The file or folder of this repository an absolute GitHub link points at, or undefined. */
function repositoryPathOf(target, root) {
	const match =
		/^https:\/\/github\.com\/([^/]+)\/([^/]+)\/(?:blob|tree|raw)\/([^/]+)\/([^#?]+)/.exec(target) ??
		/^https:\/\/raw\.githubusercontent\.com\/([^/]+)\/([^/]+)\/([^/]+)\/([^#?]+)/.exec(target);
	if (!match) return undefined;
	const path = decodeURIComponent(match[4]);
	return existsSync(join(root, path)) ? path : undefined;
}

/** The absolute address npm shows for a path of this repository (the default branch, HEAD). */
function absoluteLink(repo, path, anchor, image, root) {
	if (image) return `https://raw.githubusercontent.com/${repo.owner}/${repo.name}/HEAD/${path}`;
	const kind =
		existsSync(join(root, path)) && statSync(join(root, path)).isDirectory() ? 'tree' : 'blob';
	return `${repo.base}/${kind}/HEAD/${path}${anchor ? `#${anchor}` : ''}`;
}

const isRelative = (target) =>
	!/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#') && !target.startsWith('//');

/**
 * Links npmjs.com cannot serve: a relative link (npm shows the README alone: neither the
 * repository's files nor the tarball's are reachable from it), and a link into this repository
 * that is not the address built from package.json's repository. Each {line, target, detail}.
 */
function readmeLinkProblems(markdown, pkg, root) {
	const repo = githubRepository(pkg);
	const problems = [];
	for (const link of readmeLinks(markdown)) {
		if (isRelative(link.target)) {
			problems.push({
				line: link.line,
				target: link.target,
				detail: 'a relative link, which breaks on npmjs.com (run npm run release:links)',
			});
			continue;
		}
		const path = repositoryPathOf(link.target, root);
		if (!repo) continue;
		const own = [`${repo.base}/`, `https://raw.githubusercontent.com/${repo.owner}/${repo.name}/`];
		if (path === undefined) {
			if (own.some((prefix) => link.target.startsWith(prefix))) {
				problems.push({
					line: link.line,
					target: link.target,
					detail: 'names no file of this repository',
				});
			}
			continue;
		}
		const anchor = link.target.split('#')[1];
		const wanted = absoluteLink(repo, path, anchor, link.image, root);
		if (link.target !== wanted) {
			problems.push({
				line: link.line,
				target: link.target,
				detail: `should be ${wanted} (from repository.url; npm run release:links)`,
			});
		}
	}
	return problems;
}

/** The README with every relative link and every link into this repository made absolute from `repository`. */
function rewriteReadme(markdown, pkg, root) {
	const repo = githubRepository(pkg);
	if (!repo)
		throw new Error(
			'package.json "repository" is not a GitHub repository: the README links cannot be built from it',
		);
	let out = markdown;
	for (const link of readmeLinks(markdown).reverse()) {
		let path;
		if (isRelative(link.target))
			path = link.target.split('#')[0].replace(/^\.\//, '').replace(/\/$/, '');
		else path = repositoryPathOf(link.target, root);
		if (path === undefined) continue;
		if (!existsSync(join(root, path)))
			throw new Error(`README line ${link.line}: ${link.target} names no file of this repository`);
		const anchor = link.target.split('#')[1];
		const wanted = absoluteLink(repo, path, anchor, link.image, root);
		out = out.slice(0, link.index) + wanted + out.slice(link.index + link.length);
	}
	return out;
}

/**
 * The README as npmjs.com will show it, and what stands in the way. In the repository the README's
 * links and pictures are relative (they work on GitHub and in a clone); at publish the workflow runs
 * `npm run release:links`, which makes them absolute from package.json's `repository`, the form
 * built here. Returns {shown, problems, todos}: problems are a README in the repository that holds a
 * placeholder, a link to a file that does not exist, or a link the rewrite leaves relative or wrong;
 * todos say that the shown README still carries package.json's placeholder (a failure at publish).
 */
function npmReadme(markdown, pkg, root) {
	const problems = [];
	const todos = [];
	markdown.split('\n').forEach((line, index) => {
		if (PLACEHOLDER.test(line))
			problems.push(
				`README line ${index + 1} holds FILL_IN: in the repository write links relative (npm run release:links makes them absolute from repository.url at publish), and fill repository.url in package.json`,
			);
	});
	if (!githubRepository(pkg)) {
		problems.push(
			'package.json "repository" is not a GitHub repository: the README links cannot be made absolute from it',
		);
		return { shown: markdown, problems, todos };
	}
	const shown = rewriteReadme(markdown, pkg, root);
	for (const p of readmeLinkProblems(shown, pkg, root))
		problems.push(`README line ${p.line} as npm shows it: ${p.target}: ${p.detail}`);
	const placeholders = shown
		.split('\n')
		.map((line, index) => (PLACEHOLDER.test(line) ? index + 1 : 0))
		.filter(Boolean);
	if (placeholders.length && !PLACEHOLDER.test(markdown))
		todos.push(
			`repository.url is still the placeholder, so the README as npm shows it would link to it on ${placeholders.length} line(s) (${placeholders.slice(0, 5).join(', ')}${placeholders.length > 5 ? ', …' : ''}): fill repository.url in package.json`,
		);
	return { shown, problems, todos };
}

/**
 * The text of a credential or codex file with its documentation links (a README section of this
 * repository, such as https://github.com/<owner>/<name>#credentials) built from package.json's
 * repository, whatever owner they held before. n8n shows them as each node's and the credential's
 * Docs link; the repository's README is there for every install, a tarball's included, and for a
 * version not yet on npm.
 */
function rewriteDocLinks(text, pkg) {
	const repo = githubRepository(pkg);
	if (!repo) return text;
	const name = pkg.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	const pattern = new RegExp(
		`https://(?:github\\.com/[^/\\s"'\`]+/${name}|www\\.npmjs\\.com/package/${name})#`,
		'g',
	);
	return text.replace(pattern, `${repo.base}#`);
}

/** package.json's bugs and homepage as repository.url implies them. */
function derivedIdentity(pkg) {
	const repo = githubRepository(pkg);
	if (!repo) return undefined;
	return { bugs: { url: `${repo.base}/issues` }, homepage: `${repo.base}#readme` };
}

module.exports = {
	PLACEHOLDER,
	IDENTITY_FIELDS,
	identityProblems,
	licenceProblems,
	readmeLinks,
	readmeLinkProblems,
	rewriteReadme,
	rewriteDocLinks,
	npmReadme,
	derivedIdentity,
};
