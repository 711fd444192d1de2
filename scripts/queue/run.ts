/**
 * `npm run test:queue`: the package in n8n's queue mode — main runs the trigger's poll(), Redis
 * carries the jobs, one worker executes the workflows.
 *
 *  1. The cached n8n 2.41.1 (scripts/lib/runtime.ts), the packed package installed into a fresh
 *     user folder, Redis 7 on 127.0.0.1 and a free port with nothing persisted.
 *  2. The sandbox API with a real clock from the current time; the credential and two workflows
 *     (scripts/queue/workflows.ts) imported and published before main starts.
 *  3. `n8n start` and `n8n worker` with EXECUTIONS_MODE=queue.
 *  4. Wait until the trigger has polled at least 3 times and a poll after the first emitted a newly
 *     completed 5-minute period (the trigger judges completion by main's clock, so this takes real
 *     time: up to 5 minutes for the next boundary, plus up to a minute for the next poll).
 *  5. Read the executions, the trigger's watermark and the CSV files over REST; stop everything.
 *  6. Check: every execution succeeded on the worker (records and both logs); every completed row
 *     from the start date up to the watermark reached the worker exactly once, identical to the
 *     sandbox's ground truth; workflow B's CSV lines are the sandbox's rows.
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
import { checkScheduled, checkTrigger, checkWhereTheyRan, clock, type Observed } from './checks';
import { startRedis, type Redis } from './redis';
import { failedRequests, FIVE_MINUTES, pollsOf, type Poll } from './rows';
import { NAMES, scheduledWorkflow, TRIGGER_UNIT, triggerWorkflow } from './workflows';

const args = process.argv.slice(2);
const flags = new Set(args);
const maxWaitArg = args.find((a) => a.startsWith('--max-wait='));
const MAX_WAIT_MS = (maxWaitArg ? Number(maxWaitArg.split('=')[1]) : 450) * 1000;
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

/**
 * Waits until the trigger has polled at least 3 times and one of its executions came from a poll
 * after the first (a period completed while polling), all of them finished. Prints each poll.
 */
async function waitForPolls(
	rest: N8nRest,
	sandbox: Sandbox,
	triggerId: string,
	deadline: number,
): Promise<{ met: boolean; polls: Poll[] }> {
	let shown = 0;
	let runs = 0;
	let lastList = 0;
	for (;;) {
		const polls = pollsOf(sandbox.requests, TRIGGER_UNIT);
		for (const poll of polls.slice(shown)) {
			console.log(
				`  poll ${polls.indexOf(poll) + 1} at ${clock(poll.at)} (main's clock), window from ${clock(poll.from)}`,
			);
		}
		shown = polls.length;
		if (Date.now() - lastList >= 5_000 || polls.length >= 3) {
			lastList = Date.now();
			const list = await listExecutions(rest, triggerId);
			if (list.length !== runs) {
				runs = list.length;
				console.log(`  ${runs} execution(s) of the trigger workflow so far`);
			}
			const done = list.every((e) => !UNFINISHED.has(e.status));
			if (polls.length >= 3 && runs >= 2 && done) {
				// Let the last poll store its state and hand over its execution.
				await sleep(5_000);
				return { met: true, polls: pollsOf(sandbox.requests, TRIGGER_UNIT) };
			}
		}
		if (Date.now() > deadline) return { met: false, polls };
		await sleep(2_000);
	}
}

/** Reads executions, static data and CSV files; again if the trigger polled meanwhile. */
async function observe(
	runtime: N8nRuntime,
	rest: N8nRest,
	sandbox: Sandbox,
	triggerId: string,
	scheduledId: string,
): Promise<Observed> {
	for (let attempt = 1; ; attempt++) {
		const pollsBefore = pollsOf(sandbox.requests, TRIGGER_UNIT);
		const workflow = await rest.request<{ staticData?: unknown }>(
			'GET',
			`/rest/workflows/${triggerId}`,
		);
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
		const triggerRuns = await read(triggerId);
		const scheduledRuns = await read(scheduledId);
		const pollsAfter = pollsOf(sandbox.requests, TRIGGER_UNIT);
		if (pollsAfter.length !== pollsBefore.length && attempt < 3) {
			console.log('  the trigger polled while reading; reading again');
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
		return {
			polls: pollsBefore,
			watermark: watermarkOf(workflow.staticData),
			staticData: workflow.staticData,
			triggerRuns,
			scheduledRuns,
			csv,
			csvErrors,
		};
	}
}

/** Polls whose window held a newly completed period: the watermark moved on after them. */
async function main(): Promise<number> {
	const started = Date.now();
	const checks = new Checks();
	const pkg = repoPackageJson();

	console.log('\n▶ n8n and Redis');
	const setUp = setUpStage('queue', started);
	if (!setUp) return 1;
	const { runtime, work } = setUp;
	let t: number;

	let redis: Redis | undefined;
	let sandbox: Sandbox | undefined;
	let server: N8nServer | undefined;
	let worker: N8nWorker | undefined;
	let observed: Observed | undefined;
	let failedApi: string[] = [];
	try {
		redis = await startRedis(join(work, 'redis'));
		console.log(`  Redis ${redis.version} on 127.0.0.1:${redis.port} (no persistence)`);
		// A real clock from this instant: the API's notion of time is the machine's, as main's is.
		sandbox = await Sandbox.start({ now: new Date(), clock: 'real' });
		console.log(
			`  sandbox API on ${sandbox.baseUrl}, clock real from ${sandbox.clock.now().toISOString()}`,
		);

		const session = await stageSession(setUp, {
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redis.port),
		});
		const startMs = Math.floor(Date.now() / FIVE_MINUTES) * FIVE_MINUTES - BACKFILL_MS;
		const triggerFlow: Example = triggerWorkflow(new Date(startMs));
		const scheduledFlow: Example = scheduledWorkflow();

		console.log('\n▶ Import and publish (before main starts)');
		const imported =
			(await checks.check('the sandbox credential imports', async () => {
				await session.importCredential(credentialsFor(sandbox ?? assert.fail()));
			})) &&
			(await checks.check(
				`"${triggerFlow.workflow.name}" (trigger from ${new Date(startMs).toISOString()}) and "${scheduledFlow.workflow.name}" import`,
				async () => await session.importExamples([triggerFlow, scheduledFlow]),
			)) &&
			(await checks.check('both workflows publish (n8n publish:workflow --id=…)', async () => {
				await session.publishWorkflow(triggerFlow.id);
				await session.publishWorkflow(scheduledFlow.id);
			}));
		if (!imported) throw new Error('import failed');

		console.log('\n▶ n8n start and n8n worker (EXECUTIONS_MODE=queue)');
		t = Date.now();
		const [mainStart, workerStart] = await Promise.allSettled([
			session.startServer(),
			(async () =>
				await session.startWorker({
					brokerPort: await freePort(),
					healthPort: await freePort(),
				}))(),
		]);
		if (mainStart.status === 'fulfilled') server = mainStart.value;
		if (workerStart.status === 'fulfilled') worker = workerStart.value;
		if (!server || !worker) {
			const reasons = [mainStart, workerStart]
				.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
				.map((r) => String((r.reason as Error).message ?? r.reason));
			throw new Error(`start failed:\n${reasons.join('\n')}`);
		}
		console.log(
			`  main on ${server.url} and worker (health ${worker.url}) ready (${seconds(Date.now() - t)})`,
		);
		await server.rest.signIn();

		console.log(
			`\n▶ Polling (up to ${seconds(MAX_WAIT_MS)}: periods complete by main's clock, every 5 minutes)`,
		);
		t = Date.now();
		const waited = await waitForPolls(
			server.rest,
			sandbox,
			triggerFlow.id,
			Date.now() + MAX_WAIT_MS,
		);
		console.log(`  waited ${seconds(Date.now() - t)}`);
		if (!waited.met) {
			checks.fail(
				'at least 3 polls, one after the first emitting a new period, within the deadline',
				`${waited.polls.length} polls in ${seconds(MAX_WAIT_MS)}`,
			);
		}
		observed = await observe(runtime, server.rest, sandbox, triggerFlow.id, scheduledFlow.id);
		// Bull's job counter (prefix "bull", queue "jobs" in n8n 2.41): every execution went through Redis.
		const jobsQueued = Number(redis.command('get', 'bull:jobs:id'));
		const redisStats = redis.info('stats');
		console.log(
			`  Redis: ${jobsQueued} jobs queued, ${redisStats.total_commands_processed ?? '?'} commands, ${redisStats.total_connections_received ?? '?'} connections`,
		);
		failedApi = failedRequests(sandbox.requests).map(
			(r) => `${r.method} ${r.path} → ${r.status}${r.fault ? ` (${r.fault})` : ''}`,
		);

		console.log('\n▶ Stop');
		t = Date.now();
		await Promise.all([server.stop(), worker.stop()]);
		console.log(`  main and worker stopped (${seconds(Date.now() - t)})`);

		console.log('\n▶ Executions on the worker');
		const onWorker = await checkWhereTheyRan(
			checks,
			observed,
			server,
			worker,
			new Set([triggerFlow.id, scheduledFlow.id]),
		);
		console.log(
			`  executions: ${observed.triggerRuns.length} of the trigger workflow, ${observed.scheduledRuns.length} of the scheduled one; ${onWorker} traced to the worker`,
		);
		await checks.check('Redis carried a job for every execution (bull:jobs:id)', () => {
			const executions =
				(observed?.triggerRuns.length ?? 0) + (observed?.scheduledRuns.length ?? 0);
			assert.ok(jobsQueued >= executions, `${jobsQueued} jobs for ${executions} executions`);
		});
		await checks.check('every API request was answered 200', () => {
			assert.deepEqual(failedApi.slice(0, 10), []);
		});
		await checks.check('no warning or error about the package in main or worker logs', () => {
			assert.deepEqual(
				[
					...packageProblems(readLog(server?.log.logFile ?? ''), pkg.name),
					...packageProblems(readLog(worker?.log.logFile ?? ''), pkg.name),
				],
				[],
			);
		});

		console.log('\n▶ Trigger rows (ground truth: the sandbox)');
		await checkTrigger(checks, sandbox, observed, startMs);

		console.log('\n▶ Schedule Trigger → Stats → CSV');
		await checkScheduled(checks, sandbox, observed);
	} catch (error) {
		checks.fail('queue stage', (error as Error).stack ?? String(error));
		for (const started of [server, worker]) {
			if (started) console.log(`--- ${started.log.logFile}\n${tail(started.log.logFile, 30)}`);
		}
	} finally {
		await Promise.all([server?.stop(), worker?.stop()]);
		if (redis) console.log(`  Redis stopped (${await redis.stop()})`);
		await sandbox?.stop();
	}

	return finishStage({
		stage: 'queue',
		started,
		checks,
		ranIn: `n8n ${runtime.version} queue mode`,
		work,
		holds: "n8n's user folder, Redis folder and logs",
		keep: flags.has('--keep'),
	});
}

runStage(main);
