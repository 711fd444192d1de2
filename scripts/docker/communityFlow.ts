/**
 * Settings → Community Nodes inside a container: the REST calls behind the editor's Install, Update
 * and Uninstall buttons, with n8n's registry setting pointing at a local registry on the machine
 * (reached through the bridge). Once with N8N_UNVERIFIED_PACKAGES_ENABLED=false, n8n 3's default,
 * and once with n8n 2.41.1's default. Each container has a fresh volume of its own.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
	CUSTOM_REGISTRY_FEATURE,
	enableLicenceFeature,
	installPackage,
	listPackages,
	nodesFolder,
	refusal,
	uninstallPackage,
	updatePackage,
} from '../lib/communityPackages';
import { EXPECTED_NODES } from '../lib/nodeTypes';
import type { N8nRest } from '../lib/rest';
import type { LocalRegistry } from '../lib/verdaccio';
import { step } from '../lib/stage';
import {
	checkExampleRuns,
	createExample,
	n8nReady,
	servedNodes,
	startN8nContainer,
	volumeHome,
	type DockerContext,
} from './containers';
import { describe } from './daemon';

interface Releases {
	registry: LocalRegistry;
	/** The packed tarball (this version) and the patch release made from it. */
	tarball: string;
	first: string;
	patch: string;
}

/** The tarball unpacked with its version raised to `version`, published to the local registry. */
function publishPatch(releases: Releases, dir: string): void {
	mkdirSync(dir, { recursive: true });
	execFileSync('tar', ['xzf', releases.tarball, '-C', dir]);
	const file = join(dir, 'package', 'package.json');
	const pkg = JSON.parse(readFileSync(file, 'utf8')) as { version: string };
	pkg.version = releases.patch;
	writeFileSync(file, `${JSON.stringify(pkg, null, '\t')}\n`);
	releases.registry.publish(join(dir, 'package'));
}

/** What n8n printed on its console that names unverified packages (its warning, its refusals). */
async function unverifiedLines(ctx: DockerContext, container: string): Promise<string[]> {
	const logs = await ctx.daemon.docker(['logs', container]);
	return `${logs.stdout}${logs.stderr}`
		.split('\n')
		.filter((line) => /unverified/i.test(line))
		.map((line) => line.trim());
}

async function startSettingsContainer(
	ctx: DockerContext,
	releases: Releases,
	name: string,
	env: Record<string, string>,
): Promise<{ rest: N8nRest; home: string }> {
	const registryUrl = await ctx.bridge.url(releases.registry.url);
	const port = await startN8nContainer(ctx, name, name, [
		'-e',
		`N8N_COMMUNITY_PACKAGES_REGISTRY=${registryUrl}`,
		// n8n's own test hook, for the licence feature a registry other than npm's public one needs.
		'-e',
		'E2E_TESTS=true',
		...Object.entries(env).flatMap(([key, value]) => ['-e', `${key}=${value}`]),
	]);
	const rest = await n8nReady(ctx, name, `http://127.0.0.1:${port}`);
	// The list's Update badge comes from `npm outdated` in the nodes folder, which reads npm's own
	// settings there: an .npmrc naming the local registry, as an administrator with one writes it.
	const npmrc = await ctx.daemon.docker([
		'exec',
		name,
		'sh',
		'-c',
		`mkdir -p ~/.n8n/nodes && echo registry=${registryUrl}/ > ~/.n8n/nodes/.npmrc`,
	]);
	if (npmrc.code !== 0) throw new Error(`writing .npmrc failed: ${describe(npmrc)}`);
	return { rest, home: volumeHome(ctx, name) };
}

export async function communityFlow(ctx: DockerContext, releases: Releases): Promise<void> {
	const { checks, pkg } = ctx;
	const expectedNodes = Object.keys(EXPECTED_NODES).sort();
	await step(
		ctx.started,
		'Settings → Community Nodes in a container, N8N_UNVERIFIED_PACKAGES_ENABLED=false',
		async () => {
			const name = 'n8n-unverified-off';
			const { rest, home } = await startSettingsContainer(ctx, releases, name, {
				N8N_UNVERIFIED_PACKAGES_ENABLED: 'false',
			});
			await enableLicenceFeature(rest, CUSTOM_REGISTRY_FEATURE);
			await checks.check(
				`with N8N_UNVERIFIED_PACKAGES_ENABLED=false n8n 2.41.1 refuses to install ${pkg.name} (not verified), and nothing is left in .n8n/nodes`,
				async () => {
					const refused = await refusal(() => installPackage(rest, pkg.name));
					assert.ok(refused, 'the install went through');
					assert.equal(nodesFolder(home, pkg.name).version, undefined, 'files left behind');
					assert.deepEqual(await servedNodes(rest, pkg.name), []);
					console.log(`      n8n answered ${refused.status}: "${refused.message}"`);
				},
			);
			for (const line of await unverifiedLines(ctx, name)) console.log(`      n8n logged: ${line}`);
			await ctx.daemon.docker(['rm', '-f', name]);
		},
	);

	await step(
		ctx.started,
		"Settings → Community Nodes in a container, n8n 2.41.1's default",
		async () => {
			const name = 'n8n-settings';
			const { rest, home } = await startSettingsContainer(ctx, releases, name, {});
			await checks.check(
				`without the licence feature ${CUSTOM_REGISTRY_FEATURE} the install from the local registry is refused`,
				async () => {
					const refused = await refusal(() => installPackage(rest, pkg.name));
					assert.ok(refused, 'the install went through without the licence feature');
					assert.match(refused.message, /customRegistry|license/i);
				},
			);
			await enableLicenceFeature(rest, CUSTOM_REGISTRY_FEATURE);
			await checks.check(
				`Install: ${pkg.name}@${releases.first} from the local registry, its ${expectedNodes.length} nodes listed, every file node's`,
				async () => {
					const answer = await installPackage(rest, pkg.name);
					assert.equal(answer.installedVersion, releases.first);
					assert.deepEqual(await servedNodes(rest, pkg.name), expectedNodes);
					assert.equal(nodesFolder(home, pkg.name).version, releases.first);
					const others = await ctx.daemon.docker([
						'exec',
						name,
						...'find /home/node/.n8n/nodes ! -uid 1000 -print'.split(' '),
					]);
					assert.equal(others.stdout.trim(), '', 'files not owned by node');
				},
			);
			const created = await createExample(ctx, rest);
			await checkExampleRuns(ctx, rest, home, created.example, 'after the install from Settings');
			publishPatch(releases, join(ctx.work, 'patch'));
			await checks.check(
				`Update: the list offers ${releases.patch}, and Update installs it`,
				async () => {
					const [listed] = await listPackages(rest);
					assert.equal(listed?.updateAvailable, releases.patch, 'updateAvailable');
					const answer = await updatePackage(rest, pkg.name, releases.patch);
					assert.equal(answer.installedVersion, releases.patch);
					assert.equal(nodesFolder(home, pkg.name).version, releases.patch);
					assert.deepEqual(await servedNodes(rest, pkg.name), expectedNodes);
				},
			);
			await checks.check(
				'Uninstall: the files, the list entry and every node type gone',
				async () => {
					await uninstallPackage(rest, pkg.name);
					assert.deepEqual(await listPackages(rest), []);
					assert.equal(nodesFolder(home, pkg.name).version, undefined);
					assert.deepEqual(await servedNodes(rest, pkg.name), []);
				},
			);
			for (const line of await unverifiedLines(ctx, name)) console.log(`      n8n logged: ${line}`);
			await ctx.daemon.docker(['rm', '-f', name]);
		},
	);
}
