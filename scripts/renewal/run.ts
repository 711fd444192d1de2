/**
 * `npm run test:renewal`: the credential renews its own access token inside real n8n, as a user of
 * the real service meets it (an access token lives 1 hour there, a refresh token 30 days; here they
 * live seconds).
 *
 *  1. The cached n8n (2.41.1, or N8N_VERSION), the packed package installed into a fresh user
 *     folder; the sandbox API with a real clock, tokens living TOKEN_SECONDS and refresh tokens
 *     REFRESH_SECONDS.
 *  2. One credential with a username and password only (no token), an active Stats Trigger polled
 *     every minute (n8n's shortest) and a Stats → CSV workflow scheduled every 17 s
 *     (scripts/renewal/workflows.ts).
 *  3. `n8n start`; the access tokens are also ended a second before each of the trigger's polls, so
 *     every poll meets an expired token. Wait until the trigger has polled EXPIRIES times that way,
 *     the scheduled workflow has met as many expiries, and a refresh token has run out (so n8n
 *     signed in again).
 *  4. After an expiry each: a dropdown (loadOptions over the editor's REST API), the credential
 *     Test (as the credential dialog sends it) and a manual run of Audiences Create (a multipart
 *     write).
 *  5. Under faults (scripts/renewal/underFaults.ts): a burst of three 503s on the refresh path at
 *     an expiry (retried, no sign-in, no failed run); a refused password for three scheduled runs
 *     (one sign-in request per n8n process), then the credential edited (signs in at once); in
 *     queue mode, main's trigger and the worker's schedule renewing the one credential with
 *     several sessions per user and with one (the sandbox's --single-session): 0 failed runs.
 *  6. Check (of steps 1-4): every execution succeeded (0 failed), every trigger poll and scheduled
 *     run got its rows, every 401 was followed by one renewal and one repeat that succeeded, no
 *     sign-in was refused, and n8n logged nothing about the package.
 *
 * With --queue, n8n runs in queue mode (PostgreSQL, Redis, main and one worker): the trigger polls
 * in main and the scheduled runs execute on the worker, so both processes renew the one credential.
 *
 * Flags: --keep (keep the temp folder with n8n's user folder and logs), --max-wait=<seconds>
 * (default 300), --token-lifetime=<seconds> (default 12), --refresh-lifetime=<seconds> (default 40),
 * --queue.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { Sandbox } from '../../sandbox';
import { signInCredentialsFor } from '../../harness/sandbox';
import { Checks } from '../lib/checks';
import { repoPackageJson } from '../lib/installPackage';
import { readLog } from '../lib/logs';
import { startPostgres, type Postgres } from '../lib/postgres';
import { freePort } from '../lib/processes';
import { queueModeEnv } from '../lib/queueMode';
import type { N8nServer, N8nWorker } from '../lib/session';
import { finishStage, runStage, seconds, setUpStage, stageSession } from '../lib/stage';
import { startRedis, type Redis } from '../lib/redis';
import { listExecutions, UNFINISHED, type ExecutionSummary } from '../lib/executions';
import { FIVE_MINUTES } from '../lib/statsRows';
import { SCHEDULED_UNIT, SCHEDULE_SECONDS, TRIGGER_UNIT } from '../lib/statsWorkflows';
import { checkAfterExpiry } from './afterExpiry';
import { CABINET, EXPIRIES, POLL_SECOND, RATE_LIMIT, type RenewalStage } from './context';
import { checkFailingTests } from './failingTests';
import { checkFirstPart } from './finalChecks';
import { authCounts, renewals, sleep, unrepeated401s } from './trail';
import {
	burstAtExpiry,
	refusedPassword,
	sharedCredential,
	type SessionFigures,
} from './underFaults';
import { manualAudience, pollingTrigger, scheduledStats } from './workflows';

const args = process.argv.slice(2);
const flags = new Set(args);
function numberFlag(name: string, fallback: number): number {
	const given = args.find((a) => a.startsWith(`--${name}=`));
	const value = given ? Number(given.split('=')[1]) : fallback;
	if (!Number.isFinite(value) || value <= 0)
		throw new Error(`--${name} must be a number of seconds`);
	return value;
}
const QUEUE = flags.has('--queue');
const TOKEN_SECONDS = numberFlag('token-lifetime', 12);
const REFRESH_SECONDS = numberFlag('refresh-lifetime', 40);
const MAX_WAIT_MS = numberFlag('max-wait', 300) * 1000;
async function main(): Promise<number> {
	const started = Date.now();
	const checks = new Checks();
	const pkg = repoPackageJson();

	console.log('\n▶ n8n and the sandbox');
	const setUp = setUpStage('renewal', started);
	if (!setUp) return 1;
	const { runtime, work } = setUp;

	let sandbox: Sandbox | undefined;
	let server: N8nServer | undefined;
	let worker: N8nWorker | undefined;
	let postgres: Postgres | undefined;
	let redis: Redis | undefined;
	try {
		let queueEnv: Record<string, string> | undefined;
		if (QUEUE) {
			postgres = await startPostgres(join(work, 'postgres'));
			redis = await startRedis(join(work, 'redis'));
			queueEnv = queueModeEnv(postgres, redis);
			console.log(
				`  queue mode: PostgreSQL ${postgres.version} on ${postgres.port}, Redis ${redis.version} on ${redis.port}`,
			);
		}
		// The real service's form with its block-extending rate limit at 10 requests per 3 s (the
		// real window is 60 s): the credential paces by it, and every Return All must come back whole
		// with no 429. Restatements are off: the CSV is compared with the API's rows.
		sandbox = await Sandbox.start({
			platform: 'telegram',
			now: new Date(),
			clock: 'real',
			tokenLifetimeSeconds: TOKEN_SECONDS,
			refreshLifetimeSeconds: REFRESH_SECONDS,
			rateLimit: RATE_LIMIT,
			restatements: 'off',
		});
		const sb = sandbox;
		console.log(
			`  sandbox API on ${sb.baseUrl} (${sb.platform} form): access tokens live ${TOKEN_SECONDS} s, refresh tokens ${REFRESH_SECONDS} s`,
		);
		const credential = signInCredentialsFor(sb);
		const trigger = pollingTrigger(
			new Date(Math.floor(Date.now() / FIVE_MINUTES) * FIVE_MINUTES - 3_600_000),
		);
		const scheduled = scheduledStats();
		const manual = manualAudience(CABINET);
		const session = await stageSession(setUp, queueEnv);

		console.log('\n▶ A credential with a username and password only, and the workflows');
		const imported =
			(await checks.check(
				`the credential imports with ${Object.keys(credential).join(', ')} (no token)`,
				async () => {
					assert.equal(credential.authMethod, 'password');
					assert.ok(!('accessToken' in credential) && !('refreshToken' in credential));
					await session.importCredential(credential);
				},
			)) &&
			(await checks.check(
				`"${trigger.workflow.name}", "${scheduled.workflow.name}" and "${manual.workflow.name}" import`,
				async () => await session.importExamples([trigger, scheduled, manual]),
			)) &&
			(await checks.check('the trigger and the scheduled workflow are published', async () => {
				for (const flow of [trigger, scheduled]) await session.publishWorkflow(flow.id);
			}));
		if (!imported) throw new Error('import failed');

		console.log(`\n▶ n8n start${QUEUE ? ' and one n8n worker (EXECUTIONS_MODE=queue)' : ''}`);
		let t = Date.now();
		server = await session.startServer();
		const mainLog = server.log.logFile;
		if (QUEUE) {
			worker = await session.startWorker({
				brokerPort: await freePort(),
				healthPort: await freePort(),
			});
		}
		const rest = server.rest;
		await rest.signIn();
		const runningFrom = Date.now();
		console.log(`  n8n ${runtime.version} on ${server.url} (${seconds(Date.now() - t)})`);

		console.log(
			`\n▶ Running across token expiries (trigger every minute, each poll after an expiry; Stats → CSV every ${SCHEDULE_SECONDS} s; up to ${seconds(MAX_WAIT_MS)})`,
		);
		const statsPages = (unit: string) =>
			sb.requests.filter(
				(r) =>
					r.path === '/api/v1/stats/page' &&
					(r.body as { period_grouping_unit?: string } | undefined)?.period_grouping_unit === unit,
			);
		// A query's first page names the unit; a 401 on it is an expiry met by that workflow, and the
		// query's repeat is a first page again.
		const answered = (unit: string) =>
			statsPages(unit).filter((r) => r.status !== 401 && !(r.body as { cursor?: string }).cursor)
				.length;
		const polls = () => answered(TRIGGER_UNIT);
		const pollExpiries = () => statsPages(TRIGGER_UNIT).filter((r) => r.status === 401).length;
		const scheduledRuns = () => answered(SCHEDULED_UNIT);
		const scheduledExpiries = () =>
			statsPages(SCHEDULED_UNIT).filter((r) => r.status === 401).length;
		const enough = () =>
			pollExpiries() >= EXPIRIES &&
			polls() >= EXPIRIES &&
			scheduledExpiries() >= EXPIRIES &&
			authCounts(sb).failedRefreshes >= 1;
		let shown = '';
		let expiredForMinute = -1;
		const expiredAt: number[] = [];
		const deadline = Date.now() + MAX_WAIT_MS;
		while (!enough() && Date.now() < deadline) {
			// A second before the trigger's poll: its token has just run out.
			const now = new Date();
			const minute = Math.floor(now.getTime() / 60_000);
			if (now.getSeconds() === POLL_SECOND - 1 && expiredForMinute !== minute) {
				sb.sessions.expire({ access: true });
				expiredAt.push(Date.now());
				expiredForMinute = minute;
			}
			const c = authCounts(sb);
			const state = `${c.logins} sign-in(s), ${c.refreshes} refresh(es), ${c.failedRefreshes} refused refresh(es); trigger: ${polls()} poll(s), ${pollExpiries()} met an expired token; scheduled: ${scheduledRuns()} run(s), ${scheduledExpiries()} met one`;
			if (state !== shown) console.log(`  ${seconds(Date.now() - runningFrom)}: ${state}`);
			shown = state;
			await sleep(250);
		}
		// The loop ends on the 401 that completes the count; that request's renewal and repeat are
		// still under way. The next step ends every token again, so it waits for them first.
		const settleBy = Date.now() + 30_000;
		while (unrepeated401s(sb.requests).length > 0 && Date.now() < settleBy) await sleep(100);
		await sleep(1_000);
		const during = authCounts(sb);
		const renewedDuring = renewals(sb);
		console.log(`  ran ${seconds(Date.now() - runningFrom)}`);
		if (!enough()) {
			checks.fail(
				`the trigger polled ${EXPIRIES} times after an expiry, the scheduled workflow met ${EXPIRIES} expiries, and a refresh token ran out`,
				`within ${seconds(MAX_WAIT_MS)}: ${polls()} polls (${pollExpiries()} met an expired token), ${scheduledExpiries()} scheduled expiries, ${during.failedRefreshes} refused refreshes`,
			);
		}

		console.log(
			'\n▶ After an expiry: a dropdown, the credential Test, a manual run of a multipart write',
		);
		const stage: RenewalStage = {
			sb,
			rest,
			runtime,
			checks,
			credential,
			trigger,
			scheduled,
			manual,
			queue: QUEUE,
		};
		await checkAfterExpiry(stage);
		const failingTestsFrom = await checkFailingTests(stage, mainLog);

		// Let runs that started meanwhile finish before reading the records.
		t = Date.now();
		let executions: ExecutionSummary[] = [];
		for (;;) {
			executions = [
				...(await listExecutions(rest, trigger.id)),
				...(await listExecutions(rest, scheduled.id)),
			];
			if (!executions.some((e) => UNFINISHED.has(e.status)) || Date.now() - t > 60_000) break;
			await sleep(1_000);
		}
		const beforeFaults = authCounts(sb);
		const workerLogEntries = worker ? readLog(worker.log.logFile).length : 0;

		const burst = await burstAtExpiry(stage);
		const refused = await refusedPassword(stage);
		const plain = QUEUE ? await sharedCredential(stage, false) : undefined;
		const single = QUEUE ? await sharedCredential(stage, true) : undefined;
		const workerLog = worker?.log.logFile;
		await Promise.all([server.stop(), worker?.stop()]);
		server = undefined;

		await checkFirstPart(
			stage,
			{
				polls,
				pollExpiries,
				scheduledExpiries,
				during,
				renewedDuring,
				expiredAt,
				tokenSeconds: TOKEN_SECONDS,
				refreshSeconds: REFRESH_SECONDS,
				beforeFaults,
			},
			executions,
			failingTestsFrom,
			{ session, pkgName: pkg.name, mainLog, workerLog, workerLogEntries },
		);
		const perExpiry = (f?: SessionFigures) =>
			f
				? `${f.renewals} renewals over ${f.expiries} expiries (${(f.renewals / f.expiries).toFixed(2)} per expiry), ${f.revoked} tokens revoked, ${f.failed} of ${f.executions} executions failed`
				: '';
		console.log(`    a burst of three 503s on the refresh path at an expiry: ${burst.refreshes} refresh requests (${burst.faulted} answered 503 and retried), ${burst.signIns} sign-ins, ${burst.failed} failed executions
    a refused password for ${refused.scheduledRuns} scheduled runs: ${refused.refusedSignIns} sign-in request(s); after the credential was edited: ${refused.afterEdit.signIns} sign-in(s), ${refused.afterEdit.succeeded ? 'the next run succeeded' : 'no run succeeded'}${
			plain && single
				? `
    queue mode, several sessions per user: ${perExpiry(plain)}
    queue mode, one session per user (--single-session): ${perExpiry(single)}`
				: ''
		}`);
	} catch (error) {
		checks.fail('the stage ran to its end', (error as Error).stack ?? (error as Error).message);
	} finally {
		await Promise.all([server?.stop(), worker?.stop()]);
		if (redis) await redis.stop();
		if (postgres) await postgres.stop();
		await sandbox?.stop();
	}
	return finishStage({
		stage: 'renewal',
		started,
		checks,
		ranIn: `n8n ${runtime.version}${QUEUE ? ' queue mode (PostgreSQL, main and a worker)' : ''}`,
		work,
		holds: "n8n's user folder and logs",
		keep: flags.has('--keep'),
	});
}

runStage(main);
