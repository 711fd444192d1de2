/**
 * The faults of the month, each at a moment chosen to hurt, placed by the share of the month it
 * falls at (so that a shorter run, --days N, still meets every one):
 *
 *  refresh5xx       the access token ends at the start of an hourly run, and the refresh path
 *                   answers 503 four times in a row;
 *  statsDrop        the statistics path drops connections (half of its requests) during one hourly
 *                   pull, of five pages;
 *  workerKilled     the worker running the Ads workflow is killed (SIGKILL) while that run waits
 *                   out the rate limit; a new worker starts;
 *  redisRestart     Redis is restarted between two runs (nothing persisted: the queue starts empty);
 *  postgresRestart  PostgreSQL (n8n's database and the sync table) is restarted between two runs;
 *  apiDown          the whole API is down for 6 hours: every request, sign-in and refresh included,
 *                   is answered 503 or has its connection reset;
 *  mainKilled       n8n main is killed (SIGKILL) while a Stats Trigger poll and an Ads Trigger poll
 *                   wait for their answers (the sandbox holds the statistics and ad-list answers of
 *                   that hour until then); while main is down, moderation declines a running ad;
 *                   main is started again;
 *  refreshExpiry    the refresh token of the first sign-in runs out (30 days; N-1 days with --days N);
 *  revoked          every token revoked and the password changed (as after a password reset) on the
 *                   last day at 06:05; the credential keeps the old one for 3 hours, then the
 *                   credential is edited to the new password.
 */
import type { Sandbox } from '../../sandbox';
import { parseAuthFault } from '../../sandbox';
import { ADS_EVERY_HOURS } from './workflows';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export type FaultKind =
	| 'refresh5xx'
	| 'statsDrop'
	| 'workerKilled'
	| 'redisRestart'
	| 'postgresRestart'
	| 'apiDown'
	| 'mainKilled'
	| 'refreshExpiry'
	| 'revoked'
	| 'passwordFixed'
	// The faults aimed at writes (scripts/month/writeFaults.ts).
	| 'createAnswerLost'
	| 'create5xx'
	| 'creativesWorkerKilled'
	| 'createAnswerLostWorkerKilled'
	| 'createAnswerLostAgain'
	| 'putAnswerLost';

export interface PlannedFault {
	kind: FaultKind;
	/** The hourly step (0 = the first hour of the month) it hits. */
	hour: number;
	/** When: before the step's jump, during the step, or after the step has settled. */
	when: 'before' | 'during' | 'after';
	forcesSignIn: boolean;
	/** Steps after `hour` whose failed runs are the fault's (the password stays wrong 3 hours). */
	lasts: number;
}

export interface FaultRecord {
	kind: FaultKind;
	at: string;
	forcesSignIn: boolean;
	/** Simulated ms range whose failed runs count as this fault's. */
	fromMs: number;
	toMs: number;
	detail: string;
	/** The crashed executions retried after the fault, and how the retries ended. */
	recovery: string[];
}

export const NEW_PASSWORD = 'sandbox-password-after-reset';
const WRONG_HOURS = 3;
const API_DOWN_HOURS = 6;
/** How long the sandbox holds a statistics request while main is killed, before dropping it. */
const HOLD_MS = 5_000;

/** The plan for a month of `days` days whose refresh token lives `refreshDays` days. */
export function planFaults(days: number, refreshDays: number): PlannedFault[] {
	const hours = days * 24;
	const at = (share: number, multiple = 1) =>
		Math.min(hours - 1, Math.max(1, Math.round((share * hours) / multiple) * multiple));
	const lastDay = (days - 1) * 24;
	return [
		{ kind: 'refresh5xx', hour: at(2.4 / 31), when: 'before', forcesSignIn: false, lasts: 0 },
		{ kind: 'statsDrop', hour: at(5.6 / 31), when: 'before', forcesSignIn: false, lasts: 0 },
		{
			kind: 'workerKilled',
			hour: at(8.25 / 31, ADS_EVERY_HOURS),
			when: 'during',
			forcesSignIn: false,
			lasts: 0,
		},
		{ kind: 'redisRestart', hour: at(11.5 / 31), when: 'after', forcesSignIn: false, lasts: 1 },
		{ kind: 'postgresRestart', hour: at(15.5 / 31), when: 'after', forcesSignIn: false, lasts: 1 },
		{
			kind: 'apiDown',
			hour: at(17 / 31),
			when: 'before',
			forcesSignIn: false,
			lasts: API_DOWN_HOURS - 1,
		},
		// Not at an hour of the Ads run: the poll waits alone, and main's kill ends only the poll.
		{ kind: 'mainKilled', hour: at(21.6 / 31) | 1, when: 'during', forcesSignIn: false, lasts: 0 },
		{ kind: 'refreshExpiry', hour: refreshDays * 24, when: 'before', forcesSignIn: true, lasts: 0 },
		{
			kind: 'revoked',
			hour: lastDay + 6,
			when: 'before',
			forcesSignIn: true,
			lasts: WRONG_HOURS - 1,
		},
		{
			kind: 'passwordFixed',
			hour: lastDay + 6 + WRONG_HOURS,
			when: 'before',
			forcesSignIn: true,
			lasts: 0,
		},
	];
}

/** The hours a fault takes: its own, the hours it lasts, and the one after. */
export function takenHours(plan: PlannedFault[]): number[] {
	return plan.flatMap((f) => Array.from({ length: f.lasts + 2 }, (_, i) => f.hour + i));
}

/** Sandbox-side injections; the process faults (kill, restarts) and the credential edit are the run's. */
export function injectSandboxFault(sandbox: Sandbox, kind: FaultKind): string {
	switch (kind) {
		case 'refresh5xx':
			// The token ends now, so the run's first request meets the expiry and asks to refresh.
			sandbox.sessions.expire({ access: true });
			sandbox.authFaults.set(parseAuthFault({ status: 503, count: 4, paths: ['refresh'] }));
			return 'access tokens ended at the run; the next 4 refresh requests answered 503';
		case 'statsDrop':
			sandbox.faults.set({
				rate: 0.5,
				kinds: ['reset'],
				seed: 32,
				match: (path) => path.includes('/stats/'),
			});
			return 'half of the statistics requests of one hourly pull dropped (connection reset)';
		case 'apiDown':
			sandbox.faults.set({ rate: 1, kinds: ['503', 'reset'], seed: 17 });
			return `the whole API down for ${API_DOWN_HOURS} hours: every request answered 503 or its connection reset`;
		case 'mainKilled':
			sandbox.faults.set({
				rate: 1,
				kinds: ['stall'],
				stallMs: HOLD_MS,
				match: (path) => path.includes('/stats/') || path.startsWith('/api/v2/advertisement'),
			});
			return `statistics and ad-list requests held ${HOLD_MS / 1000} s, then dropped`;
		case 'revoked':
			sandbox.sessions.settings.password = NEW_PASSWORD;
			sandbox.sessions.revokeAll();
			return `every token revoked and the password changed; the credential keeps the old one for ${WRONG_HOURS} hours`;
		default:
			return '';
	}
}

/** Undoes what a sandbox fault left switched on once its last step has settled. */
export function clearSandboxFault(sandbox: Sandbox, kind: FaultKind): void {
	if (kind === 'statsDrop' || kind === 'apiDown' || kind === 'mainKilled') sandbox.faults.clear();
	if (kind === 'refresh5xx') sandbox.authFaults.clear();
}
