/**
 * The renewal stage's parts under faults, with n8n running: a burst of 5xx on the refresh path at
 * an expiry; a refused password for three scheduled runs, then the credential edited; and, in queue
 * mode, main's trigger and a worker's schedule renewing the one credential with and without one
 * session per user.
 */
import { strict as assert } from 'node:assert';
import { CREDENTIAL_TYPE, SANDBOX_CREDENTIAL } from '../lib/workflows';
import { listExecutions, UNFINISHED, type ExecutionSummary } from '../lib/executions';
import type { RenewalStage } from './context';
import { api, authCounts, REFRESH, SIGN_IN, sleep } from './trail';

/** The password the sandbox is changed to: the credential's is then refused. */
const CHANGED_PASSWORD = 'changed-password-5e2a';

async function waitFor(done: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
	const until = Date.now() + ms;
	while (Date.now() < until) {
		if (await done()) return true;
		await sleep(500);
	}
	return await done();
}

/** Executions of the workflows that started at or after `since`, and whether any is unfinished. */
async function executionsSince(
	stage: RenewalStage,
	since: number,
	ids = [stage.trigger.id, stage.scheduled.id],
): Promise<{ all: ExecutionSummary[]; unfinished: number }> {
	const all: ExecutionSummary[] = [];
	for (const id of ids) all.push(...(await listExecutions(stage.rest, id)));
	const mine = all.filter((e) => Date.parse(e.startedAt ?? e.createdAt) >= since);
	return { all: mine, unfinished: mine.filter((e) => UNFINISHED.has(e.status)).length };
}

const failedOf = (executions: ExecutionSummary[]) =>
	executions.filter((e) => e.status !== 'success').map((e) => `${e.id} ${e.mode} ${e.status}`);

/** Starts the parts from a fresh sign-in whose tokens live an hour: only forced expiries count. */
async function freshSession(stage: RenewalStage): Promise<void> {
	const { sb } = stage;
	sb.sessions.settings.tokenLifetimeSeconds = 3600;
	sb.sessions.settings.refreshLifetimeSeconds = 3600;
	sb.sessions.revokeAll();
	const logins = sb.sessions.counts.logins;
	await waitFor(() => sb.sessions.counts.logins > logins, 60_000);
	await sleep(2_000);
}

interface BurstFigures {
	faulted: number;
	refreshes: number;
	signIns: number;
	failed: number;
}

/** A burst of three 503s on the refresh path at an expiry: retried, no sign-in, no failed run. */
export async function burstAtExpiry(stage: RenewalStage): Promise<BurstFigures> {
	const { sb, checks } = stage;
	console.log('\n▶ A burst of 5xx on the refresh path at an expiry');
	await freshSession(stage);
	const before = authCounts(sb);
	const from = sb.requests.length;
	const since = Date.now();
	sb.authFaults.set({ kind: 503, latencyMs: 0, count: 3, paths: ['refresh'] });
	sb.sessions.expire({ access: true });
	// Through the burst and one scheduled run after it.
	await waitFor(async () => {
		if (sb.authFaults.remaining > 0) return false;
		const { all, unfinished } = await executionsSince(stage, since, [stage.scheduled.id]);
		return all.length >= 2 && unfinished === 0;
	}, 120_000);
	sb.authFaults.clear();
	const { all } = await executionsSince(stage, since);
	const refreshes = api(sb.requests.slice(from)).filter((r) => r.path === REFRESH);
	const figures: BurstFigures = {
		faulted: refreshes.filter((r) => r.status === 503).length,
		refreshes: refreshes.length,
		signIns: sb.sessions.counts.logins - before.logins,
		failed: failedOf(all).length,
	};
	console.log(
		`      refresh requests: ${refreshes.map((r) => r.status).join(', ')}; sign-ins: ${figures.signIns}; executions: ${all.length}`,
	);
	await checks.check(
		'the 503s on the refresh path were retried like a read: the refresh succeeded, no sign-in was needed, 0 failed executions',
		() => {
			assert.equal(figures.faulted, 3, 'three refresh requests answered 503');
			assert.ok(
				refreshes.some((r) => r.status === 200),
				'a refresh succeeded',
			);
			assert.equal(figures.signIns, 0, 'no sign-in');
			assert.equal(sb.sessions.counts.failedLogins, before.failedLogins);
			assert.deepEqual(failedOf(all), []);
		},
	);
	return figures;
}

interface RefusedFigures {
	scheduledRuns: number;
	refusedSignIns: number;
	afterEdit: { signIns: number; succeeded: boolean };
}

/** The credential's password stops working: three scheduled runs, then the credential edited. */
export async function refusedPassword(stage: RenewalStage): Promise<RefusedFigures> {
	const { sb, rest, checks, scheduled } = stage;
	console.log('\n▶ A refused password for three scheduled runs, then the credential edited');
	const before = authCounts(sb);
	sb.sessions.settings.password = CHANGED_PASSWORD;
	sb.sessions.revokeAll();
	const since = Date.now();
	const ran = async () => {
		const { all } = await executionsSince(stage, since, [scheduled.id]);
		return all.filter((e) => !UNFINISHED.has(e.status));
	};
	await waitFor(async () => (await ran()).length >= 3, 120_000);
	const runs = (await ran()).slice(0, 3);
	const refusedSignIns = sb.sessions.counts.failedLogins - before.failedLogins;
	console.log(
		`      ${runs.length} scheduled runs: ${runs.map((e) => e.status).join(', ')}; sign-in requests: ${refusedSignIns} (all refused)`,
	);
	// The credential edited as the dialog saves it: the stored data with the new password.
	const record = await rest.request<{ name: string; data: Record<string, unknown> }>(
		'GET',
		`/rest/credentials/${SANDBOX_CREDENTIAL.id}?includeData=true`,
	);
	await rest.request('PATCH', `/rest/credentials/${SANDBOX_CREDENTIAL.id}`, {
		name: record.name,
		type: CREDENTIAL_TYPE,
		data: { ...record.data, password: CHANGED_PASSWORD },
	});
	const editedAt = Date.now();
	const logins = sb.sessions.counts.logins;
	const failedAtEdit = sb.sessions.counts.failedLogins;
	const succeeded = await waitFor(async () => {
		const { all } = await executionsSince(stage, editedAt, [scheduled.id]);
		return all.some((e) => e.status === 'success');
	}, 90_000);
	const figures: RefusedFigures = {
		scheduledRuns: runs.length,
		refusedSignIns,
		afterEdit: { signIns: sb.sessions.counts.logins - logins, succeeded },
	};
	console.log(
		`      after the edit: ${figures.afterEdit.signIns} sign-in(s), a scheduled run ${succeeded ? 'succeeded' : 'did not succeed'}`,
	);
	// Processes that may sign in before either has stored the refusal: the one n8n, or main (the
	// trigger) and the worker (the schedule).
	const processes = stage.queue ? 2 : 1;
	await checks.check(
		`three scheduled runs with a refused password sent at most ${processes} sign-in request(s) (the refusal is kept in the credential for every process; two may meet the password at the same moment), and the edited credential signed in at once`,
		() => {
			assert.equal(runs.length, 3, 'three scheduled runs');
			assert.deepEqual(
				runs.filter((e) => e.status === 'success').map((e) => e.id),
				[],
				'none succeeded',
			);
			assert.ok(refusedSignIns >= 1 && refusedSignIns <= processes, `${refusedSignIns} refused`);
			assert.ok(succeeded, 'a scheduled run succeeded after the edit');
			assert.ok(figures.afterEdit.signIns >= 1, 'signed in after the edit');
			assert.equal(sb.sessions.counts.failedLogins, failedAtEdit, 'no refused sign-in after it');
		},
	);
	return figures;
}

export interface SessionFigures {
	expiries: number;
	renewals: number;
	executions: number;
	failed: number;
	revoked: number;
}

/**
 * Main's trigger and the worker's schedule renew the one credential across `expiries` forced
 * expiries, 20 s apart. With single session each renewal revokes the other process's token.
 */
export async function sharedCredential(
	stage: RenewalStage,
	singleSession: boolean,
	expiries = 3,
): Promise<SessionFigures> {
	const { sb, checks } = stage;
	const label = singleSession
		? 'with one session per user (--single-session)'
		: 'with several sessions per user';
	console.log(
		`\n▶ Queue mode: main's trigger and the worker's schedule renew the one credential, ${label}`,
	);
	sb.sessions.settings.singleSession = singleSession;
	await sleep(1_000);
	const before = authCounts(sb);
	const since = Date.now();
	const from = sb.requests.length;
	for (let i = 0; i < expiries; i++) {
		sb.sessions.expire({ access: true });
		await sleep(20_000);
	}
	await waitFor(async () => (await executionsSince(stage, since)).unfinished === 0, 60_000);
	const { all } = await executionsSince(stage, since);
	const after = authCounts(sb);
	const figures: SessionFigures = {
		expiries,
		renewals: after.refreshes - before.refreshes + (after.logins - before.logins),
		executions: all.length,
		failed: failedOf(all).length,
		revoked: after.revoked - before.revoked,
	};
	const auth = api(sb.requests.slice(from)).filter((r) => r.path === REFRESH || r.path === SIGN_IN);
	console.log(
		`      ${figures.renewals} renewals over ${expiries} expiries (${auth.map((r) => `${r.path === SIGN_IN ? 'sign-in' : 'refresh'} ${r.status}`).join(', ')}); ${figures.revoked} tokens revoked; ${all.length} executions`,
	);
	await checks.check(`0 failed executions ${label}: ${all.length} executions`, () => {
		assert.ok(all.length >= expiries, 'the workflows ran');
		assert.deepEqual(failedOf(all), []);
	});
	sb.sessions.settings.singleSession = false;
	return figures;
}
