/**
 * The checks of the renewal stage's first part (the workflows running across expiries, and the
 * renewals outside a run), made once n8n has stopped, and its figures.
 */
import { strict as assert } from 'node:assert';
import { packageProblems, readLog } from '../lib/logs';
import type { N8nSession } from '../lib/session';
import type { ExecutionSummary } from '../lib/executions';
import { traceExecutions } from '../lib/workerLogs';
import { EXPIRIES, RATE_LIMIT, type RenewalStage } from './context';
import type { FailingTestsFrom } from './failingTests';
import { api, authCounts, isAuth, line, unrepeated401s } from './trail';

/** What the first part counted while it ran. */
interface FirstPart {
	polls: () => number;
	pollExpiries: () => number;
	scheduledExpiries: () => number;
	during: ReturnType<typeof authCounts>;
	renewedDuring: number;
	expiredAt: number[];
	tokenSeconds: number;
	refreshSeconds: number;
	/** The sandbox's counts when the parts under faults began. */
	beforeFaults: ReturnType<typeof authCounts>;
}

export async function checkFirstPart(
	stage: RenewalStage,
	part: FirstPart,
	executions: ExecutionSummary[],
	from: FailingTestsFrom,
	logs: {
		session: N8nSession;
		pkgName: string;
		mainLog: string;
		workerLog?: string;
		workerLogEntries: number;
	},
): Promise<void> {
	const { sb, checks, trigger, scheduled, runtime } = stage;
	const { polls, pollExpiries, scheduledExpiries, during, renewedDuring, expiredAt } = part;
	const { session, mainLog, workerLog, workerLogEntries } = logs;
	const pkg = { name: logs.pkgName };
	console.log('\n▶ Checks (of everything before the Tests that fail on purpose)');
	const ran = sb.requests.slice(0, from.request);
	const byWorkflow = (id: string) => executions.filter((e) => e.workflowId === id);
	const failed = executions.filter((e) => e.status !== 'success');
	await checks.check(
		`0 failed executions: ${byWorkflow(trigger.id).length} of the trigger, ${byWorkflow(scheduled.id).length} scheduled, all success`,
		() => {
			assert.ok(byWorkflow(trigger.id).length >= 1, 'the trigger emitted at least once');
			assert.ok(byWorkflow(scheduled.id).length >= EXPIRIES, `at least ${EXPIRIES} scheduled runs`);
			assert.deepEqual(
				failed.map((e) => `${e.id} ${e.mode} ${e.status}`),
				[],
			);
		},
	);
	await checks.check(
		'every 401 was followed by one renewal and the same request answered 2xx',
		() => {
			const problems = unrepeated401s(ran);
			if (problems.length) {
				// What the sandbox saw around them, and when the stage ended the tokens.
				const at = (ms?: number) => (ms ? new Date(ms).toISOString().slice(11, 23) : '?');
				console.log(
					`      tokens ended by the stage at ${expiredAt.map((ms) => at(ms)).join(', ')}`,
				);
				for (const problem of problems) {
					const seq = Number(/\(#(\d+)\)/.exec(problem)?.[1]);
					console.log(`      around #${seq}:`);
					for (const n of api(ran).filter((x) => Math.abs(x.seq - seq) <= 4)) {
						console.log(
							`        #${n.seq} ${at(n.receivedAt)} ${line(n)} ${JSON.stringify(n.body ?? '').slice(0, 90)}`,
						);
					}
				}
			}
			assert.deepEqual(problems, []);
		},
	);
	await checks.check('every other API request was answered 2xx, and no sign-in was refused', () => {
		const other = api(ran).filter((r) => r.status !== 401 && (r.status < 200 || r.status > 299));
		assert.deepEqual(other.map(line), []);
		assert.equal(from.failedLoginsBefore, 0);
	});
	if (workerLog) {
		const ranOnWorker = traceExecutions(readLog(mainLog), [readLog(workerLog)]);
		await checks.check(
			'every scheduled run executed on the worker, which renewed the token itself',
			() => {
				const scheduledIds = byWorkflow(scheduled.id).map((e) => e.id);
				const elsewhere = scheduledIds.filter((id) => !ranOnWorker.get(id)?.finishedOn.includes(0));
				assert.deepEqual(elsewhere, [], 'scheduled executions the worker did not finish');
				// The scheduled runs' 401s were met, renewed and repeated by the worker.
				assert.ok(
					scheduledExpiries() >= EXPIRIES,
					`${scheduledExpiries()} expiries met by the worker`,
				);
			},
		);
	}
	const pagesServed = api(sb.requests).filter(
		(r) => r.path === '/api/v1/stats/page' && r.status === 200,
	).length;
	await checks.check(
		`under the API's limit of ${RATE_LIMIT.replace('/', ' requests per ')} s, every Return All came back whole with 0 answers of 429 (${pagesServed} statistics pages)`,
		() => {
			assert.equal(sb.rateLimiter.answered429, 0);
			assert.ok(pagesServed >= 10, `${pagesServed} statistics pages`);
		},
	);
	const entries = session
		.allEntries()
		.flatMap((l) =>
			l.log.logFile === mainLog
				? l.entries.slice(0, from.mainLogEntries)
				: l.entries.slice(0, workerLogEntries),
		);
	await checks.check(
		'n8n logged no warning or error about the package, and never gave up on a repeat',
		() => {
			assert.deepEqual(packageProblems(entries, pkg.name), []);
			assert.deepEqual(
				entries
					.filter((e) => /was not retried after refreshing/.test(e.message))
					.map((e) => e.message),
				[],
			);
		},
	);

	const c = part.beforeFaults;
	const four01 = api(ran).filter((r) => r.status === 401 && !isAuth(r)).length;
	console.log(`
  Figures (n8n ${runtime.version}, tokens ${part.tokenSeconds} s, refresh tokens ${part.refreshSeconds} s)
    renewals while the workflows ran: ${renewedDuring} (${during.refreshes} refreshes, ${Math.max(0, during.logins - 1)} sign-ins again after a refresh token ran out)
    all told: ${c.logins} sign-ins, ${c.refreshes} refreshes, ${c.failedRefreshes} refused refreshes, ${from.failedLoginsBefore} refused sign-ins (${c.failedLogins - from.failedLoginsBefore} more by the Test of a wrong password)
    401 answers: ${four01}, each followed by one renewal and a successful repeat
    trigger polls: ${polls()} (${pollExpiries()} met an expired token), trigger executions: ${byWorkflow(trigger.id).length}
    scheduled runs: ${byWorkflow(scheduled.id).length} (${scheduledExpiries()} met an expired token); failed executions: ${failed.length}
    rate limit ${RATE_LIMIT} per path: ${pagesServed} statistics pages, ${sb.rateLimiter.answered429} answers of 429`);
}
