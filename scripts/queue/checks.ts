/**
 * The queue stage's checks, run once every process has stopped, over what was read from the running
 * instance: each trigger copy's rows against the sandbox's ground truth, the scheduled CSV runs, and
 * where each execution ran (worker records and each worker's own log).
 */
import { strict as assert } from 'node:assert';
import type { Sandbox } from '../../sandbox';
import type { Checks } from '../lib/checks';
import { assertCsvOfRows, numeric } from '../lib/csvRows';
import { readLog } from '../lib/logs';
import type { N8nServer, N8nWorker } from '../lib/session';
import { itemsOf } from '../lib/workflows';
import type { Execution } from '../lib/executions';
import {
	compareRows,
	describeComparison,
	expectedRows,
	firstPages,
	FIVE_MINUTES,
	type Poll,
	type Row,
} from '../lib/statsRows';
import { hostIdOf, nodeRuns, traceExecutions, traceProblems } from '../lib/workerLogs';
import { NAMES, SCHEDULED_UNIT } from '../lib/statsWorkflows';

/** What one trigger copy did: its polls (sandbox log), its state and its executions. */
export interface TriggerObserved {
	currency: string;
	polls: Poll[];
	watermark?: number;
	staticData?: unknown;
	runs: Execution[];
}

/** Everything read from the running instance, checked once every process has stopped. */
export interface Observed {
	triggers: TriggerObserved[];
	scheduledRuns: Execution[];
	/** CSV text of each run of workflow B, by execution id. */
	csv: Map<string, string>;
	csvErrors: Map<string, string>;
}

/** A UTC time of day, for the stage's progress lines. */
export function clock(ms: number): string {
	return new Date(ms).toISOString().slice(11, 19);
}

function emittingPolls(polls: Poll[], watermark: number): Array<{ poll: Poll; until: number }> {
	return polls
		.map((poll, i) => ({ poll, until: i + 1 < polls.length ? polls[i + 1].from : watermark }))
		.filter(({ poll, until }) => until > poll.from);
}

/** Returns how many rows were expected and received, and how many came twice. */
export async function checkTrigger(
	checks: Checks,
	sandbox: Sandbox,
	observed: TriggerObserved,
	startMs: number,
): Promise<{ expected: number; received: number; duplicates: number }> {
	const { polls, runs: triggerRuns, currency } = observed;
	const wm = observed.watermark;
	const none = { expected: 0, received: 0, duplicates: 0 };
	console.log(
		`  ${currency} trigger: ${polls.length} polls (${polls.map((p) => clock(p.at)).join(', ')})`,
	);
	await checks.check(
		`${currency}: the trigger polled at least 3 times (sandbox request log)`,
		() => {
			assert.ok(polls.length >= 3, `${polls.length} polls`);
		},
	);
	await checks.check(
		`${currency}: the trigger's watermark is the last 5-minute boundary before its last poll`,
		() => {
			assert.ok(
				wm !== undefined,
				`no watermark in static data: ${JSON.stringify(observed.staticData)}`,
			);
			const last = polls[polls.length - 1];
			const boundary = Math.floor(last.at / FIVE_MINUTES) * FIVE_MINUTES;
			assert.equal(
				new Date(wm).toISOString(),
				new Date(boundary).toISOString(),
				`last poll at ${new Date(last.at).toISOString()}`,
			);
			assert.ok(wm > startMs, 'the watermark did not move past the start date');
		},
	);
	if (wm === undefined || polls.length === 0) return none;
	const emitting = emittingPolls(polls, wm);
	await checks.check(`${currency}: a poll after the first emitted a newly completed period`, () => {
		assert.ok(
			emitting.some(({ poll }) => poll !== polls[0]),
			`emitting polls: ${emitting.map(({ poll }) => clock(poll.at)).join(', ')}`,
		);
	});
	await checks.check(
		`${currency}: one execution per poll that emitted, each holding exactly its window`,
		() => {
			assert.equal(triggerRuns.length, emitting.length, 'executions of the trigger workflow');
			triggerRuns.forEach((execution, i) => {
				const { poll, until } = emitting[i];
				const rows = itemsOf(execution.run, NAMES.received) ?? [];
				assert.ok(rows.length > 0, `execution ${execution.summary.id} has no rows`);
				const outside = rows.filter((item) => {
					const start = Date.parse(String(item.json.period_date));
					return !(start >= poll.from && start < until);
				});
				assert.equal(
					outside.length,
					0,
					`execution ${execution.summary.id}: ${outside.length} rows outside [${clock(poll.from)}, ${clock(until)})`,
				);
			});
		},
	);
	const received: Row[] = triggerRuns.flatMap((execution) =>
		(itemsOf(execution.run, NAMES.received) ?? []).map((item) => item.json),
	);
	const expected = expectedRows(sandbox, polls[0].body, startMs, wm).map(numeric);
	const comparison = compareRows(expected, received);
	console.log(
		`  ${currency}: rows expected ${comparison.expected} (${clock(startMs)}–${clock(wm)}), received on the workers ${comparison.received}, identical ${comparison.exact}, duplicates ${comparison.duplicates.length}, missing ${comparison.missing.length}, unexpected ${comparison.unexpected.length}, different ${comparison.different.length}`,
	);
	await checks.check(
		`${currency}: every completed row reached a worker exactly once, identical to the sandbox (0 duplicates)`,
		() => {
			assert.ok(comparison.expected > 0, 'the sandbox has no rows for the window');
			const ok =
				comparison.exact === comparison.expected &&
				comparison.received === comparison.expected &&
				comparison.duplicates.length === 0;
			assert.ok(ok, describeComparison(comparison));
		},
	);
	return {
		expected: comparison.expected,
		received: comparison.received,
		duplicates: comparison.duplicates.length,
	};
}

export async function checkScheduled(
	checks: Checks,
	sandbox: Sandbox,
	observed: Observed,
): Promise<void> {
	const { scheduledRuns, csv, csvErrors } = observed;
	const bodies = new Map<string, Row>();
	for (const page of firstPages(sandbox.requests, SCHEDULED_UNIT)) {
		bodies.set(JSON.stringify(page.body), page.body);
	}
	// Yesterday's hours are complete: their rows no longer change while the sandbox clock runs.
	const truths = [...bodies.values()].map((body) => sandbox.data.statsRows(body).map(numeric));
	console.log(
		`  ${scheduledRuns.length} scheduled execution(s); ${truths.map((t) => t.length).join('/')} rows in the sandbox for its query`,
	);
	await checks.check('workflow B ran at least once', () => {
		assert.ok(scheduledRuns.length >= 1, 'no execution of the Schedule Trigger workflow');
		assert.ok(truths.length >= 1, 'the Stats node sent no statistics query');
	});
	await checks.check(
		"each run's Stats rows and CSV lines are the sandbox's rows for its query",
		() => {
			const problems: string[] = [];
			for (const execution of scheduledRuns) {
				const id = execution.summary.id;
				const rows = (itemsOf(execution.run, NAMES.stats) ?? []).map((item) => item.json);
				const truth = truths.find(
					(t) => compareRows(t, rows).exact === t.length && t.length === rows.length,
				);
				if (!truth) {
					problems.push(
						`execution ${id}: ${describeComparison(compareRows(truths[0] ?? [], rows))}`,
					);
					continue;
				}
				const text = csv.get(id);
				if (text === undefined) {
					problems.push(`execution ${id}: CSV not read (${csvErrors.get(id) ?? 'unknown'})`);
					continue;
				}
				try {
					assertCsvOfRows(text, truth);
				} catch (error) {
					problems.push(`execution ${id}: ${(error as Error).message}`);
				}
			}
			assert.deepEqual(problems.slice(0, 10), []);
		},
	);
}

/** Returns how many executions each worker ran (by its own log). */
export async function checkWhereTheyRan(
	checks: Checks,
	observed: Observed,
	server: N8nServer,
	workers: N8nWorker[],
	workflowIds: Set<string>,
): Promise<number[]> {
	const mainLog = readLog(server.log.logFile);
	const workerLogs = workers.map((worker) => readLog(worker.log.logFile));
	const workerHosts = workerLogs.map(hostIdOf);
	const mainHost = hostIdOf(mainLog);
	const executions = [...observed.triggers.flatMap((t) => t.runs), ...observed.scheduledRuns];
	await checks.check('every execution ended with status success (execution records)', () => {
		const bad = executions.filter(
			(e) => e.summary.status !== 'success' || !e.finished || e.summary.mode !== 'trigger',
		);
		assert.deepEqual(
			bad.map(
				(e) =>
					`${e.summary.id}: ${e.summary.status}, mode ${e.summary.mode}, finished ${e.finished}`,
			),
			[],
		);
	});
	const traces = traceExecutions(mainLog, workerLogs);
	const perWorker = workers.map(() => 0);
	for (const execution of executions) {
		const trace = traces.get(execution.summary.id);
		if (trace?.startedOn.length === 1) perWorker[trace.startedOn[0]]++;
	}
	const workerHost = workerHosts[0];
	await checks.check(
		`every execution was enqueued by main and run by exactly one of the ${workers.length} workers (main's log and each worker's own log)`,
		() => {
			assert.ok(workerHost, 'the worker logged no host ID');
			assert.ok(
				workerHosts.every((host) => host === workerHost),
				`host IDs ${workerHosts.join(', ')}`,
			);
			assert.notEqual(workerHost, mainHost, 'main and worker have the same host ID');
			const problems = executions.map((e) =>
				traceProblems(e.summary.id, traces.get(e.summary.id), workerHost ?? ''),
			);
			assert.deepEqual(problems.flat().slice(0, 10), []);
		},
	);
	await checks.check(`each of the ${workers.length} workers ran executions`, () => {
		assert.ok(
			perWorker.every((count) => count > 0),
			`executions per worker: ${perWorker.join(', ')}`,
		);
	});
	await checks.check('main ran no node of these workflows itself; the workers ran them', () => {
		const inMain = nodeRuns(mainLog, workflowIds);
		assert.deepEqual(
			inMain.slice(0, 5).map((e) => e.raw.slice(0, 200)),
			[],
			'node runs in main',
		);
		const inWorkers = workerLogs.flatMap((log) => nodeRuns(log, workflowIds));
		assert.ok(
			inWorkers.length >= executions.length,
			`${inWorkers.length} node runs in the workers' logs`,
		);
		assert.ok(
			!mainLog.some((e) => e.message.startsWith('Worker started execution')),
			'main logged a worker line',
		);
	});
	return perWorker;
}
