/**
 * `npm run test:lost-worker`: what n8n's queue mode does with the package's rows when a worker dies
 * in the middle of an execution, measured, not assumed.
 *
 *  1. As the queue stage: PostgreSQL, Redis, the sandbox API (real clock), n8n main and two
 *     workers; and a row store on 127.0.0.1 in this process (scripts/lib/sink.ts).
 *  2. One workflow: the Stats Trigger (5-minute periods by campaign, backfill of one hour) → an HTTP
 *     Request sending each row to the store, one every INTERVAL_MS, so its execution runs for tens of
 *     seconds.
 *  3. When the store holds KILL_AT rows of the trigger's first execution, the worker running it (by
 *     its own log) is killed by its pid with SIGKILL, as a lost machine would be.
 *  4. Watch for OBSERVE_MS: the execution's status, the Bull job (Redis), main's log, and whether the
 *     other worker runs it again (the store receives its rows again).
 *  5. Retry the execution as a user would (Executions → Retry, the REST call the editor makes) and
 *     count, per row key (period and campaign: the identity of a stats row), what the store holds.
 *
 * Checks: the kill came mid-run; the execution ended (not left running) and its outcome is printed;
 * no row reached the store that the sandbox does not have, each with the sandbox's values; after the
 * retry, the store holds every row of the window, and keeping one row per key (what an upsert on
 * the key does) leaves exactly the sandbox's rows.
 *
 * Flags: --keep (keep the temp folder), --observe=<seconds> (default 240; it stops 10 s after n8n ends the execution).
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { credentialsFor } from '../../harness/sandbox';
import { Sandbox } from '../../sandbox';
import { Checks } from '../lib/checks';
import { numeric } from '../lib/csvRows';
import { repoPackageJson } from '../lib/installPackage';
import { readLog } from '../lib/logs';
import { startPostgres, type Postgres } from '../lib/postgres';
import { tail } from '../lib/processes';
import { N8nSession, type N8nServer, type N8nWorker } from '../lib/session';
import { finishStage, runStage, seconds, setUpStage, stageSession } from '../lib/stage';
import { clock } from './checks';
import { listExecutions, readExecution, sleep, UNFINISHED } from '../lib/executions';
import { startRedis, type Redis } from '../lib/redis';
import { killWorkerRunning, queueModeEnv, startQueueMode } from '../lib/queueMode';
import { compareRows, expectedRows, FIVE_MINUTES, pollsOf, type Row } from '../lib/statsRows';
import { startSink, type WebhookSink } from '../lib/sink';
import { CURRENCY, GROUPING, TRIGGER_UNIT } from '../lib/statsWorkflows';
import { LOST_NAMES, lostWorkerWorkflow, resendWindowWorkflow } from './workflows';
import { itemsOf } from '../lib/workflows';
import { runManually } from '../lib/manualRun';
import { rowKey } from '../../nodes/shared/stats/rows';
import type { IDataObject } from 'n8n-workflow';

const args = process.argv.slice(2);
const flags = new Set(args);
const observeArg = args.find((a) => a.startsWith('--observe='));
const OBSERVE_MS = (observeArg ? Number(observeArg.split('=')[1]) : 240) * 1000;
const BACKFILL_MS = 60 * 60_000;
/** One row sent every INTERVAL_MS: 140 rows take about 20 s. */
const INTERVAL_MS = 150;
/** Rows of the first execution in the store when its worker is killed. */
const KILL_AT = 40;

const keyOf = (row: Row) => rowKey(row as IDataObject, GROUPING);

/** How many deliveries and distinct keys, and how many deliveries repeated a key. */
function tally(rows: Row[]): { deliveries: number; keys: number; repeats: number } {
	const keys = new Set(rows.map(keyOf));
	return { deliveries: rows.length, keys: keys.size, repeats: rows.length - keys.size };
}

async function main(): Promise<number> {
	const started = Date.now();
	const checks = new Checks();
	repoPackageJson();

	console.log('\n▶ n8n, PostgreSQL, Redis and a row store');
	const setUp = setUpStage('lost-worker', started);
	if (!setUp) return 1;
	const { runtime, work } = setUp;

	let postgres: Postgres | undefined;
	let redis: Redis | undefined;
	let sandbox: Sandbox | undefined;
	let sink: WebhookSink | undefined;
	let server: N8nServer | undefined;
	const workers: N8nWorker[] = [];
	try {
		postgres = await startPostgres(join(work, 'postgres'));
		redis = await startRedis(join(work, 'redis'));
		sandbox = await Sandbox.start({
			// The real service's form, as a credential without a platform speaks. Its rate limit and
			// restatements stay off, as they were in the spec's form: the rows are compared exactly.
			platform: 'telegram',
			rateLimit: 'off',
			restatements: 'off',
			now: new Date(),
			clock: 'real',
		});
		sink = await startSink();
		const storeUrl = `${sink.url}/rows`;
		console.log(
			`  PostgreSQL ${postgres.version}, Redis ${redis.version}, sandbox API ${sandbox.baseUrl}, row store ${storeUrl}`,
		);
		const session = await stageSession(setUp, queueModeEnv(postgres, redis));
		const startMs = Math.floor(Date.now() / FIVE_MINUTES) * FIVE_MINUTES - BACKFILL_MS;
		const flow = lostWorkerWorkflow(new Date(startMs), storeUrl, INTERVAL_MS);
		await session.importCredential(credentialsFor(sandbox));
		await session.importExamples([flow]);
		await session.publishWorkflow(flow.id);

		console.log('\n▶ n8n start and 2 n8n workers (EXECUTIONS_MODE=queue, n8n defaults for Bull)');
		const queue = await startQueueMode(session, 2);
		server = queue.server;
		workers.push(...queue.workers);
		await server.rest.signIn();
		const rest = server.rest;

		console.log(`\n▶ The first execution stores its rows; kill its worker at ${KILL_AT} rows`);
		let deadline = Date.now() + 120_000;
		while (sink.received.length < KILL_AT) {
			if (Date.now() > deadline)
				throw new Error(`the store got ${sink.received.length} rows in 120 s`);
			await sleep(50);
		}
		const [first] = (await listExecutions(rest, flow.id)).sort(
			(a, b) => Number(a.id) - Number(b.id),
		);
		assert.ok(first, 'no execution listed');
		const startedLine = new RegExp(`^Worker started execution ${first.id} \\(job [^)]+\\)$`);
		const killedAt = Date.now();
		const { index: victim, pid, jobId } = killWorkerRunning(workers, first.id);
		console.log(
			`  execution ${first.id} (job ${jobId}) on worker ${victim + 1} (pid ${pid}) killed at ${clock(killedAt)} with ${sink.received.length} rows stored`,
		);
		const poll = pollsOf(sandbox.requests, TRIGGER_UNIT, CURRENCY)[0];
		const windowEnd = Math.floor(poll.at / FIVE_MINUTES) * FIVE_MINUTES;
		const truth = expectedRows(sandbox, poll.body, startMs, windowEnd).map(numeric);
		// Rows of this window only: the trigger goes on polling, and later periods are later executions.
		const inWindow = (row: Row) => Date.parse(String(row.period_date)) < windowEnd;
		const deliveries = sink.received;
		const stored = (from: number, to = Infinity): Row[] =>
			deliveries.filter((d) => d.at > from && d.at <= to && inWindow(d.body)).map((d) => d.body);
		await sleep(1_000);
		const beforeKill = stored(0, killedAt + 1_000);
		console.log(
			`  its window: ${clock(startMs)}–${clock(windowEnd)}, ${truth.length} rows in the sandbox; ${beforeKill.length} stored (with the requests in flight at the kill)`,
		);
		await checks.check('the worker was killed mid-run (some, not all, rows stored)', () => {
			assert.ok(
				beforeKill.length > 0 && tally(beforeKill).keys < truth.length,
				`${beforeKill.length} of ${truth.length}`,
			);
		});

		console.log(
			`\n▶ Watch for ${seconds(OBSERVE_MS)} (n8n's defaults: job lock 60 s, stalled-job check every 30 s)`,
		);
		deadline = killedAt + OBSERVE_MS;
		let status = first.status;
		let endedAt: number | undefined;
		while (Date.now() < deadline) {
			const summary = (await listExecutions(rest, flow.id)).find((e) => e.id === first.id);
			if (summary && summary.status !== status) {
				status = summary.status;
				console.log(
					`  ${seconds(Date.now() - killedAt)} after the kill: execution ${first.id} is ${status}`,
				);
			}
			if (summary && !UNFINISHED.has(summary.status)) {
				endedAt ??= Date.now();
				// Give a re-run by the other worker time to show in the store.
				if (Date.now() - endedAt > 10_000) break;
			}
			await sleep(1_000);
		}
		const afterKill = stored(killedAt + 1_000);
		const job = jobId ? redis.command('hgetall', `bull:jobs:${jobId}`) : '';
		const failedReason = /failedReason\n([^\n]*)/.exec(job)?.[1];
		const mainLines = readLog(server.log.logFile)
			.filter((e) => e.level !== 'debug')
			.filter((e) => e.message.includes(`execution ${first.id}`) || e.message.includes('stalled'))
			.map((e) => `${e.level}: ${e.message.split('\n')[0].slice(0, 200)}`);
		const reruns = readLog(workers[1 - victim].log.logFile).filter((e) =>
			startedLine.test(e.message),
		).length;
		const record = await readExecution(runtime, rest, first.id);
		const kept = itemsOf(record.run, LOST_NAMES.trigger)?.length ?? 0;
		console.log(
			`  execution ${first.id}: ${status}${endedAt ? `, ended ${seconds(endedAt - killedAt)} after the kill` : ', not ended'}; its record keeps ${kept} of the trigger's rows`,
		);
		console.log(
			`  Bull job ${jobId}: ${failedReason ? `failed: ${failedReason}` : job ? 'in Redis, not failed' : 'no longer in Redis'}`,
		);
		const firstAgain = deliveries.find((d) => d.at > killedAt + 1_000 && inWindow(d.body));
		console.log(
			`  the other worker started it ${reruns} time(s); the store got ${afterKill.length} rows of the window after the kill${firstAgain ? `, the first ${seconds(firstAgain.at - killedAt)} after it` : ''}`,
		);
		for (const line of mainLines.slice(0, 4)) console.log(`  main: ${line}`);
		const missingAfterKill = truth.length - new Set([...beforeKill, ...afterKill].map(keyOf)).size;
		console.log(
			`  without help: ${truth.length - missingAfterKill} of ${truth.length} rows stored, ${missingAfterKill} missing, ${tally([...beforeKill, ...afterKill]).repeats} stored twice`,
		);
		await checks.check('the execution did not stay running: n8n ended it', () => {
			assert.ok(endedAt !== undefined, `still ${status} ${seconds(OBSERVE_MS)} after the kill`);
		});

		let retried = 'not needed';
		if (status !== 'success') {
			console.log(
				'\n▶ Retry it as a user would (Executions → Retry: POST /rest/executions/<id>/retry)',
			);
			const before = Date.now();
			await rest.request('POST', `/rest/executions/${first.id}/retry`, { loadWorkflow: false });
			deadline = Date.now() + 120_000;
			for (;;) {
				const retry = (await listExecutions(rest, flow.id)).find(
					(e) => e.mode === 'retry' && !UNFINISHED.has(e.status),
				);
				if (retry) {
					const error = (await readExecution(runtime, rest, retry.id)).run.data?.resultData?.error;
					retried = `execution ${retry.id} ${retry.status}${error ? ` (${String(error.message).slice(0, 120)})` : ''}`;
					break;
				}
				if (Date.now() > deadline) {
					retried = 'unfinished after 120 s';
					break;
				}
				await sleep(1_000);
			}
			console.log(
				`  retry: ${retried}; the store got ${stored(before).length} rows of the window from it`,
			);
		}

		let resentCount = 0;
		if (missingAfterKill > 0) {
			console.log(
				'\n▶ Send the window again: a manual run of Stats Get Many for that window → the store',
			);
			const resend = resendWindowWorkflow(new Date(startMs), new Date(windowEnd), storeUrl, 0);
			// Its own import folder: an import replaces every workflow in the folder it reads.
			const resendSession = new N8nSession({ ...session.options, workDir: join(work, 'resend') });
			await resendSession.importExamples([resend]);
			const before = Date.now();
			// Run from the editor's button (REST), as a user would; main runs it.
			const run = await runManually(runtime, rest, resend, resend.workflow.nodes[0]);
			const resent = stored(before);
			console.log(`  ${run.status ?? 'run'}: ${resent.length} rows sent again`);
			resentCount = resent.length;
		}

		const all = stored(0);
		const once = [...new Map(all.map((row) => [keyOf(row), row])).values()];
		const comparison = compareRows(truth, once);
		const repeats = tally(all).repeats;
		console.log(
			`  in the store: ${all.length} rows of the window, ${repeats} of them repeats of a key; one per key: ${comparison.exact} of ${truth.length} identical to the sandbox, ${comparison.missing.length} missing, ${comparison.unexpected.length} unexpected, ${comparison.different.length} different`,
		);
		await checks.check('every row the store got is a row of the sandbox, with its values', () => {
			assert.equal(comparison.unexpected.length + comparison.different.length, 0);
		});
		await checks.check(
			"in the end (the window sent again where rows were missing), one row per key (an upsert on period + campaign) is exactly the sandbox's window",
			() => {
				assert.equal(comparison.exact, truth.length, `${comparison.missing.length} missing`);
			},
		);
		console.log(
			`\nLost worker: ${truth.length} rows in the execution, ${tally(beforeKill).keys} stored before the kill; execution ${status}${endedAt ? ` ${seconds(endedAt - killedAt)} after the kill` : ''}, run again by the other worker: ${reruns ? 'yes' : 'no'}; ${missingAfterKill} rows missing without help; retry: ${retried}; ${resentCount ? `window sent again (${resentCount} rows); ` : ''}${repeats} rows stored twice in all, 0 after an upsert on the key.`,
		);
	} catch (error) {
		checks.fail('lost-worker stage', (error as Error).stack ?? String(error));
		for (const p of [server, ...workers]) {
			if (p) console.log(`--- ${p.log.logFile}\n${tail(p.log.logFile, 20)}`);
		}
	} finally {
		await Promise.all([server?.stop(), ...workers.map((w) => w.stop())]);
		await redis?.stop();
		await postgres?.stop();
		await sink?.stop();
		await sandbox?.stop();
	}
	return finishStage({
		stage: 'lost-worker',
		started,
		checks,
		ranIn: `n8n ${runtime.version} queue mode (PostgreSQL, 2 workers, one killed)`,
		work,
		holds: "n8n's user folder, PostgreSQL and Redis folders and logs",
		keep: flags.has('--keep'),
	});
}

runStage(main);
