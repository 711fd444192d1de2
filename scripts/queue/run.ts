/**
 * `npm run test:queue`: the package in n8n's queue mode as production runs it — PostgreSQL holds
 * n8n's data, main runs the triggers' poll(), Redis carries the jobs, two workers execute them.
 *
 *  1. The cached n8n 2.41.1 (scripts/lib/runtime.ts), the packed package installed into a fresh
 *     user folder; PostgreSQL 17 (scripts/lib/postgres.ts) and Redis 7, each on 127.0.0.1 and a
 *     free port with nothing kept.
 *  2. The sandbox API with a real clock from the current time; the credential and three workflows
 *     (scripts/lib/statsWorkflows.ts: the trigger in EUR and in USD, a scheduled Stats → CSV) imported
 *     and published before main starts.
 *  3. `n8n start` and two `n8n worker`s with EXECUTIONS_MODE=queue and DB_TYPE=postgresdb.
 *  4. Wait until each trigger has polled at least 3 times and a poll after the first emitted a
 *     newly completed 5-minute period (the trigger judges completion by main's clock, so this takes
 *     real time: up to 5 minutes for the next boundary, plus up to a minute for the next poll).
 *  5. Read the executions, the triggers' watermarks and the CSV files over REST; the memory of
 *     every process; stop everything.
 *  6. Check: every execution succeeded on exactly one worker and both workers ran executions
 *     (records, main's log and each worker's own log: the workers share a host ID); every
 *     completed row of each trigger from the start date up to its watermark reached a worker
 *     exactly once, identical to the sandbox's ground truth; workflow B's CSV lines are the
 *     sandbox's rows; no log line concerns the package.
 *
 * Flags: --keep (keep the temp folder with n8n's user folder and logs), --max-wait=<seconds>
 * (how long to wait for the polls, default 600).
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { Sandbox } from '../../sandbox';
import { Checks } from '../lib/checks';
import { signInCredentialsFor } from '../../harness/sandbox';
import { repoPackageJson } from '../lib/installPackage';
import { packageProblems, readLog } from '../lib/logs';
import { describeMemory, groupMemory } from '../lib/memory';
import { startPostgres, type Postgres } from '../lib/postgres';
import { tail } from '../lib/processes';
import type { N8nServer, N8nWorker } from '../lib/session';
import { finishStage, runStage, seconds, setUpStage, stageSession } from '../lib/stage';
import type { Example } from '../lib/workflows';
import { SHARED_FOR_MS } from '../../nodes/shared/auth';
import { deactivateWorkflow } from '../lib/executions';
import { checkScheduled, checkTrigger, checkWhereTheyRan, type Observed } from './checks';
import { observe, waitForPolls } from './observe';
import { startRedis, type Redis } from '../lib/redis';
import { startQueueMode, queueModeEnv } from '../lib/queueMode';
import { failedRequests, FIVE_MINUTES } from '../lib/statsRows';
import { scheduledWorkflow, TRIGGER_CURRENCIES, triggerWorkflow } from '../lib/statsWorkflows';

/** How long an access token lives in this stage: the workers renew it several times per run. */
const TOKEN_LIFETIME_SECONDS = 60;

const args = process.argv.slice(2);
const flags = new Set(args);
const maxWaitArg = args.find((a) => a.startsWith('--max-wait='));
/**
 * How long the polls may take. The token lives as long as the poll interval, so each poll meets an
 * expired token and is sent twice; main paces 3 requests a minute with a place held for a repeat,
 * so it sends one poll a minute and the two triggers take turns (a poll that finds its trigger's
 * previous poll still waiting gives way). Each trigger then polls every 2 minutes or so: up to 5
 * minutes until a period completes and up to 4 more until each has polled twice after that.
 */
const MAX_WAIT_MS = (maxWaitArg ? Number(maxWaitArg.split('=')[1]) : 600) * 1000;
const WORKERS = 2;
/** How far back the trigger starts (its first poll emits this backfill). */
const BACKFILL_MS = 60 * 60_000;

async function main(): Promise<number> {
	const started = Date.now();
	const checks = new Checks();
	const pkg = repoPackageJson();

	console.log('\n▶ n8n, PostgreSQL and Redis');
	const setUp = setUpStage('queue', started);
	if (!setUp) return 1;
	const { runtime, work } = setUp;
	let t: number;

	let postgres: Postgres | undefined;
	let redis: Redis | undefined;
	let sandbox: Sandbox | undefined;
	let server: N8nServer | undefined;
	const workers: N8nWorker[] = [];
	let observed: Observed | undefined;
	let failedApi: string[] = [];
	try {
		t = Date.now();
		postgres = await startPostgres(join(work, 'postgres'));
		console.log(
			`  PostgreSQL ${postgres.version} on 127.0.0.1:${postgres.port} (fresh cluster, ${seconds(Date.now() - t)})`,
		);
		redis = await startRedis(join(work, 'redis'));
		console.log(`  Redis ${redis.version} on 127.0.0.1:${redis.port} (no persistence)`);
		// A real clock from this instant: the API's notion of time is the machine's, as main's is.
		// The real service's form, signed in with a username and password whose access token lives a
		// minute, so the workers renew it several times during the run; its rate limit stays on.
		// Restatements are off: the checks compare each CSV with the API's rows of the same minute.
		sandbox = await Sandbox.start({
			platform: 'telegram',
			now: new Date(),
			clock: 'real',
			tokenLifetimeSeconds: TOKEN_LIFETIME_SECONDS,
			restatements: 'off',
		});
		console.log(
			`  sandbox API on ${sandbox.baseUrl}, clock real from ${sandbox.clock.now().toISOString()}`,
		);

		const session = await stageSession(setUp, queueModeEnv(postgres, redis));
		const startMs = Math.floor(Date.now() / FIVE_MINUTES) * FIVE_MINUTES - BACKFILL_MS;
		const triggerFlows = TRIGGER_CURRENCIES.map((currency) => ({
			currency,
			example: triggerWorkflow(new Date(startMs), currency),
		}));
		const triggers = triggerFlows.map(({ currency, example }) => ({ currency, id: example.id }));
		const scheduledFlow: Example = scheduledWorkflow();
		const flows = [...triggerFlows.map((f) => f.example), scheduledFlow];

		console.log(
			'\n▶ Import and publish (before main starts; n8n creates its tables in PostgreSQL)',
		);
		const imported =
			(await checks.check('the sandbox credential imports', async () => {
				// Main (its triggers' polls) and two workers each pace themselves: 3 requests a minute
				// each keeps the three under the API's 10 (the README's advice for queue mode).
				await session.importCredential(
					signInCredentialsFor(sandbox ?? assert.fail(), { rateLimitRequests: 3 }),
				);
			})) &&
			(await checks.check(
				`${flows.map((f) => `"${f.workflow.name}"`).join(', ')} import (triggers from ${new Date(startMs).toISOString()})`,
				async () => await session.importExamples(flows),
			)) &&
			(await checks.check('every workflow publishes (n8n publish:workflow --id=…)', async () => {
				for (const flow of flows) await session.publishWorkflow(flow.id);
			}));
		if (!imported) throw new Error('import failed');

		console.log(`\n▶ n8n start and ${WORKERS} n8n workers (EXECUTIONS_MODE=queue)`);
		t = Date.now();
		const queue = await startQueueMode(session, WORKERS);
		server = queue.server;
		workers.push(...queue.workers);
		console.log(
			`  main on ${server.url} and ${WORKERS} workers (health ${workers.map((w) => w.url).join(', ')}) ready (${seconds(Date.now() - t)})`,
		);
		await server.rest.signIn();

		console.log(
			`\n▶ Polling (up to ${seconds(MAX_WAIT_MS)}: periods complete by main's clock, every 5 minutes)`,
		);
		t = Date.now();
		const waited = await waitForPolls(server.rest, sandbox, triggers, Date.now() + MAX_WAIT_MS);
		console.log(`  waited ${seconds(Date.now() - t)}`);
		if (!waited.met) {
			checks.fail(
				'at least 3 polls of each trigger, one after the first emitting a new period, within the deadline',
				`${waited.polls.join(' and ')} polls in ${seconds(MAX_WAIT_MS)}`,
			);
		}
		// No new run may start while the stage reads and then stops n8n: a run cut off by the stop
		// would count as failed. The schedule starts one every few seconds, so it is switched off
		// first, with the triggers, and the runs under way are left to finish (observe waits).
		for (const flow of flows) await deactivateWorkflow(server.rest, flow.id);
		observed = await observe(runtime, server.rest, sandbox, triggers, scheduledFlow.id);
		// Bull's job counter (prefix "bull", queue "jobs" in n8n 2.41): every execution went through Redis.
		const jobsQueued = Number(redis.command('get', 'bull:jobs:id'));
		const redisStats = redis.info('stats');
		console.log(
			`  Redis: ${jobsQueued} jobs queued, ${redisStats.total_commands_processed ?? '?'} commands, ${redisStats.total_connections_received ?? '?'} connections`,
		);
		// A 401 is the access token expiring: n8n renews it (refresh, or sign-in) and repeats the
		// request. Any other failure, or a 401 not followed by a renewal and a 200 on its path, counts.
		const log = sandbox.requests.filter((r) => r.api !== 'control');
		const renewals = log.filter(
			(r) => r.path === '/api/v2/access-token' || r.path === '/api/v2/login',
		);
		// A request that read the token just before another request renewed it meets a 401 too,
		// and takes that renewal instead of renewing again, if it settled at most SHARED_FOR_MS ago.
		const renewedFor = (r: (typeof log)[number], x: (typeof log)[number]) =>
			x.seq > r.seq || (x.receivedAt ?? 0) >= (r.receivedAt ?? 0) - SHARED_FOR_MS;
		const renewedAfter = (r: (typeof log)[number]) =>
			log.some((x) => renewals.includes(x) && x.status === 200 && renewedFor(r, x)) &&
			log.some((x) => x.seq > r.seq && x.path === r.path && x.status === 200);
		const expired = failedRequests(log).filter((r) => r.status === 401 && renewedAfter(r));
		console.log(
			`  access token: ${renewals.filter((r) => r.path === '/api/v2/login').length} sign-in(s), ${renewals.filter((r) => r.path === '/api/v2/access-token').length} refresh(es), ${expired.length} request(s) met an expired token and were repeated after renewal`,
		);
		failedApi = failedRequests(log)
			.filter((r) => !expired.includes(r))
			.map((r) => `${r.method} ${r.path} → ${r.status}${r.fault ? ` (${r.fault})` : ''}`);

		console.log('\n▶ Memory (resident now and peak, each process group)');
		console.log(`  ${describeMemory('main', groupMemory(server.spawned.child.pid))}`);
		workers.forEach((worker, i) => {
			console.log(`  ${describeMemory(`worker ${i + 1}`, groupMemory(worker.spawned.child.pid))}`);
		});
		const pg = groupMemory(postgres.spawned.child.pid);
		console.log(
			`  PostgreSQL: ${Math.round(pg.rssMb)} MB RSS now, ${Math.round(pg.peakMb)} MB peak (${pg.processes.length} processes; shared buffers count in each)`,
		);
		const redisMemory = groupMemory(redis.spawned.child.pid);
		console.log(`  Redis: ${Math.round(redisMemory.rssMb)} MB RSS now`);

		console.log('\n▶ Stop');
		t = Date.now();
		await Promise.all([server.stop(), ...workers.map((w) => w.stop())]);
		console.log(`  main and workers stopped (${seconds(Date.now() - t)})`);

		console.log('\n▶ Executions on the workers');
		const perWorker = await checkWhereTheyRan(
			checks,
			observed,
			server,
			workers,
			new Set(flows.map((f) => f.id)),
		);
		const triggerRuns = observed.triggers.reduce((n, tr) => n + tr.runs.length, 0);
		console.log(
			`  executions: ${triggerRuns} of the trigger workflows (${observed.triggers.map((tr) => `${tr.currency} ${tr.runs.length}`).join(', ')}), ${observed.scheduledRuns.length} of the scheduled one; per worker (own logs): ${perWorker.map((n, i) => `worker ${i + 1} ${n}`).join(', ')}`,
		);
		await checks.check('Redis carried a job for every execution (bull:jobs:id)', () => {
			const executions = triggerRuns + (observed?.scheduledRuns.length ?? 0);
			assert.ok(jobsQueued >= executions, `${jobsQueued} jobs for ${executions} executions`);
		});
		await checks.check(
			'every API request was answered 200 (after renewing an expired token)',
			() => {
				assert.deepEqual(failedApi.slice(0, 10), []);
			},
		);
		await checks.check(
			'no warning or error about the package in the logs of main and workers',
			() => {
				assert.deepEqual(
					[server, ...workers].flatMap((p) =>
						packageProblems(readLog(p?.log.logFile ?? ''), pkg.name),
					),
					[],
				);
			},
		);

		console.log('\n▶ Trigger rows (ground truth: the sandbox)');
		const totals = { expected: 0, received: 0, duplicates: 0 };
		for (const trigger of observed.triggers) {
			const figures = await checkTrigger(checks, sandbox, trigger, startMs);
			totals.expected += figures.expected;
			totals.received += figures.received;
			totals.duplicates += figures.duplicates;
		}
		console.log(
			`  both triggers: rows expected ${totals.expected}, received ${totals.received}, duplicates ${totals.duplicates}`,
		);

		console.log('\n▶ Schedule Trigger → Stats → CSV');
		await checkScheduled(checks, sandbox, observed);
	} catch (error) {
		checks.fail('queue stage', (error as Error).stack ?? String(error));
		for (const started of [server, ...workers]) {
			if (started) console.log(`--- ${started.log.logFile}\n${tail(started.log.logFile, 30)}`);
		}
		if (postgres) console.log(`--- ${postgres.consoleFile}\n${tail(postgres.consoleFile, 20)}`);
	} finally {
		await Promise.all([server?.stop(), ...workers.map((w) => w.stop())]);
		if (redis) console.log(`  Redis stopped (${await redis.stop()})`);
		if (postgres) console.log(`  PostgreSQL stopped (${await postgres.stop()})`);
		await sandbox?.stop();
	}

	return finishStage({
		stage: 'queue',
		started,
		checks,
		ranIn: `n8n ${runtime.version} queue mode (PostgreSQL, ${WORKERS} workers)`,
		work,
		holds: "n8n's user folder, PostgreSQL and Redis folders and logs",
		keep: flags.has('--keep'),
	});
}

runStage(main);
