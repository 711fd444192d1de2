/**
 * `npm run test:sync`: the rolling re-sync, proven on real stores. n8n 2.41.1 in queue mode (main,
 * two workers, PostgreSQL 17, Redis), the sandbox API with its clock stopped at the start (today's
 * figures stay as they are between runs), and:
 *
 *  A. examples/sync/stats-sync-to-postgres.json: Schedule → Ad Cabinet Stats 1.2 (Last 3 Days,
 *     today included, by campaign) → Postgres node, Insert or Update on `row_key` into a table of the
 *     stage's own database; at seconds 0 and 30 of every minute.
 *  B. examples/sync/stats-sync-to-data-table.json: the same into an n8n data table, Upsert where
 *     `row_key` matches; at seconds 15 and 45.
 *  T. A Stats Trigger 1.1 (daily by campaign, backfill from 4 days back, Re-Check Last 2 Periods)
 *     → No Operation; polled at second 25 of every minute (n8n polls at most once a minute).
 *
 * Runs and checks, for each store:
 *  1. the first run: the table holds exactly the API's rows (one per row, the API's figures);
 *  2. the second run: nothing changed, 0 duplicates;
 *  3. the sandbox restates some campaign-days (POST /__sandbox/restatements does the same), then the
 *     next run: exactly the rows whose figures the API changed were updated;
 *  4. more restatements, then a run whose worker is killed (SIGKILL, as the lost-worker stage does)
 *     while its store node writes; what the table holds then is printed;
 *  5. the next run: the table equals the API's rows again.
 * And the trigger emitted each row restated in its last 2 days once, marked, with the figures it
 * had, and none of the others.
 *
 * Both stores take 0.1 s per row written (a PostgreSQL trigger that sleeps), as a store across a
 * network does, so that the kill lands while the store node is writing.
 *
 * Flags: --keep (keep the temp folder with n8n's user folder, the databases and logs).
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { credentialsFor } from '../../harness/sandbox';
import { Sandbox } from '../../sandbox';
import { Checks } from '../lib/checks';
import { activateWorkflow, sleep, TriggeredRuns, type ExecutionSummary } from '../lib/executions';
import { repoPackageJson } from '../lib/installPackage';
import { readLog } from '../lib/logs';
import { startPostgres, type Postgres } from '../lib/postgres';
import { tail } from '../lib/processes';
import {
	killWorkerRunning,
	queueModeEnv,
	startQueueMode,
	workerThatStarted,
} from '../lib/queueMode';
import { startRedis, type Redis } from '../lib/redis';
import type { N8nServer, N8nWorker } from '../lib/session';
import {
	awayFromMidnight,
	finishStage,
	runStage,
	seconds,
	setUpStage,
	stageSession,
} from '../lib/stage';
import { CREDENTIAL_TYPE, SANDBOX_CREDENTIAL } from '../lib/workflows';
import { apiRows, firstPages, type Row } from '../lib/statsRows';
import {
	changed,
	compare,
	dayOf,
	closingLine,
	describe,
	heldMap,
	STORE_LABEL,
	type Figures,
} from './compare';
import {
	createDataTable,
	createSyncTable,
	openStores,
	untilWriting,
	type StoreName,
	type Stores,
} from './stores';
import { checkRecheckTrigger, type Restatement } from './trigger';
import { recheckTriggerFlow, syncFlow, syncTableCredential, type SyncFlow } from './workflows';

const flags = new Set(process.argv.slice(2));
const DAY_MS = 86_400_000;

async function main(): Promise<number> {
	const started = Date.now();
	const checks = new Checks();
	repoPackageJson();

	console.log('\n▶ n8n, PostgreSQL 17, Redis and the sandbox');
	await awayFromMidnight(8);
	const setUp = setUpStage('sync', started);
	if (!setUp) return 1;
	const { runtime, work } = setUp;

	let postgres: Postgres | undefined;
	let redis: Redis | undefined;
	let sandbox: Sandbox | undefined;
	let stores: Stores | undefined;
	let server: N8nServer | undefined;
	const workers: N8nWorker[] = [];
	/** Killed workers: their process groups (the task runner) are stopped at the end. */
	const lostWorkers: N8nWorker[] = [];
	const figures: Record<StoreName, Figures> = { postgres: {}, dataTable: {} };
	let triggerLine = '';
	try {
		postgres = await startPostgres(join(work, 'postgres'));
		redis = await startRedis(join(work, 'redis'));
		// The clock stands still: today's figures do not grow between runs, only restatements change rows.
		sandbox = await Sandbox.start({ platform: 'ext', now: new Date() });
		const now = sandbox.clock.now().getTime();
		const today = Math.floor(now / DAY_MS) * DAY_MS;
		await createSyncTable(runtime, postgres.port);
		console.log(
			`  PostgreSQL ${postgres.version} (n8n's database and the sync table), Redis ${redis.version}, sandbox API ${sandbox.baseUrl} (clock stopped at ${new Date(now).toISOString()})`,
		);
		const session = await stageSession(setUp, queueModeEnv(postgres, redis));
		const A = syncFlow('stats-sync-to-postgres.json', 'postgres', [0, 30]);
		const B = syncFlow('stats-sync-to-data-table.json', 'dataTable', [15, 45]);
		// n8n polls a trigger at most once a minute.
		const T = recheckTriggerFlow(new Date(today - 4 * DAY_MS), [25]);
		const flows = [A, B];
		await session.importCredentials(
			[
				{ ...SANDBOX_CREDENTIAL, type: CREDENTIAL_TYPE, data: credentialsFor(sandbox) },
				syncTableCredential(postgres.port),
			],
			'sync-credentials.json',
		);
		await session.importExamples([A.example, B.example, T]);

		console.log(
			'\n▶ n8n start and 2 n8n workers (EXECUTIONS_MODE=queue); the data table; the workflows activated',
		);
		const queue = await startQueueMode(session, 2);
		server = queue.server;
		workers.push(...queue.workers);
		const startWorker = queue.startWorker;
		const rest = server.rest;
		await rest.signIn();
		const dataTableId = await createDataTable(rest);
		stores = await openStores(runtime, postgres.port, dataTableId);
		const readyAt = Date.now();
		for (const example of [A.example, B.example, T]) await activateWorkflow(rest, example.id);
		await sleep(1_000);
		const refused = readLog(server.log.logFile).find(
			(e) => e.level === 'error' && e.message.includes('activating the workflow'),
		);
		assert.ok(!refused, `n8n did not activate a workflow: ${refused?.message.split('\n')[0]}`);
		const runs = new TriggeredRuns(rest, readyAt);
		const ids = flows.map((f) => f.example.id);
		console.log(
			`  A at seconds ${A.seconds.join(', ')}, B at ${B.seconds.join(', ')} of every minute, the trigger at second 25; data table ${dataTableId}`,
		);

		const body = (): Row => {
			const pages = firstPages(sandbox!.requests, 'day').filter((p) =>
				String(p.body.period_to).endsWith('T23:59:59+00:00'),
			);
			assert.ok(pages.length, 'no Last 3 Days request reached the sandbox');
			return pages[pages.length - 1].body;
		};
		const storeOf = (flow: SyncFlow) => flow.store;

		// 1. The first run.
		console.log('\n▶ Run 1: the tables are empty');
		const run1 = await Promise.all(flows.map((f) => runs.next(f.example.id, 0, 'ended')));
		const window = body();
		await checks.check(
			`the Stats node asked for Last 3 Days with today: ${String(window.period_from)} – ${String(window.period_to)}`,
			() => {
				assert.equal(window.period_from, `${dayOf(today - 2 * DAY_MS)}T00:00:00+00:00`);
				assert.equal(window.period_to, `${dayOf(today)}T23:59:59+00:00`);
			},
		);
		let api = apiRows(sandbox, window);
		for (const [i, flow] of flows.entries()) {
			const c = compare(api, await stores.read(storeOf(flow)));
			Object.assign(figures[flow.store], {
				expected: api.size,
				held: c.held,
				duplicates: c.duplicates,
			});
			console.log(
				`  ${STORE_LABEL[flow.store]}: execution ${run1[i].id} ${run1[i].status}; ${describe(c, api.size)}`,
			);
			await checks.check(
				`${STORE_LABEL[flow.store]}, first run: the table equals the API's rows`,
				() => {
					assert.equal(run1[i].status, 'success');
					assert.ok(api.size > 10, `${api.size} rows`);
					assert.deepEqual(
						[c.held, c.duplicates, c.missing, c.unexpected, c.different],
						[api.size, 0, [], [], []],
					);
				},
			);
		}

		// 2. The same rows again.
		console.log('\n▶ Run 2: nothing changed in the API');
		const before2 = await Promise.all(flows.map(async (f) => heldMap(await stores!.read(f.store))));
		const run2 = await Promise.all(
			flows.map((f, i) => runs.next(f.example.id, Number(run1[i].id), 'ended')),
		);
		for (const [i, flow] of flows.entries()) {
			const held = await stores.read(flow.store);
			const c = compare(api, held);
			const moved = changed(before2[i], heldMap(held));
			Object.assign(figures[flow.store], {
				changedOnSecondRun: moved.length,
				duplicates: c.duplicates,
			});
			console.log(
				`  ${STORE_LABEL[flow.store]}: execution ${run2[i].id} ${run2[i].status}; ${describe(c, api.size)}; ${moved.length} rows changed`,
			);
			await checks.check(`${STORE_LABEL[flow.store]}, second run: unchanged, 0 duplicates`, () => {
				assert.equal(run2[i].status, 'success');
				assert.deepEqual([moved, c.held, c.duplicates], [[], api.size, 0]);
			});
		}

		// Rows of the window by day, to choose what to restate.
		const campaignsOn = (day: number) =>
			[...api.keys()]
				.filter((identity) => identity.startsWith(dayOf(day)))
				.map((identity) => Number(identity.split('/')[1]));
		const restated: Restatement[] = [];
		const restate = (targets: Array<[number, number]>) => {
			for (const [day, campaign] of targets) {
				sandbox!.data.forceRestatement({ day: dayOf(day), campaign_id: campaign });
				restated.push({ day: dayOf(day), campaign, at: Date.now() });
			}
		};
		// The first and the second campaign with a row on each day of the window (today may have none
		// yet, shortly after midnight).
		const targets = (nth: number): Array<[number, number]> =>
			[today - DAY_MS, today - 2 * DAY_MS, today]
				.map((day): [number, number] => [day, campaignsOn(day)[nth]])
				.filter(([, campaign]) => campaign !== undefined);
		const [first, second] = [targets(0), targets(1)];
		assert.ok(first.length >= 2 && second.length >= 2, 'the window lacks the campaigns to restate');
		const outside = sandbox.data.campaigns[0].id;

		// 3. Restatements, then a run.
		console.log('\n▶ Restatements, then run 3');
		// The trigger's first poll emits the days it starts from; restatements come after it.
		const backfill = await new TriggeredRuns(rest, readyAt).next(T.id, 0, 'ended', 75_000);
		console.log(`  the trigger's first poll: execution ${backfill.id} ${backfill.status}`);
		await runs.quiet(ids);
		let last = await runs.lastId(ids);
		const before3 = await Promise.all(flows.map(async (f) => heldMap(await stores!.read(f.store))));
		// One more outside the window: no row of the tables changes.
		restate([...first, [today - 3 * DAY_MS, outside]]);
		const api3 = apiRows(sandbox, window);
		const inApi = changed(api, api3);
		api = api3;
		console.log(
			`  restated: ${restated.map((r) => `${r.day} campaign ${r.campaign}`).join(', ')}; ${inApi.length} rows of the window changed in the API (${inApi.join(', ')})`,
		);
		const run3 = await Promise.all(flows.map((f) => runs.next(f.example.id, last, 'ended')));
		for (const [i, flow] of flows.entries()) {
			const held = await stores.read(flow.store);
			const updated = changed(before3[i], heldMap(held));
			const c = compare(api, held);
			Object.assign(figures[flow.store], {
				restatedInApi: inApi.length,
				updatedAfterRestatement: updated.length,
			});
			console.log(
				`  ${STORE_LABEL[flow.store]}: execution ${run3[i].id} ${run3[i].status}; ${updated.length} rows updated (${updated.join(', ')}); ${describe(c, api.size)}`,
			);
			await checks.check(
				`${STORE_LABEL[flow.store]}, after the restatements: exactly the rows the API changed were updated`,
				() => {
					assert.equal(run3[i].status, 'success');
					assert.equal(inApi.length, first.length);
					assert.deepEqual(updated, inApi);
					assert.deepEqual([c.held, c.duplicates, c.different], [api.size, 0, []]);
				},
			);
		}

		// 4. More restatements, then a run whose worker dies while it writes.
		console.log(
			'\n▶ More restatements; run 4 of each workflow loses its worker while the store node writes',
		);
		await runs.quiet(ids);
		last = await runs.lastId(ids);
		restate(second);
		const staleBefore = api;
		api = apiRows(sandbox, window);
		const restated4 = changed(staleBefore, api);
		console.log(
			`  ${restated4.length} rows of the window changed in the API (${restated4.join(', ')})`,
		);
		const replacements: Array<Promise<N8nWorker>> = [];
		// Each workflow's run 4 is watched on its own: whichever starts first is killed first.
		const loseRun = async (flow: SyncFlow): Promise<ExecutionSummary> => {
			const run = await runs.next(flow.example.id, last, 'started', 60_000);
			const startedAt = Date.now();
			// A worker may run both workflows' runs at once; killing it for the other run loses this one too.
			const lostAlready = () => workerThatStarted(lostWorkers, run.id) >= 0;
			const writing = await untilWriting(stores!, flow.store, api.size, startedAt, lostAlready);
			if (writing === undefined) {
				console.log(
					`  ${STORE_LABEL[flow.store]}: execution ${run.id} ran on the same worker and was lost with it`,
				);
				return run;
			}
			// The worker started after the other run's loss may have taken this run (it did in a CI run): once
			// it has logged starting the run it is up, and it is the one to kill.
			if (workerThatStarted(workers, run.id) < 0)
				workers.push(...(await Promise.all(replacements.splice(0))));
			const { index, pid } = killWorkerRunning(workers, run.id);
			lostWorkers.push(...workers.splice(index, 1));
			replacements.push(startWorker());
			if (flow.store === 'dataTable') figures[flow.store].writtenBeforeKill = writing;
			console.log(
				`  ${STORE_LABEL[flow.store]}: execution ${run.id}'s worker (pid ${pid}) killed ${seconds(Date.now() - startedAt)} after the run started, ${flow.store === 'dataTable' ? `${writing} of ${api.size} rows written by then` : 'its INSERT … ON CONFLICT statement running for a second'}; a new worker starts`,
			);
			return run;
		};
		const killed = await Promise.all(flows.map(loseRun));
		await sleep(3_000);
		for (const flow of flows) {
			const held = await stores.read(flow.store);
			const c = compare(api, held);
			const stale = c.different.length;
			Object.assign(figures[flow.store], { heldAfterLostRun: c.held, staleAfterLostRun: stale });
			console.log(`  ${STORE_LABEL[flow.store]} after the lost run: ${describe(c, api.size)}`);
		}
		workers.push(...(await Promise.all(replacements)));

		// 5. The next run makes good what the lost one did not write.
		console.log('\n▶ Run 5: the next scheduled run');
		const run5 = await Promise.all(
			flows.map(async (f, i) => {
				let after = Number(killed[i].id);
				for (;;) {
					const run = await runs.next(f.example.id, after, 'ended', 120_000);
					if (run.status === 'success') return run;
					console.log(`  ${STORE_LABEL[f.store]}: execution ${run.id} ${run.status}`);
					after = Number(run.id);
				}
			}),
		);
		for (const [i, flow] of flows.entries()) {
			const c = compare(api, await stores.read(flow.store));
			const lost = (await runs.list(flow.example.id)).find((e) => e.id === killed[i].id);
			Object.assign(figures[flow.store], {
				heldAfterNextRun: c.held,
				equalAfterNextRun: api.size - c.different.length - c.missing.length,
			});
			console.log(
				`  ${STORE_LABEL[flow.store]}: execution ${run5[i].id} ${run5[i].status} (the lost execution ${killed[i].id}: ${lost?.status ?? 'not listed'}); ${describe(c, api.size)}`,
			);
			await checks.check(
				`${STORE_LABEL[flow.store]}, the run after the lost one: the table equals the API's rows again`,
				() => {
					assert.deepEqual(
						[c.held, c.duplicates, c.missing, c.unexpected, c.different],
						[api.size, 0, [], [], []],
					);
				},
			);
		}

		// The trigger: each restated row of its last 2 days once, marked.
		triggerLine = await checkRecheckTrigger(checks, runtime, rest, T.id, today, restated);
	} catch (error) {
		checks.fail('sync stage', (error as Error).stack ?? String(error));
		for (const p of [server, ...workers]) {
			if (p) console.log(`--- ${p.log.logFile}\n${tail(p.log.logFile, 20)}`);
		}
	} finally {
		await Promise.all([server?.stop(), ...[...workers, ...lostWorkers].map((w) => w.stop())]);
		await stores?.end().catch(() => undefined);
		await redis?.stop();
		await postgres?.stop();
		await sandbox?.stop();
	}
	console.log('');
	for (const store of ['postgres', 'dataTable'] as const)
		console.log(closingLine(store, figures[store]));
	if (triggerLine) console.log(`Stats Trigger, Re-Check Last 2 Periods: ${triggerLine}.`);
	return finishStage({
		stage: 'sync',
		started,
		checks,
		ranIn: `n8n ${runtime.version} queue mode (PostgreSQL ${postgres?.version ?? '17'}, 2 workers, one killed in each workflow's 4th run)`,
		work,
		holds: "n8n's user folder, PostgreSQL and Redis folders and logs",
		keep: flags.has('--keep'),
	});
}

runStage(main);
