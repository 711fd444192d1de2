/**
 * Settings → Community Nodes on one n8n line, through the REST calls behind its buttons: the install
 * refused until the custom-registry licence feature is on, Install, the nodes served and the example
 * run, Update to the patch version, the example again, Uninstall and the nodes gone.
 */
import { strict as assert } from 'node:assert';
import { EXPECTED_NODES, checkNodeTypes } from '../lib/nodeTypes';
import { packageProblems, readLog } from '../lib/logs';
import type { N8nRuntime } from '../lib/runtime';
import { listExamples } from '../lib/workflows';
import {
	CUSTOM_REGISTRY_FEATURE,
	enableLicenceFeature,
	installPackage,
	listPackages,
	nodesFolder,
	refusal,
	uninstallPackage,
	updatePackage,
	type InstalledPackage,
} from '../lib/communityPackages';
import { step } from '../lib/stage';
import {
	checkExampleRuns,
	createExample,
	logLines,
	newSession,
	pointNpmAtRegistry,
	registryEnv,
	servedTypes,
	type StageContext,
} from './context';

function assertInstalled(
	answer: InstalledPackage,
	ctx: StageContext,
	userFolder: string,
	version: string,
): void {
	const { name } = ctx.pkg;
	assert.equal(answer.packageName, name);
	assert.equal(answer.installedVersion, version, 'installedVersion in the answer');
	assert.deepEqual(
		answer.installedNodes.map((n) => n.name).sort(),
		Object.values(EXPECTED_NODES).sort(),
		'installedNodes',
	);
	const folder = nodesFolder(userFolder, name);
	assert.equal(folder.version, version, `version in .n8n/nodes/node_modules/${name}/package.json`);
	assert.equal(folder.ledger[name], version, '.n8n/nodes/package.json dependency');
	assert.deepEqual(folder.beside, [], 'installed beside the package in .n8n/nodes/node_modules');
}

interface SettingsOptions {
	/** What is typed into the Install dialog: the name, or name@version to pin one. */
	installSpec: string;
	/** Also given to this n8n (2.41.1): N8N_COMMUNITY_PACKAGES without MANAGED_BY_ENV, to see it ignored. */
	envListWithoutManaged?: string;
	/** Called before the Update step (publishes the patch version on the first n8n line). */
	beforeUpdate?: () => void;
}

export async function settingsFlow(
	ctx: StageContext,
	runtime: N8nRuntime,
	options: SettingsOptions,
): Promise<void> {
	const { checks, pkg, versions, started } = ctx;
	const v = runtime.version;
	const session = await newSession(ctx, runtime, `settings-${v}`, {
		...registryEnv(ctx),
		// n8n's own test hook, for the licence feature a custom registry needs (see the check below).
		E2E_TESTS: 'true',
		...(options.envListWithoutManaged
			? { N8N_COMMUNITY_PACKAGES: options.envListWithoutManaged }
			: {}),
	});
	const userFolder = session.userFolder;
	pointNpmAtRegistry(ctx, userFolder);
	const server = await step(
		started,
		`n8n ${v}: start (fresh user folder, E2E_TESTS=true)`,
		async () => {
			const s = await session.startServer(180_000);
			await s.rest.signIn();
			console.log(`  n8n ${v} on ${s.url}, user folder ${userFolder}`);
			return s;
		},
	);
	const { rest } = server;
	let servedAfterInstall: string[] = [];
	try {
		await step(
			started,
			`n8n ${v}: Settings → Community Nodes → Install "${options.installSpec}"`,
			async () => {
				if (options.envListWithoutManaged) {
					await checks.check(
						'N8N_COMMUNITY_PACKAGES without N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV is ignored: nothing installed at start',
						async () => {
							assert.deepEqual(await listPackages(rest), []);
							assert.equal(nodesFolder(userFolder, pkg.name).version, undefined);
							const said = logLines(server.log, /communityPackagesManagedByEnv is disabled/);
							assert.ok(
								said.length,
								'no "communityPackagesManagedByEnv is disabled" line in the log',
							);
							console.log(`      n8n: "${said[0].message}"`);
						},
					);
				}
				await checks.check(
					`without the licence feature ${CUSTOM_REGISTRY_FEATURE}, n8n ${v} refuses a registry other than registry.npmjs.org`,
					async () => {
						const refused = await refusal(() => installPackage(rest, options.installSpec));
						assert.ok(refused, 'the install went through without the licence feature');
						assert.match(refused.message, /customRegistry|license/i);
						assert.equal(nodesFolder(userFolder, pkg.name).version, undefined, 'files left behind');
						console.log(`      n8n answered ${refused.status}: ${refused.message.split('. ')[0]}.`);
					},
				);
				await enableLicenceFeature(rest, CUSTOM_REGISTRY_FEATURE);
				console.log(`  ${CUSTOM_REGISTRY_FEATURE} turned on through PATCH /rest/e2e/feature`);
				await checks.check(
					`Install: POST /rest/community-packages puts ${pkg.name}@${versions.first} from the local registry into .n8n/nodes, alone`,
					async () => {
						const t = Date.now();
						const answer = await installPackage(rest, options.installSpec);
						assertInstalled(answer, ctx, userFolder, versions.first);
						console.log(
							`      installed in ${((Date.now() - t) / 1000).toFixed(1)}s, ${answer.installedNodes.length} nodes`,
						);
					},
				);
				await checkNodeTypes(checks, rest, pkg, listExamples());
				servedAfterInstall = await servedTypes(rest, pkg.name);
			},
		);

		const example = await createExample(ctx, rest);
		await step(
			started,
			`n8n ${v}: the example runs on the installed ${versions.first}`,
			async () => {
				await checkExampleRuns(
					ctx,
					runtime,
					rest,
					userFolder,
					example,
					`REST run, as Execute workflow`,
				);
			},
		);

		await step(started, `n8n ${v}: Update to ${versions.patch}`, async () => {
			options.beforeUpdate?.();
			await checks.check(
				`the list offers the update to ${versions.patch} (updateAvailable, from npm outdated)`,
				async () => {
					const [listed] = await listPackages(rest);
					assert.equal(listed?.installedVersion, versions.first);
					assert.equal(listed?.updateAvailable, versions.patch);
				},
			);
			await checks.check(
				`Update: PATCH /rest/community-packages replaces ${versions.first} by ${versions.patch} without a restart`,
				async () => {
					const answer = await updatePackage(rest, pkg.name, versions.patch);
					assertInstalled(answer, ctx, userFolder, versions.patch);
					assert.ok(servedAfterInstall.length >= Object.keys(EXPECTED_NODES).length);
					assert.deepEqual(
						await servedTypes(rest, pkg.name),
						servedAfterInstall,
						'node types served after the update',
					);
				},
			);
			await checkExampleRuns(ctx, runtime, rest, userFolder, example, `after the update`);
		});

		await step(started, `n8n ${v}: Uninstall`, async () => {
			await checks.check(
				'Uninstall: DELETE /rest/community-packages removes the files, the record and every node type',
				async () => {
					await uninstallPackage(rest, pkg.name);
					assert.deepEqual(await listPackages(rest), [], 'the list');
					const folder = nodesFolder(userFolder, pkg.name);
					assert.equal(folder.version, undefined, 'the package folder is still there');
					if (v.startsWith('1.')) {
						// n8n 1.x deletes the folder but leaves the entry in its ledger (2.x removes both).
						console.log(
							`      n8n ${v} leaves "${pkg.name}": "${folder.ledger[pkg.name]}" in .n8n/nodes/package.json`,
						);
					} else {
						assert.equal(
							folder.ledger[pkg.name],
							undefined,
							'.n8n/nodes/package.json still lists it',
						);
					}
					assert.deepEqual(await servedTypes(rest, pkg.name), [], 'node types still served');
				},
			);
			await checks.check(
				`n8n ${v} logged no warning or error about the package but the licence refusal`,
				() => {
					const problems = packageProblems(readLog(server.log.logFile), pkg.name).filter(
						(line) => !/customRegistry|license/i.test(line),
					);
					assert.deepEqual(problems, []);
				},
			);
		});
	} finally {
		await server.stop();
	}
}
