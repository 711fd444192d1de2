import js from '@eslint/js';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const communityRecommended = n8nCommunityNodesPlugin.configs.recommended;

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'eslint.config.mjs'] },
	// The published package: n8n's community rules, plus eslint-plugin-n8n-nodes-base's
	// `community`, `credentials` and `nodes` rule sets where each applies.
	{
		files: ['credentials/**/*.ts', 'nodes/**/*.ts'],
		extends: [js.configs.recommended, tseslint.configs.recommended, communityRecommended],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			'no-console': 'error',
			'prefer-spread': 'off',
		},
	},
	{
		files: ['package.json'],
		extends: [communityRecommended],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: { ...n8nNodesBase.configs.community.rules },
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: { extraFileExtensions: ['.json'] },
		},
	},
	{
		files: ['credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// Same exceptions as n8n's own community-node lint setup (@n8n/node-cli).
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// Same exceptions as n8n's own community-node lint setup (@n8n/node-cli): these two predate
			// NodeConnectionTypes, which the community rules require instead of string literals.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	// Tests, sandbox, harness and scripts run in Node, not inside n8n: plain TypeScript rules.
	{
		files: [
			'sandbox/**/*.ts',
			'harness/**/*.ts',
			'test/**/*.ts',
			'scripts/**/*.ts',
			'bench/**/*.ts',
		],
		extends: [js.configs.recommended, tseslint.configs.recommended],
		languageOptions: { globals: { ...globals.node, ...globals.jest } },
		rules: {
			'@typescript-eslint/no-require-imports': 'off',
		},
	},
	// House rules for every TypeScript file: small files, and the published code stands on its own.
	{
		files: ['**/*.ts'],
		rules: {
			// One subject a file: past 400 lines of code a file holds two jobs and should be split.
			'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
		},
	},
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
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
