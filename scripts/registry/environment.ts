/**
 * Installing by environment variable on a fresh n8n 2.41.1 main: N8N_COMMUNITY_PACKAGES with
 * N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV=true, and the local registry. What n8n does with them is
 * recorded from its log and its REST answers.
 *
 * The install itself runs at start, before any REST route exists, so n8n's test hook cannot turn on
 * the licence feature a registry other than registry.npmjs.org needs: on 2.41.1 without that
 * licence the reconciliation reaches the registry check and stops there, which this flow asserts.
 */
import { strict as assert } from 'node:assert';
import type { N8nRuntime } from '../lib/runtime';
import {
	installPackage,
	listPackages,
	nodesFolder,
	refusal,
	uninstallPackage,
} from '../lib/communityPackages';
import { step } from '../lib/stage';
import { logLines, newSession, registryEnv, type StageContext } from './context';

/** The N8N_COMMUNITY_PACKAGES value naming this package at one version. */
export function envList(name: string, version: string): string {
	return JSON.stringify([{ name, version }]);
}

export async function environmentFlow(ctx: StageContext, runtime: N8nRuntime): Promise<void> {
	const { checks, pkg, versions, started } = ctx;
	const v = runtime.version;
	const list = envList(pkg.name, versions.patch);
	const session = await newSession(ctx, runtime, `environment-${v}`, {
		...registryEnv(ctx),
		N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true',
		N8N_COMMUNITY_PACKAGES: list,
	});
	const server = await step(
		started,
		`n8n ${v}: start with N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV=true N8N_COMMUNITY_PACKAGES='${list}'`,
		async () => {
			const s = await session.startServer(180_000);
			await s.rest.signIn();
			return s;
		},
	);
	const { rest } = server;
	try {
		await step(started, `n8n ${v}: what the two variables did`, async () => {
			await checks.check(
				'at start, n8n main reconciles the installed packages with N8N_COMMUNITY_PACKAGES',
				() => {
					const said = logLines(server.log, /reconciling installed community packages from env/);
					assert.ok(said.length, 'no reconciliation line in the log');
					console.log(`      n8n: "${said[0].message}"`);
				},
			);
			await checks.check(
				`it tries ${pkg.name}@${versions.patch} from the registry; with a registry other than registry.npmjs.org it stops at the licence check`,
				async () => {
					const failed = logLines(server.log, /community package .* from env/);
					assert.ok(failed.length, 'no install attempt from env in the log');
					assert.match(failed[0].message, new RegExp(`${pkg.name}@${versions.patch}`));
					assert.match(failed[0].message, /^Failed to install .*customRegistry/);
					assert.deepEqual(await listPackages(rest), []);
					assert.equal(nodesFolder(session.userFolder, pkg.name).version, undefined);
					console.log(`      n8n: "${failed[0].message.split('. ')[0]}."`);
				},
			);
			await checks.check(
				'Settings → Community Nodes is read-only: Install and Uninstall are refused with 400',
				async () => {
					const install = await refusal(() => installPackage(rest, pkg.name));
					const uninstall = await refusal(() => uninstallPackage(rest, pkg.name));
					assert.equal(install?.status, 400, `install: ${JSON.stringify(install)}`);
					assert.equal(uninstall?.status, 400, `uninstall: ${JSON.stringify(uninstall)}`);
					assert.match(install.message, /environment|env/i);
					console.log(`      n8n answered 400: ${install.message}`);
				},
			);
		});
	} finally {
		await server.stop();
	}
}
