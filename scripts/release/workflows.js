// What the GitHub workflows that test and publish this package must do, checked by
// `npm run release:check` and the jest tests: publish.yml publishes with provenance from a version
// tag after building and checking, ci.yml runs every check on pull requests, and dependabot.yml
// keeps npm packages and actions up to date.
'use strict';

const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
// js-yaml 4 comes with eslint (@eslint/eslintrc), a development dependency of this package.
const yaml = require('js-yaml');

function loadYaml(root, file) {
	const path = join(root, file);
	if (!existsSync(path)) return { problems: [`${file} is missing`] };
	try {
		return { doc: yaml.load(readFileSync(path, 'utf8')), problems: [] };
	} catch (error) {
		return { problems: [`${file} is not valid YAML: ${error.message.split('\n')[0]}`] };
	}
}

function runLines(job) {
	return (job?.steps ?? [])
		.map((step) => (typeof step.run === 'string' ? step.run : ''))
		.filter(Boolean);
}

function stepIndex(steps, pattern) {
	return steps.findIndex((step) => pattern.test(typeof step.run === 'string' ? step.run : ''));
}

function nodeVersionsOf(job) {
	const setup = (job?.steps ?? []).find((step) => /^actions\/setup-node@/.test(step.uses ?? ''));
	const version = setup?.with?.['node-version'];
	const matrix = job?.strategy?.matrix?.node ?? job?.strategy?.matrix?.['node-version'];
	if (typeof version === 'string' && /\$\{\{\s*matrix\./.test(version))
		return (matrix ?? []).map(String);
	return version === undefined ? [] : [String(version)];
}

/** Problems with .github/workflows/publish.yml, ci.yml and .github/dependabot.yml. */
function workflowProblems(root, pkg) {
	const problems = [];
	const publish = loadYaml(root, '.github/workflows/publish.yml');
	problems.push(...publish.problems);
	if (publish.doc) {
		const doc = publish.doc;
		const on = doc.on ?? doc[true];
		const tags = on?.push?.tags;
		if (!Array.isArray(tags) || tags.length === 0)
			problems.push('publish.yml: not triggered by a version tag (on.push.tags)');
		const jobs = Object.values(doc.jobs ?? {});
		const job = jobs.find((j) => runLines(j).some((line) => /npm publish/.test(line)));
		if (!job) problems.push('publish.yml: no step runs npm publish');
		const permissions = { ...(doc.permissions ?? {}), ...(job?.permissions ?? {}) };
		if (permissions['id-token'] !== 'write')
			problems.push(
				'publish.yml: permissions lack "id-token: write" (npm provenance signs with it)',
			);
		if (permissions.contents !== 'read')
			problems.push('publish.yml: permissions should be "contents: read"');
		const extra = Object.keys(permissions).filter((key) => !['id-token', 'contents'].includes(key));
		if (extra.length)
			problems.push(`publish.yml: permissions beyond contents and id-token: ${extra.join(', ')}`);
		if (job) {
			const steps = job.steps ?? [];
			const order = [
				['npm ci', /^npm ci\b/m],
				['npm run build', /^npm run build\b/m],
				['npm run release:links', /^npm run release:links\b/m],
				['npm run release:check -- --publish', /^npm run release:check -- --publish\b/m],
				[
					'npm publish --provenance --access public',
					/^npm publish\b.*--provenance\b.*--access public|^npm publish\b.*--access public\b.*--provenance\b/m,
				],
			];
			let last = -1;
			for (const [what, pattern] of order) {
				const at = stepIndex(steps, pattern);
				if (at < 0) problems.push(`publish.yml: no step runs \`${what}\``);
				else if (at < last) problems.push(`publish.yml: \`${what}\` runs before the step it needs`);
				else last = at;
			}
			if (!nodeVersionsOf(job).includes('24'))
				problems.push('publish.yml: actions/setup-node does not use Node 24');
			const setup = steps.find((step) => /^actions\/setup-node@/.test(step.uses ?? ''));
			if (setup?.with?.['registry-url'] !== 'https://registry.npmjs.org')
				problems.push('publish.yml: setup-node has no registry-url https://registry.npmjs.org');
			if (runLines(job).some((line) => /ignore-scripts\s*=?\s*false/.test(line)))
				problems.push('publish.yml: turns install scripts back on');
		}
	}
	// Lifecycle scripts that `npm publish` would run: the project's .npmrc (ignore-scripts) skips them.
	for (const name of ['prepare', 'prepack', 'prepublishOnly', 'prepublish', 'postpack']) {
		if (pkg.scripts?.[name])
			problems.push(
				`package.json script "${name}" would be skipped by .npmrc's ignore-scripts; build in the workflow instead`,
			);
	}

	const ci = loadYaml(root, '.github/workflows/ci.yml');
	problems.push(...ci.problems);
	if (ci.doc) {
		const on = ci.doc.on ?? ci.doc[true];
		if (!on || !('pull_request' in on)) problems.push('ci.yml: does not run on pull requests');
		const lines = Object.values(ci.doc.jobs ?? {})
			.flatMap(runLines)
			.join('\n');
		for (const [what, pattern] of [
			['npm ci', /^npm ci\b/m],
			['npm run lint', /^npm run lint\b/m],
			['npm run typecheck', /^npm run typecheck\b/m],
			['npm run build', /^npm run build\b/m],
			['npm run test:unit', /^npm run test:unit\b/m],
			['npm run release:check', /^npm run release:check\b/m],
		]) {
			if (!pattern.test(lines)) problems.push(`ci.yml: no step runs \`${what}\``);
		}
	}

	const dependabot = loadYaml(root, '.github/dependabot.yml');
	problems.push(...dependabot.problems);
	if (dependabot.doc) {
		if (dependabot.doc.version !== 2) problems.push('dependabot.yml: version is not 2');
		const updates = dependabot.doc.updates ?? [];
		for (const ecosystem of ['npm', 'github-actions']) {
			const entry = updates.find((u) => u['package-ecosystem'] === ecosystem);
			if (!entry) problems.push(`dependabot.yml: no updates for ${ecosystem}`);
			else if (!entry.schedule?.interval)
				problems.push(`dependabot.yml: ${ecosystem} has no schedule.interval`);
		}
	}
	return problems;
}

module.exports = { workflowProblems };
