import js from '@eslint/js';
import { config as n8nConfig } from '@n8n/node-cli/eslint';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// What n8n loads: the nodes and the credential (package.json has its own block in n8n's config).
const PACKAGE_FILES = ['nodes/**/*.ts', 'credentials/**/*.ts'];
// What runs only on a developer's machine or in CI, never inside n8n.
const DEVELOPMENT_FILES = [
	'sandbox/**/*.ts',
	'harness/**/*.ts',
	'test/**/*.ts',
	'scripts/**/*.ts',
	'bench/**/*.ts',
];

// n8n's own configuration (`npx n8n-node lint`, with n8n Cloud support) is written for a package's
// source and lints every .ts file. The sandbox, harness, tests, scripts and benchmark run in Node and
// may use what n8n Cloud forbids inside a node (process, timers, fs), so n8n's blocks for every .ts
// file apply here to the package's files only; every other block of it is kept as it is.
const n8nForThePackage = n8nConfig.map((block) =>
	block.files?.length === 1 && block.files[0] === '**/*.ts'
		? { ...block, files: PACKAGE_FILES }
		: block,
);
// The import rules' plugin as n8n's configuration registers it: ESLint refuses a second copy.
const importX = n8nConfig.find((block) => block.plugins?.['import-x']).plugins['import-x'];

export default tseslint.config(
	{
		ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'demo-output/**', 'eslint.config.mjs'],
	},
	...n8nForThePackage,
	// n8n's configuration names its credential and node rule sets for './credentials/**' and
	// './nodes/**', patterns ESLint's flat config never matches (it matches paths without './'), so
	// they are given here again, with the same exceptions as n8n's.
	{
		files: ['credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	// The rooms that run in Node, not inside n8n: plain TypeScript rules.
	{
		files: DEVELOPMENT_FILES,
		extends: [js.configs.recommended, tseslint.configs.recommended],
		plugins: { 'import-x': importX },
		languageOptions: { globals: { ...globals.node, ...globals.jest } },
		rules: {
			'@typescript-eslint/no-require-imports': 'off',
		},
	},
	// House rules for every TypeScript file.
	{
		files: ['**/*.ts'],
		plugins: { 'import-x': importX },
		settings: {
			// Without these the import rules read no TypeScript file they follow, and import-x/no-cycle
			// finds nothing: n8n's configuration gives the resolver but not the files' kind.
			'import-x/extensions': ['.ts', '.js'],
			'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
		},
		rules: {
			// One subject a file: past 400 lines of code a file holds two jobs and should be split.
			'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
			// Two files that import each other have no order in which one can be read, loaded or
			// tested alone: what both need belongs in a third file they both import.
			'import-x/no-cycle': ['error', { ignoreExternal: true }],
		},
	},
	{
		files: PACKAGE_FILES,
		rules: {
			// What n8n loads must not reach into the development tree, which is not published.
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							regex: '^(\\.\\./)+(sandbox|harness|scripts|bench|test)(/|$)',
							message:
								'The published nodes and credential cannot import the sandbox, harness, scripts, bench or tests: they are not in the package.',
						},
					],
				},
			],
		},
	},
	{
		// A stage (scripts/<stage>/) uses its own folder and scripts/lib/ only, so that a change to
		// one stage cannot break another; what two stages share moves to scripts/lib/. The files at
		// the top of scripts/ are not stages: their `../` is the repository root.
		files: ['scripts/**/*.ts'],
		ignores: ['scripts/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							regex: '^\\.\\./(?!lib(/|$))[^./][^/]*(/|$)',
							message:
								'A stage imports only its own folder and scripts/lib/: move what two stages share to scripts/lib/.',
						},
					],
				},
			],
		},
	},
	{
		files: ['**/*.js'],
		extends: [js.configs.recommended],
		languageOptions: { globals: globals.node, sourceType: 'commonjs' },
	},
);
