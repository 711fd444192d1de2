/**
 * Settings → Community Nodes as the editor drives it: the REST calls behind its Install, Update and
 * Uninstall buttons (n8n 2.41.1 and 1.123.81 share them), and what ends up in the n8n user folder.
 *
 *   POST   /rest/community-packages {name, version?}  Install: npm pack from the registry, unpacked into
 *          <user folder>/.n8n/nodes/node_modules/<name>, its dependencies installed there, the nodes
 *          loaded without a restart, a row in installed_packages, and (queue mode) an install
 *          command to the other processes through Redis.
 *   GET    /rest/community-packages                  The list, with `updateAvailable` from
 *          `npm outdated` in the nodes folder (npm's own registry setting, not n8n's).
 *   PATCH  /rest/community-packages {name, version}  Update: the same download, replacing the folder.
 *   DELETE /rest/community-packages?name=<name>      Uninstall: the folder and the row removed, the
 *          nodes unloaded.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RestError, type N8nRest } from './rest';

export interface InstalledPackage {
	packageName: string;
	installedVersion: string;
	updateAvailable?: string;
	failedLoading?: boolean;
	installedNodes: Array<{ name: string; type: string; latestVersion: number }>;
}

/**
 * The licence feature n8n 2.41.1 and 1.123.81 require before they use any registry but
 * https://registry.npmjs.org (CommunityPackagesService.getNpmRegistry).
 */
export const CUSTOM_REGISTRY_FEATURE = 'feat:communityNodes:customRegistry';

/**
 * Turns one licence feature on through n8n's own test hook (`PATCH /rest/e2e/feature`, mounted only
 * when n8n runs with E2E_TESTS=true; it replaces the licence check of the running main process).
 */
export async function enableLicenceFeature(rest: N8nRest, feature: string): Promise<void> {
	await rest.request('PATCH', '/rest/e2e/feature', { feature, enabled: true });
}

const TIMEOUT_MS = 180_000;

export async function installPackage(
	rest: N8nRest,
	name: string,
	version?: string,
): Promise<InstalledPackage> {
	return await rest.request<InstalledPackage>(
		'POST',
		'/rest/community-packages',
		version ? { name, version } : { name },
		TIMEOUT_MS,
	);
}

export async function listPackages(rest: N8nRest): Promise<InstalledPackage[]> {
	return await rest.request<InstalledPackage[]>(
		'GET',
		'/rest/community-packages',
		undefined,
		TIMEOUT_MS,
	);
}

export async function updatePackage(
	rest: N8nRest,
	name: string,
	version: string,
): Promise<InstalledPackage> {
	return await rest.request<InstalledPackage>(
		'PATCH',
		'/rest/community-packages',
		{ name, version },
		TIMEOUT_MS,
	);
}

export async function uninstallPackage(rest: N8nRest, name: string): Promise<void> {
	await rest.request(
		'DELETE',
		`/rest/community-packages?name=${encodeURIComponent(name)}`,
		undefined,
		TIMEOUT_MS,
	);
}

/** A call n8n refused: its status and message, or undefined when it went through. */
export async function refusal(
	call: () => Promise<unknown>,
): Promise<{ status: number; message: string } | undefined> {
	try {
		await call();
		return undefined;
	} catch (error) {
		if (!(error instanceof RestError)) throw error;
		// RestError keeps the first 300 characters of n8n's JSON answer: take its message field.
		const body = /answered \d+: (.*)$/s.exec(error.message)?.[1] ?? error.message;
		const field = /"message":"((?:[^"\\]|\\.)*)/.exec(body)?.[1];
		const message = field ? field.replace(/\\"/g, '"') : body;
		return { status: error.status, message };
	}
}

interface NodesFolder {
	/** The version in node_modules/<name>/package.json, when the folder exists. */
	version?: string;
	/** nodes/package.json's dependencies: n8n's ledger of installed packages. */
	ledger: Record<string, string>;
	/** Anything else in nodes/node_modules (a second n8n-workflow would be a defect). */
	beside: string[];
}

export function nodesFolder(userFolder: string, name: string): NodesFolder {
	const nodes = join(userFolder, '.n8n', 'nodes');
	const modules = join(nodes, 'node_modules');
	const read = (file: string): Record<string, unknown> | undefined =>
		existsSync(file)
			? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)
			: undefined;
	const installed = read(join(modules, name, 'package.json'));
	const ledger = (read(join(nodes, 'package.json'))?.dependencies ?? {}) as Record<string, string>;
	const beside = existsSync(modules)
		? readdirSync(modules).filter((entry) => !entry.startsWith('.') && entry !== name)
		: [];
	return { version: installed?.version as string | undefined, ledger, beside };
}
