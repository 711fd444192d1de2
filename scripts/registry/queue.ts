/**
 * Queue mode on n8n 2.41.1 (PostgreSQL, Redis, main and workers), where every worker runs the nodes
 * and so needs the package in its own n8n folder:
 *  1. main installs through Settings; a worker with its OWN folder, started with
 *     N8N_COMMUNITY_PACKAGES and N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV, ignores both (only
 *     `n8n start` reads them) and receives main's install command through Redis, which it then
 *     tries against the registry itself (2.41.1 workers have no way to turn on the custom-registry
 *     licence feature, so here it stops at that check);
 *  2. the example, offloaded to that worker, fails because the worker does not know the node type;
 *  3. a worker sharing main's n8n folder (as n8n's own queue-mode docker-compose mounts one volume in
 *     both) loads the package at start and runs the example.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { loadedNodeCount, readLog, waitForEntry } from '../lib/logs';
import { EXPECTED_NODES } from '../lib/nodeTypes';
import { startPostgres, type Postgres } from '../lib/postgres';
import { freePort } from '../lib/processes';
import type { N8nRuntime } from '../lib/runtime';
import type { N8nServer, N8nWorker } from '../lib/session';
import { startRedis, type Redis } from '../lib/redis';
import { queueModeEnv } from '../lib/queueMode';
import {
	CUSTOM_REGISTRY_FEATURE,
	enableLicenceFeature,
	installPackage,
	nodesFolder,
} from '../lib/communityPackages';
import { runExampleByRest } from '../lib/restExample';
import { step } from '../lib/stage';
import {
	checkExampleRuns,
	createExample,
	logLines,
	newSession,
	registryEnv,
	type StageContext,
} from './context';
import { envList } from './environment';

export async function queueFlow(ctx: StageContext, runtime: N8nRuntime): Promise<void> {
	const { checks, pkg, versions, started } = ctx;
	const v = runtime.version;
	let postgres: Postgres | undefined;
	let redis: Redis | undefined;
	let server: N8nServer | undefined;
	const workers: N8nWorker[] = [];
	try {
		const queueEnv = await step(started, 'queue mode: PostgreSQL and Redis', async () => {
			// Directly under the work folder: startPostgres opens that folder to the `postgres` user.
			postgres = await startPostgres(join(ctx.work, 'postgres'));
			redis = await startRedis(join(ctx.work, 'redis'));
			console.log(
				`  PostgreSQL ${postgres.version} on 127.0.0.1:${postgres.port}, Redis ${redis.version} on 127.0.0.1:${redis.port}`,
			);
			return {
				...queueModeEnv(postgres, redis),
				// Files in the n8n folder, which main and the shared-folder worker both see (queue mode
				// keeps them in the database by default), so the checks read the CSV the run wrote.
				N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
			};
		});
		const main = await newSession(ctx, runtime, `queue-main-${v}`, {
			...queueEnv,
			...registryEnv(ctx),
			E2E_TESTS: 'true',
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		});
		const own = await newSession(ctx, runtime, `queue-worker-${v}`, {
			...queueEnv,
			...registryEnv(ctx),
			N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true',
			N8N_COMMUNITY_PACKAGES: envList(pkg.name, versions.patch),
		});
		const ownWorker = await step(
			started,
			`queue mode: n8n ${v} main, and a worker with its own folder and N8N_COMMUNITY_PACKAGES`,
			async () => {
				server = await main.startServer(180_000);
				await server.rest.signIn();
				const worker = await own.startWorker({
					brokerPort: await freePort(),
					healthPort: await freePort(),
				});
				workers.push(worker);
				return worker;
			},
		);
		const { rest } = server ?? assert.fail('main did not start');

		await step(started, 'queue mode: install on main through Settings', async () => {
			await checks.check(
				'the worker ignores N8N_COMMUNITY_PACKAGES and N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: no reconciliation, nothing installed',
				() => {
					assert.deepEqual(logLines(ownWorker.log, /reconcil|from env/), []);
					assert.equal(nodesFolder(own.userFolder, pkg.name).version, undefined);
				},
			);
			await enableLicenceFeature(rest, CUSTOM_REGISTRY_FEATURE);
			await checks.check(
				`main installs ${pkg.name}@${versions.patch} into its own folder`,
				async () => {
					const answer = await installPackage(rest, pkg.name);
					assert.equal(answer.installedVersion, versions.patch);
					assert.equal(nodesFolder(main.userFolder, pkg.name).version, versions.patch);
				},
			);
			await checks.check(
				"the worker receives main's install command through Redis and tries the registry itself (stopped here by the licence check)",
				async () => {
					const said = await waitForEntry(
						ownWorker.log.logFile,
						/(Skipped|Failed to) install(ing)? community package|Community package installed/,
						30_000,
					);
					assert.ok(said, 'the worker logged nothing about the install command within 30 s');
					const reason = String(said.metadata?.reason ?? said.message);
					console.log(`      worker: "${said.message}" (${reason.split('.')[0]})`);
					assert.match(reason, /customRegistry|license/i);
					assert.equal(nodesFolder(own.userFolder, pkg.name).version, undefined);
				},
			);
		});

		const example = await createExample(ctx, rest);
		await step(started, 'queue mode: the example on a worker without the package', async () => {
			await checks.check(
				'offloaded to the worker without the package, the run fails: the worker does not know the node type',
				async () => {
					const unknownType = new RegExp(`Unrecognized node type|${pkg.name}`);
					const running = runExampleByRest(runtime, rest, example, 60_000).catch(
						(error: Error) => error,
					);
					// The worker's own log is the proof. Main learns of the failure from Bull's failed-job
					// event, and n8n 2.41.1 can miss it when the worker fails the job within milliseconds:
					// job.finished() checks the job, then listens, and an event in between is lost.
					const failed = await waitForEntry(
						ownWorker.log.logFile,
						/^Worker errored while running execution/,
						60_000,
					);
					assert.ok(failed, 'the worker logged no failed execution within 60 s');
					assert.ok(
						logLines(ownWorker.log, /^Worker started execution/).length,
						'the worker did not take the job',
					);
					const reason = String((failed.metadata?.error as { message?: string })?.message ?? '');
					console.log(`      worker: "${failed.message}": ${reason}`);
					assert.match(reason, unknownType);
					const run = await running;
					if (run instanceof Error) {
						assert.match(run.message, /did not finish/, run.message);
						console.log(
							"      n8n main still lists the run as running after 60 s: it missed the job's failure",
						);
						return;
					}
					assert.notEqual(
						run.status,
						'success',
						'the run succeeded on a worker without the package',
					);
					const message = run.data.resultData.error?.message ?? '';
					console.log(`      n8n: ${run.status}: ${message}`);
					assert.match(message, unknownType);
				},
			);
			await ownWorker.stop();
		});

		await step(started, "queue mode: a worker sharing main's n8n folder", async () => {
			const shared = await main.startWorker({
				brokerPort: await freePort(),
				healthPort: await freePort(),
			});
			workers.push(shared);
			await checks.check('at start it loads the package from the shared folder', () => {
				assert.equal(
					loadedNodeCount(readLog(shared.log.logFile), pkg.name),
					Object.keys(EXPECTED_NODES).length,
				);
			});
			await checkExampleRuns(
				ctx,
				runtime,
				rest,
				main.userFolder,
				example,
				'offloaded to that worker',
			);
			await checks.check('the shared-folder worker ran it (its own log)', () => {
				assert.ok(logLines(shared.log, /^Worker finished execution/).length);
			});
		});
	} finally {
		for (const worker of workers) await worker.stop();
		if (server) await server.stop();
		if (redis) await redis.stop();
		if (postgres) await postgres.stop();
	}
}
