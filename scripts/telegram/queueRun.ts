/**
 * `npm run test:telegram -- --queue`: the declined-ad recipe active in n8n's queue mode, across a
 * restart of main. Inside the stage's network namespace (as the other checks of the stage): the
 * Telegram stand-in, PostgreSQL for n8n's data, Redis for the jobs, the sandbox API (telegram form,
 * real clock), n8n main (which runs the Ads Trigger's polls, once a minute, the shortest n8n lets a
 * polling trigger take) and one worker (which runs the executions and calls Telegram).
 *
 *  1. The recipe, with its chat filled in, is imported and published before main starts; main's
 *     first poll records the ads and sends nothing.
 *  2. Moderation holds ad A; the next poll emits it and the worker delivers it.
 *  3. main stops (SIGTERM, as a restart does); while it is down moderation declines ad B (with
 *     reasons holding `<`, `>` and `&`) and holds ad C; main starts again.
 *  4. After the deliveries, two more polls.
 * Checks: exactly 3 messages reached the chat, one per ad, the declined one with its reasons
 * escaped; no message came twice; every execution succeeded and ran on the worker; nothing in the
 * logs concerns the package; Telegram refused no call.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Sandbox } from '../../sandbox';
import { setAdStatus } from '../../sandbox/handlers/adStatusControl';
import { Checks } from '../lib/checks';
import { listExecutions, sleep, TriggeredRuns } from '../lib/executions';
import { repoPackageJson } from '../lib/installPackage';
import { packageProblems, readLog } from '../lib/logs';
import { startPostgres, type Postgres } from '../lib/postgres';
import { tail } from '../lib/processes';
import { queueModeEnv, startQueueMode, workerThatStarted } from '../lib/queueMode';
import { startRedis, type Redis } from '../lib/redis';
import type { N8nServer, N8nWorker } from '../lib/session';
import { finishStage, seconds, stageSession, type StageSetup } from '../lib/stage';
import { escapeHtml, REASONS } from '../lib/telegramExpectations';
import { makeTestTls } from '../lib/testCa';
import { TelegramStandIn } from './telegramStandIn';
import {
	ALERT_CHAT,
	recipeFlow,
	RECIPES,
	stageCredentials,
	TELEGRAM_HOSTS,
	TOKEN,
} from './workflows';

/** A poll a minute: a delivery comes within this, with room for a run on the worker. */
const DELIVERY_MS = 150_000;
/** Polls after the last delivery in which nothing may be sent again. */
const QUIET_POLLS = 2;

async function waitFor(what: string, done: () => boolean, timeoutMs: number): Promise<number> {
	const started = Date.now();
	while (!done()) {
		if (Date.now() - started > timeoutMs)
			throw new Error(`${what}: not within ${seconds(timeoutMs)}`);
		await sleep(250);
	}
	return Date.now() - started;
}

export async function queueStage(
	setUp: StageSetup & { started: number },
	keep: boolean,
): Promise<number> {
	const { started, runtime, work } = setUp;
	const pkg = repoPackageJson();
	const checks = new Checks();
	let standIn: TelegramStandIn | undefined;
	let postgres: Postgres | undefined;
	let redis: Redis | undefined;
	let sandbox: Sandbox | undefined;
	let server: N8nServer | undefined;
	const mains: N8nServer[] = [];
	let worker: N8nWorker | undefined;
	try {
		const tlsDir = join(work, 'tls');
		mkdirSync(tlsDir, { recursive: true });
		const tls = makeTestTls(tlsDir, TELEGRAM_HOSTS, 'telegram stage');
		standIn = new TelegramStandIn(TOKEN, { [ALERT_CHAT]: 'supergroup' }, tls.tls);
		await standIn.listen(443);
		postgres = await startPostgres(join(work, 'postgres'));
		redis = await startRedis(join(work, 'redis'));
		sandbox = await Sandbox.start({
			platform: 'telegram',
			rateLimit: 'off',
			restatements: 'off',
			now: new Date(),
			clock: 'real',
		});
		console.log(
			`  Telegram stand-in on 127.0.0.1:443, PostgreSQL ${postgres.version} on :${postgres.port}, Redis ${redis.version} on :${redis.port}, sandbox API ${sandbox.baseUrl} (telegram form, real clock)`,
		);
		const api = sandbox;
		const flow = recipeFlow(RECIPES.declined, ALERT_CHAT);
		const session = await stageSession(setUp, {
			...queueModeEnv(postgres, redis),
			NODE_EXTRA_CA_CERTS: tls.caFile,
		});
		await session.importCredentials(stageCredentials(sandbox), 'telegram-credentials.json');
		await session.importExamples([flow.example]);
		await session.publishWorkflow(flow.example.id);

		// The ad list's reads that answered; a poll reads the whole list here, from offset 0 on.
		const listReads = () =>
			api.requests.filter((r) => r.path.startsWith('/api/v2/advertisement') && r.status === 200);
		const polls = () => listReads().filter((r) => Number(r.query.offset ?? 0) === 0).length;
		const sent = () => standIn?.calls.filter((c) => c.method === 'sendMessage') ?? [];
		const [a, b, c] = api.data.ads.filter(
			(ad) => ad.status === 'active' && api.data.cabinet(ad.accountId)?.permitted === true,
		);
		assert.ok(a && b && c, 'the sandbox has fewer than three active ads');

		console.log('\n▶ Queue mode: main and one worker; the recipe active');
		let t = Date.now();
		const queue = await startQueueMode(session, 1);
		server = queue.server;
		mains.push(server);
		worker = queue.workers[0];
		await server.rest.signIn();
		const readyAt = Date.now();
		console.log(`  main on ${server.url} and a worker ready (${seconds(Date.now() - t)})`);
		await waitFor("main's first poll", () => polls() >= 1, 90_000);
		console.log(
			`  main's first poll recorded the ads (${listReads().length} pages of the ad list)`,
		);

		console.log('\n▶ Ad A on hold, delivered by the next poll');
		setAdStatus(api.data, String(a.id), { status: 'on_hold' });
		t = Date.now();
		await waitFor(`ad ${a.id}'s message`, () => sent().length >= 1, DELIVERY_MS);
		await new TriggeredRuns(server.rest, readyAt).quiet([flow.example.id]);
		const beforeRestart = sent().map((call) => call.fields.text ?? '');
		console.log(`  ad ${a.id}: delivered ${seconds(Date.now() - t)} after the change`);

		console.log('\n▶ main restarted; ads B (declined) and C (on hold) change while it is down');
		t = Date.now();
		await server.stop();
		const pollsWhileDown = polls();
		setAdStatus(api.data, String(b.id), { status: 'declined', decline_reason: REASONS });
		setAdStatus(api.data, String(c.id), { status: 'on_hold' });
		server = await session.startServer();
		mains.push(server);
		await server.rest.signIn();
		console.log(`  main stopped and started again (${seconds(Date.now() - t)})`);
		await waitFor('the messages of ads B and C', () => sent().length >= 3, DELIVERY_MS);
		console.log(`  ads ${b.id} and ${c.id}: delivered ${seconds(Date.now() - t)} after the change`);
		const delivered = polls();
		const waited = await waitFor(
			`${QUIET_POLLS} more polls`,
			() => polls() >= delivered + QUIET_POLLS,
			(QUIET_POLLS + 1) * 60_000 + 30_000,
		);
		await sleep(5_000); // a run a last poll started would be on its way to Telegram by now
		await new TriggeredRuns(server.rest, readyAt).quiet([flow.example.id]);
		console.log(
			`  ${QUIET_POLLS} more polls in ${seconds(waited)}; ${polls()} polls in all (${polls() - pollsWhileDown} since the restart), ${listReads().length} pages of the ad list read`,
		);

		const messages = sent();
		const adOf = (text: string | undefined) => Number(/\(ad (\d+)\)/.exec(text ?? '')?.[1]);
		const perAd = [a, b, c].map(
			(ad) => messages.filter((m) => adOf(m.fields.text) === ad.id).length,
		);
		console.log(
			`  messages per ad: ${[a, b, c].map((ad, i) => `${ad.id} ${perAd[i]}`).join(', ')} (${messages.length} in all)`,
		);
		await checks.check(`before the restart: ad ${a.id} on hold reached the chat once`, () => {
			assert.deepEqual(beforeRestart.map(adOf), [a.id]);
		});
		await checks.check(
			`across the restart of main: exactly 3 messages, one per ad (A before, B and C after), none again in ${QUIET_POLLS} more polls`,
			() => {
				const byAd = (x: unknown[], y: unknown[]) => Number(x[0]) - Number(y[0]);
				assert.deepEqual(
					messages
						.map((m) => [adOf(m.fields.text), m.status, m.fields.chat_id, m.fields.parse_mode])
						.sort(byAd),
					[a, b, c].map((ad) => [ad.id, 200, ALERT_CHAT, 'HTML']).sort(byAd),
				);
				assert.deepEqual(perAd, [1, 1, 1]);
			},
		);
		await checks.check(
			`the declined ad ${b.id}'s message names its status and each reason, escaped for HTML`,
			() => {
				const text = messages.find((m) => adOf(m.fields.text) === b.id)?.fields.text ?? '';
				const lines = text.split('\n');
				assert.match(lines[0], /^<b>Ad declined<\/b>: /);
				assert.deepEqual(lines.slice(2), [
					'Status: active → declined',
					'Reasons:',
					...REASONS.map((r) => `• ${escapeHtml(r.reason)}`),
				]);
			},
		);
		const executions = await listExecutions(server.rest, flow.example.id);
		await checks.check('every execution succeeded, and each ran on the worker', () => {
			assert.ok(executions.length >= 2, `${executions.length} executions`);
			assert.deepEqual(
				executions.map((e) => [e.id, e.mode, e.status]),
				executions.map((e) => [e.id, 'trigger', 'success']),
			);
			const where = executions.map((e) => workerThatStarted([worker!], e.id));
			assert.deepEqual(
				where,
				executions.map(() => 0),
			);
		});
		console.log(`  executions: ${executions.map((e) => `${e.id} ${e.status}`).join(', ')}`);
		await checks.check(
			"no warning or error about the package in main's logs (both runs) or the worker's",
			() => {
				assert.deepEqual(
					[...mains, worker].flatMap((p) =>
						packageProblems(readLog(p?.log.logFile ?? ''), pkg.name),
					),
					[],
				);
			},
		);
		await checks.check("every call carried the bot's token and Telegram refused none", () => {
			const refused = (standIn?.calls ?? []).filter(
				(call) => !call.authorized || call.status !== 200,
			);
			assert.deepEqual(
				refused.map((call) => `${call.method} ${call.status} ${call.description ?? ''}`),
				[],
			);
		});
	} catch (error) {
		checks.fail('telegram stage (queue mode)', (error as Error).stack ?? String(error));
		for (const proc of [...mains, worker]) {
			if (proc) console.log(`--- ${proc.log.logFile}\n${tail(proc.log.logFile, 30)}`);
		}
	} finally {
		await Promise.all([server?.stop(), worker?.stop()]);
		if (redis) await redis.stop();
		if (postgres) await postgres.stop();
		await sandbox?.stop();
		await standIn?.stop();
	}
	return finishStage({
		stage: 'telegram',
		started,
		checks,
		ranIn: `n8n ${runtime.version} queue mode (PostgreSQL, Redis, one worker) with its Telegram node and a local Telegram Bot API stand-in`,
		work,
		holds: "n8n's user folder, the CA, PostgreSQL and Redis folders and logs",
		keep,
	});
}
