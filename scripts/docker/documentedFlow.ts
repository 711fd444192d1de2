/**
 * The documented Docker install, run as written (documented.ts), then what a user relies on: the
 * nodes listed after the restart, the example run against the sandbox with the e2e stage's items,
 * every installed file belonging to `node`, and a new container on the same volume keeping the
 * nodes, the workflow and the credential (n8n's encryption key lives in the volume).
 */
import { strict as assert } from 'node:assert';
import { EXPECTED_NODES, checkNodeTypes } from '../lib/nodeTypes';
import type { N8nRest } from '../lib/rest';
import { seconds, step } from '../lib/stage';
import { listExamples } from '../lib/workflows';
import {
	checkExampleRuns,
	createExample,
	n8nReady,
	servedNodes,
	volumeHome,
	type DockerContext,
} from './containers';
import { describe } from './daemon';
import { withImage, type DockerInstall } from './documented';

/** n8n's port as the documented `docker run` publishes it (in the stage's own namespace). */
const URL = 'http://127.0.0.1:5678';

async function runDocumented(ctx: DockerContext, install: DockerInstall): Promise<void> {
	for (const line of install.lines) {
		const t = Date.now();
		const ran = await ctx.daemon.shell(withImage(line, ctx.image), ctx.tarballDir, 600_000);
		console.log(`    $ ${line}  (${seconds(Date.now() - t)})`);
		if (ran.code !== 0) throw new Error(`"${line}" failed: ${describe(ran)}`);
	}
}

export async function documentedFlow(ctx: DockerContext, install: DockerInstall): Promise<void> {
	const { checks, pkg, daemon } = ctx;
	const { container, volume } = install;
	const expectedNodes = Object.keys(EXPECTED_NODES).sort();
	const expected = expectedNodes.length;
	let rest: N8nRest | undefined;
	await step(ctx.started, 'The documented Docker install, as written', async () => {
		await checks.check(
			`the ${install.lines.length} documented commands run as written (image: ${ctx.image})`,
			async () => await runDocumented(ctx, install),
		);
		rest = await n8nReady(ctx, container, URL);
	});
	if (!rest) return;
	const home = volumeHome(ctx, volume);
	const first = rest;
	const made = await step(ctx.started, 'After the restart: nodes, example, files', async () => {
		await checks.check(
			`after the restart n8n lists all ${expected} nodes of ${pkg.name}`,
			async () => assert.deepEqual(await servedNodes(first, pkg.name), expectedNodes),
		);
		await checkNodeTypes(
			checks,
			first,
			pkg,
			listExamples().filter((e) => e.file === 'stats-to-csv.json'),
		);
		const created = await createExample(ctx, first);
		await checkExampleRuns(
			ctx,
			first,
			home,
			created.example,
			'in the container, as Execute workflow',
		);
		await checks.check(
			`every file under /home/node/.n8n/nodes belongs to node (uid 1000), nothing beside ${pkg.name}`,
			async () => {
				const others = await daemon.docker([
					'exec',
					container,
					...'find /home/node/.n8n/nodes ( ! -uid 1000 -o ! -gid 1000 ) -print'.split(' '),
				]);
				assert.equal(others.code, 0, describe(others));
				assert.equal(others.stdout.trim(), '', 'files not owned by node');
				const count = await daemon.docker([
					'exec',
					container,
					'find',
					'/home/node/.n8n/nodes',
					'-type',
					'f',
				]);
				const files = count.stdout.split('\n').filter(Boolean);
				assert.ok(
					files.some((f) => f.endsWith(`/node_modules/${pkg.name}/package.json`)),
					'no package.json of the package',
				);
				const modules = await daemon.docker([
					'exec',
					container,
					'ls',
					'/home/node/.n8n/nodes/node_modules',
				]);
				assert.deepEqual(modules.stdout.split('\n').filter(Boolean), [pkg.name]);
				console.log(`      ${files.length} files, all node:node`);
			},
		);
		return created;
	});

	await step(ctx.started, 'A new container on the same volume', async () => {
		const removed = await daemon.docker(['rm', '-f', container]);
		assert.equal(removed.code, 0, describe(removed));
		const again = await daemon.shell(withImage(install.runLine, ctx.image), ctx.tarballDir);
		if (again.code !== 0) {
			checks.fail(
				'the documented docker run starts a new container on the volume',
				describe(again),
			);
			return;
		}
		const second = await n8nReady(ctx, container, URL);
		await checks.check(`the new container lists all ${expected} nodes, with no install`, async () =>
			assert.deepEqual(await servedNodes(second, pkg.name), expectedNodes),
		);
		await checks.check(
			'the credential still decrypts (the encryption key is in the volume)',
			async () => {
				const credential = await second.request<{ data?: { baseUrl?: string } }>(
					'GET',
					`/rest/credentials/${made.credentialId}?includeData=true`,
				);
				assert.equal(credential.data?.baseUrl, made.baseUrl);
			},
		);
		await checkExampleRuns(ctx, second, home, made.example, 'again, in the new container');
	});
}
