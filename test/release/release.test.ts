/**
 * What a release needs beyond the code (scripts/release/rules.js and workflows.js, used by
 * `npm run release:check`): the workflows that publish with provenance, the identity fields, the
 * licence, and a README whose links work on npmjs.com. Each rule is tried on this repository's files and on a broken copy.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Problem {
	field?: string;
	kind?: string;
	line?: number;
	target?: string;
	detail: string;
}
interface PackageJson {
	name: string;
	license: string;
	scripts?: Record<string, string>;
	[key: string]: unknown;
}
interface Rules {
	identityProblems(pkg: PackageJson): Problem[];
	licenceProblems(text: string | undefined, pkg: PackageJson): string[];
	readmeLinkProblems(markdown: string, pkg: PackageJson, root: string): Problem[];
	rewriteReadme(markdown: string, pkg: PackageJson, root: string): string;
	npmReadme(
		markdown: string,
		pkg: PackageJson,
		root: string,
	): { shown: string; problems: string[]; todos: string[] };
}
interface Workflows {
	workflowProblems(root: string, pkg: PackageJson): string[];
}

const root = join(__dirname, '..', '..');
const rules = require('../../scripts/release/rules.js') as Rules;
const workflows = require('../../scripts/release/workflows.js') as Workflows;
// js-yaml 4 comes with eslint; it has no type declarations of its own.
const yaml = require('js-yaml') as { load(text: string): unknown };
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson;
const read = (file: string) => readFileSync(join(root, file), 'utf8');

/** A package.json as a maintainer fills it in. */
const filled: PackageJson = {
	...pkg,
	author: { name: 'A Maintainer', email: 'maintainer@example.org' },
	repository: {
		type: 'git',
		url: 'git+https://github.com/example-owner-for-tests/n8n-nodes-ad-cabinet.git',
	},
	bugs: { url: 'https://github.com/example-owner-for-tests/n8n-nodes-ad-cabinet/issues' },
	homepage: 'https://github.com/example-owner-for-tests/n8n-nodes-ad-cabinet#readme',
};

/** A copy of the workflow files in a temp folder, one of them changed. */
function withChangedFile(file: string, change: (text: string) => string): string {
	const dir = mkdtempSync(join(tmpdir(), 'release-rules-'));
	cpSync(join(root, '.github'), join(dir, '.github'), { recursive: true });
	writeFileSync(join(dir, file), change(read(file)));
	return dir;
}

describe('GitHub workflows', () => {
	it('publish.yml parses as YAML, asks for id-token: write and publishes with --provenance', () => {
		const doc = yaml.load(read('.github/workflows/publish.yml')) as {
			on: { push: { tags: string[] } };
			permissions: Record<string, string>;
			jobs: Record<string, { steps: Array<{ run?: string }> }>;
		};
		expect(doc.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
		expect(doc.on.push.tags).toEqual(['v*.*.*']);
		const runs = Object.values(doc.jobs).flatMap((job) => job.steps.map((s) => s.run ?? ''));
		expect(runs).toContain('npm publish --provenance --access public');
		expect(runs).toContain('npm run release:check -- --publish');
		expect(runs.indexOf('npm run release:links')).toBeGreaterThan(-1);
		expect(runs.indexOf('npm run release:links')).toBeLessThan(
			runs.indexOf('npm run release:check -- --publish'),
		);
	});

	it('ci.yml and dependabot.yml parse, and every rule holds for the files in the repository', () => {
		expect(() => yaml.load(read('.github/workflows/ci.yml'))).not.toThrow();
		expect(() => yaml.load(read('.github/dependabot.yml'))).not.toThrow();
		expect(workflows.workflowProblems(root, pkg)).toEqual([]);
	});

	it.each([
		[
			'without id-token: write',
			(t: string) => t.replace('id-token: write', 'id-token: none'),
			/id-token: write/,
		],
		['without --provenance', (t: string) => t.replace(' --provenance', ''), /--provenance/],
		[
			'publishing before the release check',
			(t: string) => t.replace('npm run release:check -- --publish', 'echo skipped'),
			/release:check -- --publish/,
		],
		[
			'publishing a README whose links were not made absolute',
			(t: string) => t.replace('npm run release:links', 'echo skipped'),
			/release:links/,
		],
		['on Node 20', (t: string) => t.replace("node-version: '24'", "node-version: '20'"), /Node 24/],
		['broken YAML', (t: string) => `${t}\n  - : [`, /not valid YAML/],
	])('finds a publish.yml %s', (_, change, expected) => {
		const dir = withChangedFile('.github/workflows/publish.yml', change);
		try {
			expect(workflows.workflowProblems(dir, pkg).join('\n')).toMatch(expected);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it('finds a lifecycle script that the project .npmrc would skip at publish time', () => {
		const problems = workflows.workflowProblems(root, {
			...pkg,
			scripts: { ...pkg.scripts, prepublishOnly: 'npm run build' },
		});
		expect(problems.join('\n')).toMatch(/prepublishOnly/);
	});
});

describe('identity', () => {
	it('names every field still to fill in while it holds a FILL_IN placeholder or is missing', () => {
		const placeholders: PackageJson = {
			...filled,
			author: { name: 'FILL_IN maintainer name', email: 'FILL_IN@example.invalid' },
			repository: {
				type: 'git',
				url: 'git+https://github.com/FILL_IN_OWNER/n8n-nodes-ad-cabinet.git',
			},
			bugs: { url: 'https://github.com/FILL_IN_OWNER/n8n-nodes-ad-cabinet/issues' },
			homepage: 'https://github.com/FILL_IN_OWNER/n8n-nodes-ad-cabinet#readme',
		};
		expect(
			rules
				.identityProblems(placeholders)
				.map((p) => `${p.field} ${p.kind}`)
				.sort(),
		).toEqual(
			['author.email', 'author.name', 'bugs.url', 'homepage', 'repository.url'].map(
				(f) => `${f} placeholder`,
			),
		);
		// This repository's package.json: each field set, or still a placeholder, never wrong.
		expect(rules.identityProblems(pkg).filter((p) => p.kind === 'wrong')).toEqual([]);
	});

	it('accepts a filled-in package.json, and names a missing field and a bugs URL of another repository', () => {
		expect(rules.identityProblems(filled)).toEqual([]);
		const withoutAuthor: PackageJson = { ...filled };
		delete withoutAuthor.author;
		expect(rules.identityProblems(withoutAuthor).map((p) => p.field)).toEqual([
			'author.name',
			'author.email',
		]);
		const otherBugs = { ...filled, bugs: { url: 'https://github.com/someone/else/issues' } };
		expect(rules.identityProblems(otherBugs)).toEqual([
			expect.objectContaining({ field: 'bugs.url', kind: 'wrong' }),
		]);
	});
});

describe('licence', () => {
	it('LICENSE is the MIT text with a copyright line; a changed text is found', () => {
		const text = read('LICENSE');
		expect(rules.licenceProblems(text, pkg)).toEqual([]);
		expect(rules.licenceProblems(text.replace('merge, publish,', 'merge,'), pkg)).toEqual([
			'LICENSE does not hold the MIT licence text',
		]);
		expect(rules.licenceProblems(undefined, pkg)).toEqual(['LICENSE is missing']);
	});
});

describe('README links on npmjs.com', () => {
	const readme = read('README.md');
	const relative = (markdown: string) =>
		rules
			.readmeLinkProblems(markdown, filled, root)
			.filter((p) => p.detail.includes('a relative link'));

	it('the README in the repository links relatively and holds no placeholder', () => {
		expect(readme).not.toMatch(/FILL_IN/);
		expect(relative(readme).length).toBeGreaterThan(0);
	});

	it('as npm shows it (after release:links) every link is absolute, from repository, with no placeholder', () => {
		const { shown, problems, todos } = rules.npmReadme(readme, filled, root);
		expect(problems).toEqual([]);
		expect(todos).toEqual([]);
		expect(relative(shown)).toEqual([]);
		expect(shown).not.toMatch(/FILL_IN/);
		expect(shown).toContain(
			'(https://raw.githubusercontent.com/example-owner-for-tests/n8n-nodes-ad-cabinet/HEAD/docs/images/example-workflow.png)',
		);
		expect(shown).toContain(
			'(https://github.com/example-owner-for-tests/n8n-nodes-ad-cabinet/tree/HEAD/examples)',
		);
		expect(rules.readmeLinkProblems(shown, filled, root)).toEqual([]);
	});

	it('while repository.url is FILL_IN, the README as npm would show it is a TODO, which --publish turns into a failure', () => {
		const { problems, todos } = rules.npmReadme(readme, pkg, root);
		expect(problems).toEqual([]);
		expect(todos).toEqual([expect.stringMatching(/^repository\.url is still the placeholder/)]);
	});

	it('a placeholder written into the README, or a link to a missing file, is a problem', () => {
		const withPlaceholder = `${readme}\n[x](https://github.com/FILL_IN_OWNER/n8n-nodes-ad-cabinet/blob/HEAD/docs/releasing.md)\n`;
		expect(rules.npmReadme(withPlaceholder, filled, root).problems).toEqual([
			expect.stringMatching(/^README line \d+ holds FILL_IN/),
		]);
		expect(() =>
			rules.npmReadme(`${readme}\n[gone](docs/no-such-page.md)\n`, filled, root),
		).toThrow(/names no file of this repository/);
	});

	it('a relative link or picture is found, and release:links makes it absolute from repository', () => {
		const edited = `${readme}\n![A picture](docs/images/stats-node-panel.png) and [the guide](docs/development.md#commands)\n`;
		expect(relative(edited).map((p) => p.target)).toEqual(
			expect.arrayContaining(['docs/images/stats-node-panel.png', 'docs/development.md#commands']),
		);
		const rewritten = rules.rewriteReadme(edited, filled, root);
		expect(rewritten).toContain(
			'![A picture](https://raw.githubusercontent.com/example-owner-for-tests/n8n-nodes-ad-cabinet/HEAD/docs/images/stats-node-panel.png)',
		);
		expect(rewritten).toContain(
			'[the guide](https://github.com/example-owner-for-tests/n8n-nodes-ad-cabinet/blob/HEAD/docs/development.md#commands)',
		);
		expect(rules.readmeLinkProblems(rewritten, filled, root)).toEqual([]);
	});

	it('after repository changes, links made for the old one are found until release:links rewrites them', () => {
		const old = rules.rewriteReadme(readme, filled, root);
		const moved = {
			...filled,
			repository: {
				type: 'git',
				url: 'git+https://github.com/another-owner/n8n-nodes-ad-cabinet.git',
			},
		};
		const stale = rules.readmeLinkProblems(old, moved, root);
		expect(stale.length).toBeGreaterThan(0);
		expect(stale.every((p) => /another-owner/.test(p.detail))).toBe(true);
		expect(rules.readmeLinkProblems(rules.rewriteReadme(old, moved, root), moved, root)).toEqual(
			[],
		);
	});
});
