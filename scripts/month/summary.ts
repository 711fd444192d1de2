/**
 * The month report: every figure the issue asks for, the goals with whether each was met, and for
 * a missed one what the figures show about why.
 */
import { readLog } from '../lib/logs';
import type { Executions, ExecutionRow } from './executions';
import { DAY, HOUR, type FaultRecord } from './faults';
import type { Recorder } from './inject';
import {
	apiFigures,
	compareStore,
	heldByAdDay,
	heldByCampaignHour,
	hourMsOf,
	memoryFigures,
	memoryGoals,
	triggerFigures,
	truthByAdDay,
	truthByCampaignHour,
} from './report';
import type { Month } from './setup';
import { SYNC_DAYS, SYNC_TABLE } from './workflows';
import { writeReport, type WriteWatch } from './writeReport';
import { balanceFigures, thresholdsOf, type BalanceWatch } from './balanceCheck';

interface Goal {
	goal: string;
	met: boolean;
	value: string;
	why: string;
}

export type MonthReport = Awaited<ReturnType<typeof buildReport>>;

const failed = (e: ExecutionRow) => e.status !== 'success';
/**
 * Sign-in moments a month may take beyond those its faults force: the first sign-in; the hourly
 * runs at which a refused password is tried again before it is fixed (two: it stays wrong 3 hours
 * and the fault's own moment is forced); and one to spare, for a renewal that main and a worker
 * meet a minute apart.
 */
const SIGN_IN_MOMENTS = 4;

export async function buildReport(input: {
	month: Month;
	/** Hourly steps run: every hour of the month, or fewer when the real-time budget ran out. */
	hours: number;
	days: number;
	startMs: number;
	started: number;
	executions: Executions;
	faults: FaultRecord[];
	recorder: Recorder;
	watch: WriteWatch;
	balances: BalanceWatch;
	steps: {
		count: number;
		timedOut: string[];
		nudges: number;
		/** Seconds the clock moved on while a run alone waited on a timer of its own. */
		idleSteps: number;
		realMs: number;
	};
}) {
	const { month: m, hours, startMs, executions, faults, recorder } = input;
	const endMs = startMs + Math.ceil(hours / 24) * DAY;
	// The last hour's runs have ended; the last completed hour the trigger could emit is the one before.
	const lastPollHour = startMs + (hours - 1) * HOUR;
	await executions.refresh();
	const all = [...executions.all.values()].filter((e) => e.mode !== 'manual');
	const failures = all.filter(failed);
	const byFault: Record<string, number> = {};
	const outside: ExecutionRow[] = [];
	for (const e of failures) {
		const fault = faults.find((f) => e.createdAt >= f.fromMs && e.createdAt < f.toMs);
		if (fault) byFault[fault.kind] = (byFault[fault.kind] ?? 0) + 1;
		else outside.push(e);
	}
	const nameOf = (workflowId: string) =>
		Object.entries(m.flows).find(([, f]) => f.id === workflowId)?.[0] ?? workflowId;
	const faultList = faults.map((f) => {
		const hit = failures.filter((e) => e.createdAt >= f.fromMs && e.createdAt < f.toMs);
		// A workflow with no run after the fault within the month (the daily one) is not judged.
		const recovered = [...new Set(hit.map((e) => e.workflowId))].every((id) => {
			const next = all
				.filter((e) => e.workflowId === id && e.createdAt >= f.toMs)
				.sort((a, b) => a.id - b.id)[0];
			return next === undefined || next.status === 'success';
		});
		return {
			kind: f.kind,
			at: f.at,
			forcesSignIn: f.forcesSignIn,
			failedRuns: hit.map((e) => `${nameOf(e.workflowId)} #${e.id} ${e.status}`),
			nextRunRecovered: recovered,
			detail: f.detail,
			recovery: f.recovery,
		};
	});

	const synced = await m.monthDb.query(`SELECT * FROM ${SYNC_TABLE}`);
	const tables = await m.n8nDb.query<{ schema: string; name: string }>(
		'SELECT table_schema AS schema, table_name AS name FROM information_schema.tables WHERE lower(table_name) = lower($1)',
		[`data_table_user_${m.dataTable}`],
	);
	const dataRows = tables[0]
		? await m.n8nDb.query(`SELECT * FROM "${tables[0].schema}"."${tables[0].name}"`)
		: [];
	// The first sync run's window reaches SYNC_DAYS - 1 days before the month's first day.
	const postgres = compareStore(
		truthByAdDay(m.sandbox, startMs - (SYNC_DAYS - 1) * DAY, endMs - 1),
		heldByAdDay(synced),
	);
	const hoursTruth = truthByCampaignHour(m.sandbox, startMs, lastPollHour);
	// A poll emits the hour before it: a fault that ends the poll's execution loses that hour.
	const lostToFault = (identity: string) =>
		faults.some((f) => hourMsOf(identity) >= f.fromMs - HOUR && hourMsOf(identity) < f.toMs - HOUR);
	const dataTable = compareStore(hoursTruth, heldByCampaignHour(dataRows), lostToFault);
	const trigger = triggerFigures(hoursTruth, m.sink.of('trigger'), lostToFault);
	const api = apiFigures(m.sandbox, m.clock.signIns, m.clock.answers429);
	const memory = memoryFigures(recorder.memory);
	const triggerStateBytes = await recorder.stateBytes();
	const forced = faults.filter((f) => f.forcesSignIn).length;
	const runsOf = (flow: keyof Month['flows']) =>
		all.filter((e) => e.workflowId === m.flows[flow].id);
	const written = await writeReport(
		m,
		input.watch,
		startMs,
		hours,
		runsOf('creatives'),
		runsOf('cpm').filter((e) => e.status === 'crashed'),
	);
	const balance = balanceFigures(
		runsOf('balance'),
		input.balances.snapshots,
		m.sink.of('alerts').map((r) => ({ at: r.at, cabinetId: String(r.body.cabinet_id) })),
		thresholdsOf(m.flows.balance),
	);

	const goals: Goal[] = [
		{
			goal: 'failedOutsideFaults is 0',
			met: outside.length === 0,
			value: String(outside.length),
			why: outside
				.slice(0, 5)
				.map(
					(e) =>
						`${nameOf(e.workflowId)} #${e.id} ${e.status} at ${new Date(e.createdAt).toISOString()}`,
				)
				.join('; '),
		},
		{
			goal: 'every run a fault ends is followed by a run that succeeds',
			met: faultList.every((f) => f.nextRunRecovered),
			value:
				faultList
					.filter((f) => !f.nextRunRecovered)
					.map((f) => f.kind)
					.join(', ') || 'all',
			why: 'the first run after the fault did not succeed',
		},
		{
			goal: '0 answers of 429',
			met: api.answers429 === 0,
			value: String(api.answers429),
			why: `429 answers at ${api.answers429At.join(', ')}`,
		},
		{
			goal: 'PostgreSQL table equals the API (0 mismatches, 0 duplicates, 0 missing)',
			met: postgres.mismatches + postgres.duplicates + postgres.missing === 0,
			value: `${postgres.rows} rows, ${postgres.mismatches} mismatches, ${postgres.duplicates} duplicates, ${postgres.missing} missing`,
			why: `rows differ: ${postgres.examples.join(', ')}`,
		},
		{
			goal: 'data table equals the API (0 mismatches, 0 duplicates, 0 missing)',
			met: dataTable.mismatches + dataTable.duplicates + dataTable.missing === 0,
			value: `${dataTable.rows} rows, ${dataTable.mismatches} mismatches, ${dataTable.duplicates} duplicates, ${dataTable.missing} missing (${dataTable.missingInFaults} of them hours a fault lost)`,
			why: `rows differ: ${dataTable.examples.join(', ')}`,
		},
		{
			goal: 'trigger: 0 missing, 0 emitted twice beyond restatements',
			met: trigger.missing === 0 && trigger.duplicates === 0,
			value: `${trigger.missing} missing (${trigger.missingInFaults} of them hours a fault lost), ${trigger.duplicates} duplicates`,
			why: `missing: ${trigger.missingExamples.join(', ')}`,
		},
		...memoryGoals(memory),
		{
			goal: `sign-in moments at most ${SIGN_IN_MOMENTS} + ${forced} (faults that force one), sign-in requests at most twice that`,
			met:
				api.signInMoments <= SIGN_IN_MOMENTS + forced &&
				api.signIns <= 2 * (SIGN_IN_MOMENTS + forced),
			value: `${api.signInMoments} moments, ${api.signIns} requests`,
			why: `${api.signIns} sign-in requests at ${api.signInMoments} moments, ${api.refusedSignIns} refused: ${api.signInsAt.join(', ')}`,
		},
		...written.goals,
		{
			goal: "alerts.balance: each run alerted exactly the cabinets below the threshold in the API's balances at that run",
			met: balance.missing === 0 && balance.extra === 0,
			value: `${balance.delivered} of ${balance.expected} expected in ${balance.runs} runs, ${balance.missing} missing, ${balance.extra} extra`,
			why: balance.examples.join('; '),
		},
		{
			goal: 'realSeconds at most 3,600 (a full month)',
			met: input.days < 31 || Date.now() - input.started <= 3_600_000,
			value: String(Math.round((Date.now() - input.started) / 1000)),
			why: 'the month took longer than an hour of real time',
		},
	];
	return {
		simulatedDays: Number((hours / 24).toFixed(2)),
		plannedDays: input.days,
		realSeconds: Math.round((Date.now() - input.started) / 1000),
		clock: {
			mechanism:
				'libfaketime (LD_PRELOAD, FAKETIME_TIMESTAMP_FILE "+N", FAKETIME_NO_CACHE=1) for n8n main and workers; the sandbox in the stage process moved by the same offset',
			start: new Date(startMs).toISOString(),
			steps: input.steps.count,
			nudges: input.steps.nudges,
			idleSeconds: input.steps.idleSteps,
			jumps: m.clock.jumps,
			stepsTimedOut: input.steps.timedOut,
			settleRealSeconds: Math.round(input.steps.realMs / 1000),
		},
		faults: faultList,
		executions: {
			// What main's log says of the executions it queued: a check on the count above that
			// n8n's pruning (executions older than 14 days) cannot touch.
			fromMainLog: queuedInLog(m.server.log.logFile),
			total: all.length,
			failed: failures.length,
			failedOutsideFaults: outside.length,
			failedByFault: byFault,
			byWorkflow: Object.fromEntries(
				Object.entries(m.flows).map(([name, f]) => {
					const runs = all.filter((e) => e.workflowId === f.id);
					return [name, { runs: runs.length, failed: runs.filter(failed).length }];
				}),
			),
		},
		api,
		stores: { postgres, dataTable },
		trigger,
		sink: {
			alerts: m.sink.of('alerts').length,
			adsCounts: [...new Set(m.sink.of('ads').map((r) => JSON.stringify(r.body)))],
		},
		writes: written.writes,
		alerts: { ...written.alerts, balance },
		memory,
		memoryReadings: recorder.memory,
		triggerStateBytes,
		triggerStateBytesByDay: recorder.triggerStateBytes,
		days: monthDays(all, faults, recorder, startMs),
		goals,
	};
}

/** The month's days for its pictures: runs and failures, API traffic, and the faults' days. */
function monthDays(
	all: ExecutionRow[],
	faults: FaultRecord[],
	recorder: Recorder,
	startMs: number,
) {
	const dayOf = (ms: number) => Math.floor((ms - startMs) / DAY) + 1;
	const executions = new Map<number, { day: number; runs: number; failed: number }>();
	for (const day of recorder.traffic.map((t) => t.day))
		executions.set(day, { day, runs: 0, failed: 0 });
	for (const e of all) {
		const day = dayOf(e.createdAt);
		const entry = executions.get(day) ?? { day, runs: 0, failed: 0 };
		entry.runs += 1;
		if (failed(e)) entry.failed += 1;
		executions.set(day, entry);
	}
	return {
		executions: [...executions.values()].sort((a, b) => a.day - b.day),
		traffic: recorder.traffic,
		faults: faults.map((f) => ({ day: dayOf(f.fromMs), kind: f.kind })),
	};
}

function queuedInLog(logFile: string) {
	const finished = new Map<string, boolean>();
	let enqueued = 0;
	for (const entry of readLog(logFile)) {
		if (/^Enqueued execution \d+/.test(entry.message)) enqueued += 1;
		const done = /^Execution (\d+) \(job [^)]+\) finished/.exec(entry.message);
		if (done) finished.set(done[1], entry.metadata?.success === true);
	}
	const outcomes = [...finished.values()];
	return {
		enqueued,
		finished: outcomes.length,
		succeeded: outcomes.filter(Boolean).length,
		failed: outcomes.filter((ok) => !ok).length,
	};
}
