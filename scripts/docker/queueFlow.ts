/**
 * Queue mode in containers: PostgreSQL and Redis on the machine (reached through the bridge), n8n
 * main and a worker as two containers of the image. Main runs on the volume the documented lines
 * installed the package into (which also holds n8n's encryption key), and the worker gets the
 * package the way docs/production.md says: main's volume mounted in it too. First a worker with a
 * volume of its own, which fails the run as the README's Troubleshooting says.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadedNodeCount, readLog, waitForEntry } from '../lib/logs';
import { EXPECTED_NODES } from '../lib/nodeTypes';
import { startPostgres, type Postgres } from '../lib/postgres';
import { startRedis, type Redis } from '../lib/redis';
import { runManually } from '../lib/manualRun';
import { step } from '../lib/stage';
import {
	checkExampleRuns,
	createExample,
	n8nReady,
	startN8nContainer,
	volumeHome,
	type DockerContext,
} from './containers';
import { describe } from './daemon';
import type { DockerInstall } from './documented';

/** n8n's log in its folder on the volume, which the stage reads through the volume's files. */
const logFile = (name: string) => ['-e', `N8N_LOG_FILE_LOCATION=/home/node/.n8n/${name}.log`];

async function worker(
	ctx: DockerContext,
	name: string,
	volume: string,
	env: string[],
): Promise<string> {
	const port = await startN8nContainer(
		ctx,
		name,
		volume,
		[
			...env,
			'-e',
			'QUEUE_HEALTH_CHECK_ACTIVE=true',
			'-e',
			'QUEUE_HEALTH_CHECK_PORT=5678',
			...logFile(name),
		],
		'worker',
	);
	const deadline = Date.now() + 120_000;
	for (;;) {
		const answer = await fetch(`http://127.0.0.1:${port}/healthz/readiness`, {
			signal: AbortSignal.timeout(5_000),
		}).catch(() => undefined);
		if (answer?.status === 200) break;
		if (Date.now() > deadline) {
			const logs = await ctx.daemon.docker(['logs', '--tail', '30', name]);
			throw new Error(`worker ${name} not ready within 120 s: ${describe(logs)}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 1_000));
	}
	return join(volumeHome(ctx, volume), '.n8n', `${name}.log`);
}

export async function queueFlow(ctx: DockerContext, install: DockerInstall): Promise<void> {
	const { checks, pkg, bridge } = ctx;
	let postgres: Postgres | undefined;
	let redis: Redis | undefined;
	try {
		const env = await step(
			ctx.started,
			'queue mode in containers: PostgreSQL and Redis on the machine',
			async () => {
				postgres = await startPostgres(join(ctx.work, 'postgres'));
				redis = await startRedis(join(ctx.work, 'redis'));
				await bridge.add(postgres.port);
				await bridge.add(redis.port);
				console.log(
					`  PostgreSQL ${postgres.version} and Redis ${redis.version}, for containers on ${bridge.address}`,
				);
				const settings: Record<string, string> = {
					...postgres.n8nEnv,
					DB_POSTGRESDB_HOST: bridge.address,
					EXECUTIONS_MODE: 'queue',
					QUEUE_BULL_REDIS_HOST: bridge.address,
					QUEUE_BULL_REDIS_PORT: String(redis.port),
					// Files in the n8n folder, which main and the worker on its volume both see.
					N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
					N8N_LOG_OUTPUT: 'console,file',
					N8N_LOG_FORMAT: 'json',
					N8N_LOG_LEVEL: 'debug',
				};
				return Object.entries(settings).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
			},
		);

		// Main on the documented volume, where the documented lines installed the package; the worker
		// is then given that volume, as docs/production.md says for workers.
		const main = 'n8n-main';
		const volume = install.volume;
		const rest = await step(ctx.started, `queue mode: main on the volume ${volume}`, async () => {
			await ctx.daemon.docker(['rm', '-f', install.container]);
			const port = await startN8nContainer(ctx, main, volume, [
				...env,
				'-e',
				'OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true',
				...logFile(main),
			]);
			return await n8nReady(ctx, main, `http://127.0.0.1:${port}`);
		});
		const home = volumeHome(ctx, volume);
		const created = await createExample(ctx, rest);
		const unknownType = /Unrecognized node type/;

		await step(ctx.started, 'queue mode: a worker with a volume of its own', async () => {
			// A worker on a volume of its own needs main's encryption key given to it (main keeps it in
			// its volume's config file), as n8n's queue-mode documentation says.
			const config = join(home, '.n8n', 'config');
			const key = (JSON.parse(readFileSync(config, 'utf8')) as { encryptionKey?: string })
				.encryptionKey;
			assert.ok(key, `no encryptionKey in ${config}`);
			const log = await worker(ctx, 'n8n-worker-bare', 'n8n_worker_bare', [
				...env,
				'-e',
				`N8N_ENCRYPTION_KEY=${key}`,
			]);
			await checks.check(
				'a worker container without the package fails the run with "Unrecognized node type"',
				async () => {
					const trigger = created.example.workflow.nodes.find(
						(n) => n.type === 'n8n-nodes-base.manualTrigger',
					);
					assert.ok(trigger);
					const running = runManually(ctx.runtime, rest, created.example, trigger, 60_000).catch(
						(e: Error) => e,
					);
					const failed = await waitForEntry(log, /^Worker errored while running execution/, 60_000);
					assert.ok(failed, 'the worker logged no failed execution within 60 s');
					const reason = String((failed.metadata?.error as { message?: string })?.message ?? '');
					console.log(`      worker: "${failed.message}": ${reason}`);
					assert.match(reason, unknownType);
					await running;
				},
			);
			await ctx.daemon.docker(['rm', '-f', 'n8n-worker-bare']);
		});

		await step(ctx.started, "queue mode: a worker on main's volume", async () => {
			const log = await worker(ctx, 'n8n-worker', volume, env);
			await checks.check(
				`at start the worker loads the ${Object.keys(EXPECTED_NODES).length} nodes from main's volume`,
				() => {
					assert.equal(loadedNodeCount(readLog(log), pkg.name), Object.keys(EXPECTED_NODES).length);
				},
			);
			await checkExampleRuns(ctx, rest, home, created.example, 'offloaded to the worker container');
			await checks.check('the worker container ran it (its own log)', () => {
				assert.ok(readLog(log).some((e) => /^Worker finished execution/.test(e.message)));
			});
		});
	} finally {
		for (const name of ['n8n-worker', 'n8n-worker-bare', 'n8n-main'])
			await ctx.daemon.docker(['rm', '-f', name]);
		if (redis) await redis.stop();
		if (postgres) await postgres.stop();
	}
}
