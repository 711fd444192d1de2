/**
 * `npm run test:twice`: two runs at once never make an ad twice. examples/create-ads-from-sheet.json
 * (Manual Trigger → Sample sheet → One row per creative → Ad Cabinet Ads Create with Skip
 * Identical) is started twice at the same instant in real n8n 2.41.1, and the sandbox counts, per
 * sheet row, the create requests it received and the ads the campaign holds:
 *
 *  1. regular mode: one `n8n start` (SQLite) runs both executions in its own process;
 *  2. queue mode: PostgreSQL 17, Redis, main and two workers, with
 *     OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true so that manual runs go to the workers as Bull hands
 *     them out. Each worker's own log names the executions it started; when Bull gives both to one
 *     worker, another pair runs (rows of their own, see pair.ts), up to MAX_PAIRS, and each such
 *     pair is reported.
 *
 *  3. queue mode again, with the recipe and a copy of it imported as another workflow (so another
 *     record row, which no claim of the first can reach) started at the same instant: each row has
 *     one ad, or the run whose ad came second fails with "Ad made twice" naming both ads.
 *
 * Checks, in each mode: both executions succeed (the later one outputs its rows skipped), exactly
 * one create request per row reached the sandbox, each row has exactly one ad; in queue mode, the
 * two executions ran on different workers.
 *
 * A stage of its own rather than part of `test:sheets`: the recipe as shipped takes its rows from
 * a Set node (Sample sheet), not from Google Sheets, so it runs unchanged with no Google stand-in,
 * no network namespace and no root, and the Ads node is the one users import. Each mode has a
 * sandbox of its own (telegram form, the real rate limit) whose answers take ANSWER_DELAY_MS.
 *
 * Flags: --keep (keep the work folder: n8n's user folder, PostgreSQL, Redis and the logs).
 */
import { join } from 'node:path';
import { strict as assert } from 'node:assert';
import { credentialsFor } from '../../harness/sandbox';
import { Sandbox } from '../../sandbox';
import { Checks } from '../lib/checks';
import { stageEvidence, writeEvidence } from '../lib/evidence';
import { readLog } from '../lib/logs';
import { startPostgres, type Postgres } from '../lib/postgres';
import { tail } from '../lib/processes';
import { queueModeEnv, startQueueMode, workerThatStarted } from '../lib/queueMode';
import { startRedis, type Redis } from '../lib/redis';
import type { N8nServer, N8nSession, N8nWorker } from '../lib/session';
import {
	finishStage,
	runStage,
	seconds,
	setUpStage,
	stageSession,
	step,
	type StageSetup,
} from '../lib/stage';
import { CREDENTIAL_TYPE, SANDBOX_CREDENTIAL } from '../lib/workflows';
import { COPY_PAIR, copyPair } from './copyPair';
import {
	CREATE_NODE,
	MAX_PAIRS,
	printPair,
	describeRun,
	FILE,
	recipe,
	runPair,
	type PairOutcome,
	type Recipe,
} from './pair';

const flags = new Set(process.argv.slice(2));
/**
 * How long the sandbox takes to answer each request: a slow answer of the real API. A local sandbox
 * answers in a millisecond, so that the first run's create would be answered before the other has
 * read the ad list, and the pair would not overlap in queue mode, where the second execution starts
 * on its worker about 0.4 s after the first (main enqueues the two one after the other). With a
 * second per answer, each run reads the list while the other's create is still unanswered.
 */
const ANSWER_DELAY_MS = 1_000;

type Mode = 'regular' | 'queue';
const MODE_LABEL: Record<Mode, string> = {
	regular: 'regular mode (one n8n start)',
	queue: 'queue mode (main + 2 workers)',
};

async function startSandbox(): Promise<Sandbox> {
	const sandbox = await Sandbox.start({ platform: 'telegram' });
	sandbox.data.answerDelayMs = ANSWER_DELAY_MS;
	return sandbox;
}

/** A session over the stage's user folder, with logs and import files in a folder of the mode's own. */
async function modeSession(
	setUp: StageSetup,
	mode: Mode,
	sandbox: Sandbox,
	recipes: Recipe[],
	extraEnv?: Record<string, string>,
): Promise<N8nSession> {
	const session = await stageSession({ ...setUp, work: join(setUp.work, mode) }, extraEnv);
	await session.importCredentials(
		[{ ...SANDBOX_CREDENTIAL, type: CREDENTIAL_TYPE, data: credentialsFor(sandbox) }],
		'twice-credentials.json',
	);
	await session.importExamples(recipes.map((r) => r.example));
	return session;
}

async function checkPair(checks: Checks, mode: Mode, outcome: PairOutcome): Promise<void> {
	const label = MODE_LABEL[mode];
	const allOne = (counts: number[]) => counts.every((n) => n === 1);
	await checks.check(`${label}: both executions succeed (the later one's rows skipped)`, () =>
		assert.ok(
			outcome.runs.every((run) => run.status === 'success'),
			outcome.runs.map(describeRun).join('; '),
		),
	);
	await checks.check(`${label}: exactly one create request per row`, () =>
		assert.ok(
			allOne(outcome.createsPerRow),
			`create requests per row: ${outcome.createsPerRow.join(', ')}`,
		),
	);
	await checks.check(`${label}: exactly one ad per row`, () =>
		assert.ok(allOne(outcome.adsPerRow), `ads per row: ${outcome.adsPerRow.join(', ')}`),
	);
}

/**
 * How far apart the two executions' Create ad nodes started, from the logs of the workers that ran
 * them: the first `Running node "Create ad" started` after each worker's "Worker started execution".
 */
function createStartsApart(
	workers: N8nWorker[],
	ids: [string, string],
	on: number[],
): number | undefined {
	const times = ids.map((id, i) => {
		if (on[i] < 0) return undefined;
		const entries = readLog(workers[on[i]].log.logFile);
		const from = entries.findIndex((e) => e.message.startsWith(`Worker started execution ${id} (`));
		const create = entries
			.slice(from)
			.find((e) => e.message === `Running node "${CREATE_NODE}" started`);
		return from < 0 || !create ? undefined : Date.parse(String(create.metadata?.timestamp));
	});
	const [a, b] = times;
	return a === undefined || b === undefined || Number.isNaN(a - b) ? undefined : Math.abs(a - b);
}

/** The workers' debug lines of the node's claims made again, for these two executions. */
function claimedAgain(workers: N8nWorker[], ids: [string, string]): string {
	const ours = new Set(ids.map(String));
	const lines = workers
		.flatMap((w) => readLog(w.log.logFile))
		.filter((e) => ours.has(String(e.metadata?.executionId)))
		.map((e) => e.message);
	const count = (start: string) =>
		lines.filter((m) => m.startsWith(`Ad Cabinet: the claim to create an ad ${start}`)).length;
	return `${count('failed once')} after a failed write (another run's first write of the record row), ${count('was dropped')} found dropped by the other run's write`;
}

const closing = (mode: Mode, outcome: PairOutcome | undefined, where: string) =>
	outcome
		? `${MODE_LABEL[mode]}: create requests per row ${outcome.createsPerRow.join(', ')}; ads per row ${outcome.adsPerRow.join(', ')}; ${where}.`
		: `${MODE_LABEL[mode]}: no pair ran to its end.`;

async function regularMode(setUp: StageSetup, checks: Checks, started: number): Promise<string> {
	let sandbox: Sandbox | undefined;
	let server: N8nServer | undefined;
	let outcome: PairOutcome | undefined;
	try {
		sandbox = await startSandbox();
		const first = recipe(1);
		await step(started, 'Regular mode: n8n start (SQLite)', async () => {
			const session = await modeSession(setUp, 'regular', sandbox!, [first]);
			server = await session.startServer();
			await server.rest.signIn();
		});
		outcome = await step(started, `Regular mode: ${FILE} started twice at once`, async () => {
			const pair = await runPair(setUp.runtime, server!.rest, sandbox!, first);
			printPair(pair, ['main', 'main']);
			return pair;
		});
		await checkPair(checks, 'regular', outcome);
	} catch (error) {
		checks.fail('regular mode', (error as Error).stack ?? String(error));
		if (server) console.log(`--- ${server.log.logFile}\n${tail(server.log.logFile, 20)}`);
	} finally {
		await server?.stop();
		await sandbox?.stop();
	}
	return closing('regular', outcome, 'both executions in the one process');
}

async function queueMode(setUp: StageSetup, checks: Checks, started: number): Promise<string[]> {
	let postgres: Postgres | undefined;
	let redis: Redis | undefined;
	let sandbox: Sandbox | undefined;
	let server: N8nServer | undefined;
	const workers: N8nWorker[] = [];
	let outcome: PairOutcome | undefined;
	let where = '';
	let copyLine = 'queue mode, the recipe and a copy of it: did not run.';
	try {
		const recipes = Array.from({ length: MAX_PAIRS }, (_, i) => recipe(i + 1));
		// The recipe and a copy of it imported as another workflow, with rows of their own.
		const copies: [Recipe, Recipe] = [recipe(COPY_PAIR), recipe(COPY_PAIR, true)];
		await step(started, 'Queue mode: PostgreSQL 17, Redis, main and 2 workers', async () => {
			postgres = await startPostgres(join(setUp.work, 'postgres'));
			redis = await startRedis(join(setUp.work, 'redis'));
			sandbox = await startSandbox();
			const session = await modeSession(setUp, 'queue', sandbox, [...recipes, ...copies], {
				...queueModeEnv(postgres, redis),
				OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			});
			const queue = await startQueueMode(session, 2);
			server = queue.server;
			workers.push(...queue.workers);
			await server.rest.signIn();
			console.log(
				`  PostgreSQL ${postgres.version}, Redis ${redis.version}; workers pid ${workers.map((w) => w.spawned.child.pid).join(' and ')}`,
			);
		});
		const sameWorker: string[] = [];
		for (const [index, current] of recipes.entries()) {
			const title = `Queue mode, pair ${index + 1}: ${FILE}${index ? ' (rows of its own)' : ''} started twice at once`;
			const { pair, on, names } = await step(started, title, async () => {
				const ran = await runPair(setUp.runtime, server!.rest, sandbox!, current);
				const ranOn = ran.ids.map((id) => workerThatStarted(workers, id));
				const workerNames = ranOn.map((i) => (i < 0 ? 'no worker' : `worker ${i + 1}`)) as [
					string,
					string,
				];
				printPair(ran, workerNames);
				const apart = createStartsApart(workers, ran.ids, ranOn);
				if (apart !== undefined)
					console.log(
						`  the two Create ad nodes started ${seconds(apart)} apart (the workers' logs)`,
					);
				console.log(`  claims made again: ${claimedAgain(workers, ran.ids)}`);
				return { pair: ran, on: ranOn, names: workerNames };
			});
			outcome = pair;
			where = `executions ${pair.ids.join(' and ')} on ${names.join(' and ')}`;
			if (on[0] >= 0 && on[1] >= 0 && on[0] !== on[1]) break;
			sameWorker.push(`pair ${index + 1} (${names.join(', ')})`);
			console.log(`  both executions on ${names[0]}: Bull gave the pair to one worker`);
		}
		if (sameWorker.length) where += `; before it, on one worker: ${sameWorker.join(', ')}`;
		await checks.check(`${MODE_LABEL.queue}: the two executions ran on different workers`, () => {
			assert.ok(outcome, 'no pair ran');
			const on = outcome.ids.map((id) => workerThatStarted(workers, id));
			assert.ok(on[0] >= 0 && on[1] >= 0 && on[0] !== on[1], where);
		});
		if (outcome) await checkPair(checks, 'queue', outcome);
		copyLine = await copyPair(started, checks, server!, workers, sandbox!, setUp, copies);
	} catch (error) {
		checks.fail('queue mode', (error as Error).stack ?? String(error));
		for (const p of [server, ...workers])
			if (p) console.log(`--- ${p.log.logFile}\n${tail(p.log.logFile, 20)}`);
	} finally {
		await Promise.all([server?.stop(), ...workers.map((w) => w.stop())]);
		await redis?.stop();
		await postgres?.stop();
		await sandbox?.stop();
	}
	return [closing('queue', outcome, where), copyLine];
}

async function main(): Promise<number> {
	const started = Date.now();
	const checks = new Checks();
	console.log('\n▶ n8n and the package');
	const setUp = setUpStage('twice', started);
	if (!setUp) return 1;
	const lines = [
		await regularMode(setUp, checks, started),
		...(await queueMode(setUp, checks, started)),
	];
	console.log('');
	for (const line of lines) console.log(line);
	writeEvidence(
		stageEvidence({
			name: 'twice',
			title: 'Two runs at once',
			command: 'npm run test:twice',
			started,
			n8n: `${setUp.runtime.version}, regular mode and queue mode (PostgreSQL, Redis, 2 workers)`,
			checks,
			figures: lines,
		}),
	);
	return finishStage({
		stage: 'twice',
		started,
		checks,
		ranIn: `n8n ${setUp.runtime.version}, regular mode and queue mode (PostgreSQL, Redis, 2 workers)`,
		work: setUp.work,
		holds: "n8n's user folder, PostgreSQL and Redis folders and logs",
		keep: flags.has('--keep'),
	});
}

runStage(main);
