/**
 * Every execution of the month, read from n8n's own database as the month goes (n8n prunes
 * executions older than 14 days, so the end alone would not see them all), and the wait for an
 * hourly step to settle: the runs it starts have started and ended, the trigger has polled, and no
 * request to the sandbox is open. While a run waits out the rate limit (no request open, a path at
 * its limit) and no other run is under way, the clock moves on to when the path's window frees, as
 * time would pass. A run alone that waits with no request open for other reasons (the write guards'
 * second before they look at n8n's records again) sees the clock move on a second at a time, when
 * every n8n process is asleep (stillness.ts): no other run is there to write those records
 * meanwhile, no work n8n times on its own clock is under way, and a second is far below any timeout
 * of a database connection being opened. Other waits (a retry's backoff after a fault) pass in real
 * time: a jump while requests fail would also fire the timeouts of database connections being opened.
 */
import { REAL_RATE_LIMIT as RATE_LIMIT, type LoggedRequest } from '../../sandbox';
import type { SimClock } from './clock';
import { Stillness } from './stillness';
import type { Db } from './services';

export interface ExecutionRow {
	id: number;
	workflowId: string;
	status: string;
	mode: string;
	/** Simulated ms (n8n writes its own clock's time). */
	createdAt: number;
	/** Simulated ms a process began running it (a worker, or main); unset while queued. */
	startedAt?: number;
	stoppedAt?: number;
}

export const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A run alone and idle this long (real ms) sees the clock move on by IDLE_STEP_MS. */
const IDLE_AFTER_MS = 300;
const IDLE_STEP_MS = 1_000;

const isFinished = (e: ExecutionRow) => FINISHED.has(e.status);

/** The processes on each clock, watched for the idle steps. */
const stillnessOf = new WeakMap<SimClock, Stillness>();

export class Executions {
	readonly all = new Map<number, ExecutionRow>();
	/** Executions the stage stops waiting for (a killed worker's run). */
	readonly abandoned = new Set<number>();
	private maxId = 0;

	constructor(private readonly db: Db) {}

	/** Reads executions newer than the last seen, and those seen unfinished. */
	async refresh(): Promise<ExecutionRow[]> {
		const open = [...this.all.values()].filter((e) => !isFinished(e)).map((e) => e.id);
		const rows = await this.db.query<{
			id: number | string;
			workflowId: string;
			status: string;
			mode: string;
			createdAt: Date;
			startedAt: Date | null;
			stoppedAt: Date | null;
		}>(
			'SELECT id, "workflowId", status, mode, "createdAt", "startedAt", "stoppedAt" FROM execution_entity WHERE id > $1 OR id = ANY($2::int[])',
			// n8n may commit a later id before an earlier one (two triggers at once): the latest ids
			// are read again, so an execution that appears late is not skipped.
			[Math.max(0, this.maxId - 50), open],
		);
		for (const row of rows) {
			const e: ExecutionRow = {
				id: Number(row.id),
				workflowId: row.workflowId,
				status: row.status,
				mode: row.mode,
				createdAt: new Date(row.createdAt).getTime(),
				startedAt: row.startedAt ? new Date(row.startedAt).getTime() : undefined,
				stoppedAt: row.stoppedAt ? new Date(row.stoppedAt).getTime() : undefined,
			};
			this.all.set(e.id, e);
			this.maxId = Math.max(this.maxId, e.id);
		}
		return [...this.all.values()];
	}

	get lastId(): number {
		return this.maxId;
	}

	since(id: number): ExecutionRow[] {
		return [...this.all.values()].filter((e) => e.id > id);
	}
}

interface StepWait {
	/** Workflow ids that start a run this hour. */
	due: string[];
	/** The trigger's workflow id: it runs only when its poll finds rows. */
	triggerId: string;
	/** Requests logged before the jump: the trigger's poll is looked for after them. */
	requestsBefore: number;
	requests: readonly LoggedRequest[];
	/** Real ms a step may take before the stage moves on. */
	timeoutMs: number;
	/** Wakes n8n's processes after a jump, so that the timers it passed fire at once. */
	wake: () => void;
	/** The workflow that waits out the rate limit (the Ads run), which has no database node. */
	pacedFlowId: string;
}

interface StepOutcome {
	realMs: number;
	nudges: number;
	/** Seconds the clock moved on for a run alone and idle. */
	idleSteps: number;
	timedOut: boolean;
	/** What was still awaited when the step timed out. */
	waitingFor: string[];
	/** Real ms after the jump: the first API request, every due run listed, every run ended. */
	phases: { firstRequest?: number; allListed?: number; allEnded?: number };
}

/** A statistics request by hour: the Stats Trigger's poll (the sync reads by day). */
export const isTriggerPoll = (r: LoggedRequest) =>
	r.path.includes('/stats/') &&
	typeof r.body === 'object' &&
	r.body !== null &&
	(r.body as Record<string, unknown>).period_grouping_unit === 'hour';

/** Waits until the step has settled (see the file's note); returns how it went. */
export async function settle(
	executions: Executions,
	clock: SimClock,
	before: number,
	wait: StepWait,
): Promise<StepOutcome> {
	const began = Date.now();
	let nudges = 0;
	let idleSteps = 0;
	let lastNudge = 0;
	const phases: StepOutcome['phases'] = {};
	let still = stillnessOf.get(clock);
	if (!still) {
		still = new Stillness(clock.file);
		stillnessOf.set(clock, still);
	}
	for (;;) {
		still.sample();
		const runs = (await executions.refresh()).filter((e) => e.id > before);
		const elapsed = Date.now() - began;
		if (wait.requests.length > wait.requestsBefore) phases.firstRequest ??= elapsed;
		const unfinished = runs.filter((e) => !isFinished(e) && !executions.abandoned.has(e.id));
		const missing = wait.due.filter((id) => !runs.some((e) => e.workflowId === id));

		// After a dropped connection or a 5xx, a request may be waiting to be retried (up to 3.2 s
		// between attempts) with no request open: the step is quiet only once that has passed, or a
		// jump would carry the retry an hour on, past the run's deadline.
		const faulted = wait.requests
			.slice(wait.requestsBefore)
			.some((r) => r.fault !== undefined || r.status >= 500);
		const quiet = clock.idleFor(faulted ? 4_000 : 300);
		if (!missing.length) phases.allListed ??= elapsed;
		if (!missing.length && !unfinished.length) phases.allEnded ??= elapsed;
		else phases.allEnded = undefined;
		// One request after another, a credential that renews its token starts 9 of the 10 places of a
		// window: the 10th is held for the repeat n8n may send of the request under way.
		const paced = clock.pacedUntil(RATE_LIMIT.requests - 1, RATE_LIMIT.windowSeconds * 1000);
		// The trigger's poll runs in main and is an execution only once it emits. Until then it may
		// still wait out the pace with no request open: while a path is at its limit, the step
		// waits for the poll's run (or the window), or a jump would carry the poll past its deadline.
		const polled =
			runs.some((e) => e.workflowId === wait.triggerId) ||
			(Date.now() - began > 6_000 &&
				(paced === undefined ||
					wait.requests.slice(wait.requestsBefore).every((r) => !isTriggerPoll(r)))) ||
			Date.now() - began > RATE_LIMIT.windowSeconds * 1000 + 10_000;
		if (!missing.length && polled && !unfinished.length && quiet)
			return {
				realMs: Date.now() - began,
				nudges,
				idleSteps,
				timedOut: false,
				waitingFor: [],
				phases,
			};
		if (Date.now() - began > wait.timeoutMs) {
			return {
				realMs: Date.now() - began,
				nudges,
				idleSteps,
				timedOut: true,
				phases,
				waitingFor: [
					`pacing until ${paced === undefined ? 'none' : new Date(paced).toISOString()}, open ${clock.open}`,
					...missing.map((id) => `a run of ${id}`),
					...unfinished.map((e) => `execution ${e.id} (${e.status})`),
					...(polled ? [] : ['the trigger poll']),
					...(quiet ? [] : [`${clock.open} open sandbox requests`]),
				],
			};
		}
		// A run waiting out the rate limit (a path has had its 9 requests in the last 60 s, and no
		// request is open) waits on a timer: the clock moves to when that path's window frees.
		if (
			paced !== undefined &&
			// Only the paced run is left: a jump while another run works would fire the timers it
			// waits on (a database connection being opened gave up at once in such a trial). A due
			// run not listed yet is being started by main, which opens database connections too.
			unfinished.length === 1 &&
			!missing.length &&
			clock.idleFor(300) &&
			Date.now() - lastNudge > 250
		) {
			clock.jumpTo(paced + 1_000);
			wait.wake();
			nudges += 1;
			lastNudge = Date.now();
		} else if (
			// The pacer in n8n counts a request's repeat after a renewal when the request ends, a
			// little later than the API saw it, so its window can free later than the log says. The
			// Ads run, the only run without a database node, then still waits with no request open:
			// the clock moves on by a window, as time would pass.
			unfinished.length === 1 &&
			!missing.length &&
			unfinished[0].workflowId === wait.pacedFlowId &&
			clock.idleFor(1_500) &&
			Date.now() - lastNudge > 1_500
		) {
			clock.jumpTo(clock.now() + RATE_LIMIT.windowSeconds * 1000);
			wait.wake();
			nudges += 1;
			lastNudge = Date.now();
		} else if (
			// One run left, no path at its limit, no fault this hour, no request open or just ended, and
			// no process working: it waits on a timer of its own (a write guard's second), which the
			// clock brings forward.
			unfinished.length === 1 &&
			!missing.length &&
			paced === undefined &&
			!faulted &&
			unfinished[0].workflowId !== wait.pacedFlowId &&
			clock.idleFor(IDLE_AFTER_MS) &&
			Date.now() - lastNudge > IDLE_AFTER_MS &&
			// Every n8n process asleep: none used the CPU meanwhile, and a last look right before the
			// step finds none running.
			still.stillFor(IDLE_AFTER_MS) &&
			still.sample()
		) {
			clock.advance(IDLE_STEP_MS);
			wait.wake();
			idleSteps += 1;
			lastNudge = Date.now();
		}
		await sleep(100);
	}
}
