/**
 * `npm run test:queue`: the package in n8n's queue mode as production runs it — PostgreSQL holds
 * n8n's data, main runs the triggers' poll(), Redis carries the jobs, two workers execute them.
 *
 *  1. The cached n8n 2.41.1 (scripts/lib/runtime.ts), the packed package installed into a fresh
 *     user folder; PostgreSQL 17 (scripts/lib/postgres.ts) and Redis 7, each on 127.0.0.1 and a
 *     free port with nothing kept.
 *  2. The sandbox API with a real clock from the current time; the credential and three workflows
 *     (scripts/queue/workflows.ts: the trigger in EUR and in USD, a scheduled Stats → CSV) imported
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
 * (how long to wait for the polls, default 450).
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { Sandbox } from '../../sandbox';
import { Checks } from '../lib/checks';
import { credentialsFor } from '../../harness/sandbox';
import { repoPackageJson } from '../lib/installPackage';
import { packageProblems, readLog } from '../lib/logs';
import { describeMemory, groupMemory } from '../lib/memory';
import { startPostgres, type Postgres } from '../lib/postgres';
import { freePort, tail } from '../lib/processes';
import type { N8nRest } from '../lib/rest';
import type { N8nRuntime } from '../lib/runtime';
import type { N8nServer, N8nWorker } from '../lib/session';
import { finishStage, runStage, seconds, setUpStage, stageSession } from '../lib/stage';
import { itemsOf, type Example } from '../lib/workflows';
import {
	binaryText,
	listExecutions,
	readExecution,
	UNFINISHED,
	type Execution,
} from './executions';
import {
	checkScheduled,
	checkTrigger,
	checkWhereTheyRan,
	clock,
	type Observed,
	type TriggerObserved,
} from './checks';
import { startRedis, type Redis } from './redis';
import { failedRequests, FIVE_MINUTES, pollsOf } from './rows';
import {
	NAMES,
	scheduledWorkflow,
	TRIGGER_CURRENCIES,
	TRIGGER_UNIT,
	triggerWorkflow,
} from './workflows';

const args = process.argv.slice(2);
const flags = new Set(args);
const maxWaitArg = args.find((a) => a.startsWith('--max-wait='));
const MAX_WAIT_MS = (maxWaitArg ? Number(maxWaitArg.split('=')[1]) : 450) * 1000;
const WORKERS = 2;
/** How far back the trigger starts (its first poll emits this backfill). */
const BACKFILL_MS = 60 * 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The trigger's state in the workflow's static data (pollState.ts: `wm` is its watermark). */
function watermarkOf(staticData: unknown): number | undefined {
	const node = (staticData as Record<string, { adCabinetStats?: { wm?: unknown } }> | undefined)?.[
		`node:${NAMES.trigger}`
	];
	const wm = node?.adCabinetStats?.wm;
	return typeof wm === 'number' ? wm : undefined;
}

interface TriggerFlow {
	currency: string;
	id: string;
}

/**
 * Waits until each trigger has polled at least 3 times and has an execution from a poll after the
 * first (a period completed while polling), all of them finished. Prints each poll.
 */
async function waitForPolls(
	rest: N8nRest,
	sandbox: Sandbox,
	triggers: TriggerFlow[],
	deadline: number,
): Promise<{ met: boolean; polls: number[] }> {
	const shown = triggers.map(() => 0);
	const runs = triggers.map(() => 0);
	let lastList = 0;
	for (;;) {
		const polls = triggers.map((t) => pollsOf(sandbox.requests, TRIGGER_UNIT, t.currency));
		triggers.forEach((trigger, i) => {
			for (const poll of polls[i].slice(shown[i])) {
				console.log(
					`  ${trigger.currency} poll ${polls[i].indexOf(poll) + 1} at ${clock(poll.at)} (main's clock), window from ${clock(poll.from)}`,
				);
			}
			shown[i] = polls[i].length;
		});
		const enough = polls.every((p) => p.length >= 3);
		if (Date.now() - lastList >= 5_000 || enough) {
			lastList = Date.now();
			let done = true;
			for (const [i, trigger] of triggers.entries()) {
				const list = await listExecutions(rest, trigger.id);
				if (list.length !== runs[i]) {
					runs[i] = list.length;
					console.log(
						`  ${runs[i]} execution(s) of the ${trigger.currency} trigger workflow so far`,
					);
				}
				done &&= runs[i] >= 2 && list.every((e) => !UNFINISHED.has(e.status));
			}
			if (enough && done) {
				// Let the last poll store its state and hand over its execution.
				await sleep(5_000);
				return { met: true, polls: polls.map((p) => p.length) };
			}
		}
		if (Date.now() > deadline) return { met: false, polls: polls.map((p) => p.length) };
		await sleep(2_000);
	}
}

/** Reads executions, static data and CSV files; again if a trigger polled meanwhile. */
async function observe(
	runtime: N8nRuntime,
	rest: N8nRest,
	sandbox: Sandbox,
	triggers: TriggerFlow[],
	scheduledId: string,
): Promise<Observed> {
	const pollCount = () =>
		triggers.map((t) => pollsOf(sandbox.requests, TRIGGER_UNIT, t.currency).length).join();
	const read = async (workflowId: string): Promise<Execution[]> => {
		const deadline = Date.now() + 60_000;
		let list = await listExecutions(rest, workflowId);
		while (list.some((e) => UNFINISHED.has(e.status)) && Date.now() < deadline) {
			await sleep(1_000);
			list = await listExecutions(rest, workflowId);
		}
		const runs: Execution[] = [];
		for (const summary of list.sort((a, b) => Number(a.id) - Number(b.id))) {
			runs.push(await readExecution(runtime, rest, summary.id));
		}
		return runs;
	};
	for (let attempt = 1; ; attempt++) {
		const before = pollCount();
		const observedTriggers: TriggerObserved[] = [];
		for (const trigger of triggers) {
			const polls = pollsOf(sandbox.requests, TRIGGER_UNIT, trigger.currency);
			const workflow = await rest.request<{ staticData?: unknown }>(
				'GET',
				`/rest/workflows/${trigger.id}`,
			);
			observedTriggers.push({
				currency: trigger.currency,
				polls,
				watermark: watermarkOf(workflow.staticData),
				staticData: workflow.staticData,
				runs: await read(trigger.id),
			});
		}
		const scheduledRuns = await read(scheduledId);
		if (pollCount() !== before && attempt < 3) {
			console.log('  a trigger polled while reading; reading again');
			await sleep(5_000);
			continue;
		}
		const csv = new Map<string, string>();
		const csvErrors = new Map<string, string>();
		for (const execution of scheduledRuns) {
			const id = itemsOf(execution.run, NAMES.csv)?.[0]?.binary?.data?.id;
			try {
				if (!id) throw new Error('no binary "data" on the first item');
				csv.set(execution.summary.id, await binaryText(rest, id));
			} catch (error) {
				csvErrors.set(execution.summary.id, (error as Error).message);
			}
		}
		return { triggers: observedTriggers, scheduledRuns, csv, csvErrors };
	}
}

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
		sandbox = await Sandbox.start({
			// The real service's form, as a credential without a platform speaks. Its rate limit and
			// restatements stay off, as they were in the spec's form: the rows are compared exactly.
			platform: 'telegram',
			rateLimit: 'off',
			restatements: 'off',
			now: new Date(),
			clock: 'real',
		});
		console.log(
			`  sandbox API on ${sandbox.baseUrl}, clock real from ${sandbox.clock.now().toISOString()}`,
		);

		const session = await stageSession(setUp, {
			...postgres.n8nEnv,
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redis.port),
		});
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
				await session.importCredential(credentialsFor(sandbox ?? assert.fail()));
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
		const starts = await Promise.allSettled([
			session.startServer(),
			...Array.from(
				{ length: WORKERS },
				async () =>
					await session.startWorker({
						brokerPort: await freePort(),
						healthPort: await freePort(),
					}),
			),
		]);
		const [mainStart, ...workerStarts] = starts;
		if (mainStart.status === 'fulfilled') server = mainStart.value as N8nServer;
		for (const start of workerStarts) {
			if (start.status === 'fulfilled') workers.push(start.value as N8nWorker);
		}
		if (!server || workers.length !== WORKERS) {
			const reasons = starts
				.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
				.map((r) => String((r.reason as Error).message ?? r.reason));
			throw new Error(`start failed:\n${reasons.join('\n')}`);
		}
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
		observed = await observe(runtime, server.rest, sandbox, triggers, scheduledFlow.id);
		// Bull's job counter (prefix "bull", queue "jobs" in n8n 2.41): every execution went through Redis.
		const jobsQueued = Number(redis.command('get', 'bull:jobs:id'));
		const redisStats = redis.info('stats');
		console.log(
			`  Redis: ${jobsQueued} jobs queued, ${redisStats.total_commands_processed ?? '?'} commands, ${redisStats.total_connections_received ?? '?'} connections`,
		);
		failedApi = failedRequests(sandbox.requests).map(
			(r) => `${r.method} ${r.path} → ${r.status}${r.fault ? ` (${r.fault})` : ''}`,
		);

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
		await checks.check('every API request was answered 200', () => {
			assert.deepEqual(failedApi.slice(0, 10), []);
		});
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
