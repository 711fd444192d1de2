/**
 * Which community-package settings an installed n8n reads: a setting exists in a version when its
 * name is bound to a config field there (`Env('<NAME>')` in n8n's or @n8n/config's compiled code).
 * The stage prints this for each n8n line it runs, next to what each setting did when tried.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { N8nRuntime } from '../lib/runtime';

/** Each setting and what n8n 2.41.1's source does with it (community-packages.config.ts and the
 * instance settings loader), in the words docs/production.md repeats. */
export const COMMUNITY_PACKAGE_SETTINGS: Array<{ name: string; does: string }> = [
	{
		name: 'N8N_COMMUNITY_PACKAGES_ENABLED',
		does: 'default true; false hides Settings → Community Nodes and loads no package',
	},
	{
		name: 'N8N_COMMUNITY_PACKAGES_REGISTRY',
		does: 'the registry for install, update and the version check (default https://registry.npmjs.org); any other needs the licence feature feat:communityNodes:customRegistry',
	},
	{
		name: 'N8N_COMMUNITY_PACKAGES_AUTH_TOKEN',
		does: 'a token n8n passes to npm for that registry',
	},
	{
		name: 'N8N_UNVERIFIED_PACKAGES_ENABLED',
		does: 'default true; false allows only packages n8n has verified (with a checksum)',
	},
	{
		name: 'N8N_VERIFIED_PACKAGES_ENABLED',
		does: "default true; shows n8n's verified packages in the node panel",
	},
	{
		name: 'N8N_REINSTALL_MISSING_PACKAGES',
		does: 'default false; at start, reinstalls packages recorded in the database whose files are missing (workers too)',
	},
	{
		name: 'N8N_COMMUNITY_PACKAGES_PREVENT_LOADING',
		does: 'default false; true loads no community package',
	},
	{
		name: 'N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV',
		does: 'true: `n8n start` (main only) installs, updates and removes packages to match N8N_COMMUNITY_PACKAGES, and Settings → Community Nodes becomes read-only',
	},
	{
		name: 'N8N_COMMUNITY_PACKAGES',
		does: 'a JSON list [{"name", "version"?, "checksum"?}]; read only when N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV is true',
	},
];

/** The settings of COMMUNITY_PACKAGE_SETTINGS this n8n binds to a config field. */
export function settingsRead(runtime: N8nRuntime): Set<string> {
	const dirs = [
		join(runtime.modulesDir, 'n8n', 'dist'),
		join(runtime.modulesDir, '@n8n', 'config', 'dist'),
	];
	const found = new Set<string>();
	for (const { name } of COMMUNITY_PACKAGE_SETTINGS) {
		const result = spawnSync(
			'grep',
			['-rlE', '--include=*.js', `Env\\)\\(['"]${name}['"]`, ...dirs],
			{ encoding: 'utf8', timeout: 60_000 },
		);
		if (result.stdout.trim()) found.add(name);
	}
	return found;
}
