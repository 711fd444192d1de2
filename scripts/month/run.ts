/**
 * `npm run test:month`: 31 simulated days of a production setup, with faults, measured.
 *
 * n8n 2.41.1 in queue mode (main, 2 workers, PostgreSQL 17, Redis), the sandbox in its telegram
 * form, one Username-and-Password credential and four workflows active the whole month
 * (scripts/month/workflows.ts). One simulated clock (scripts/month/clock.ts) jumps to minute 5 of
 * each hour in turn, where every workflow is due; each hour settles (its runs ended, the trigger
 * polled, no request open) before the next jump, so no HTTP, lock or pool timeout sees a jump. The
 * faults of scripts/month/faults.ts land at their hours. At the end it prints
 * `month report: {json}` and writes it to a file; a full month also writes docs/evidence/month.json
 * and renders docs/measured.md.
 *
 * Flags: --days N (1-31; default 31; a shorter month keeps every fault, the refresh token then
 * living N-1 days), --report=<file> (default <tmp>/ad-cabinet-month-report.json), --keep,
 * --verbose (a line per simulated hour), --budget-minutes=M (stop the month after M real minutes
 * and report the hours reached), --heap-snapshots=<dir> (a heap snapshot of each n8n process at the
 * end of the days --snapshot-days=<d,d> gives, by default day 4 and the third-last day).
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Checks } from '../lib/checks';
import { repoPackageJson } from '../lib/installPackage';
import { tail } from '../lib/processes';
import { finishStage, runStage, seconds, setUpStage } from '../lib/stage';
import { Executions, settle } from './executions';
import { DAY, HOUR, planFaults, takenHours, type FaultRecord } from './faults';
import { injectFault, prepareFault, Recorder } from './inject';
import { retryCrashed } from './recovery';
import { buildReport, type MonthReport } from './summary';
import { setUpMonth, wake, type Month } from './setup';
import { ADS_EVERY_HOURS, BALANCE_HOUR, MINUTE } from './workflows';
import { creativesPlan } from './writeFlows';
import { isPut, notePutLost, planWriteFaults, WRITE_FAULT_KINDS } from './writeFaults';
import { WriteWatch } from './writeReport';
import { BalanceWatch } from './balanceCheck';
import { planOverlaps } from './overlaps';
import { writeEvidence } from '../lib/evidence';
import { monthEvidence } from './evidence';

const args = process.argv.slice(2);
const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const daysArg = flag('days') ?? (args.includes('--days') ? args[args.indexOf('--days') + 1] : '31');
const DAYS = Number(daysArg);
const REPORT_FILE = flag('report') ?? join(tmpdir(), 'ad-cabinet-month-report.json');
const STEP_TIMEOUT_MS = 120_000;
/** Stop stepping after this many real minutes (0: never), and report the hours reached. */
const BUDGET_MS = Number(flag('budget-minutes') ?? 0) * 60_000;
const SNAPSHOT_DIR = flag('heap-snapshots');
const SNAPSHOTS = SNAPSHOT_DIR
	? { dir: SNAPSHOT_DIR, days: (flag('snapshot-days') ?? `4,${DAYS - 3}`).split(',').map(Number) }
	: undefined;

async function main(): Promise<number> {
	const started = Date.now();
	const checks = new Checks();
	if (!Number.isInteger(DAYS) || DAYS < 2 || DAYS > 31)
		throw new Error(`--days must be a whole number from 2 to 31, got ${daysArg}`);
	repoPackageJson();
	console.log(
		`\n▶ n8n in queue mode, PostgreSQL 17, Redis and the sandbox, for ${DAYS} simulated days`,
	);
	const setUp = setUpStage('month', started);
	if (!setUp) return 1;
	// The month starts at the next UTC midnight but one, so the clock only ever moves forward.
	const startMs = (Math.floor(Date.now() / DAY) + 2) * DAY;
	const refreshDays = DAYS >= 31 ? 30 : DAYS - 1;
	const running: Array<{ stop(): Promise<unknown> }> = [];
	let month: Month | undefined;
	let report: MonthReport | undefined;
	try {
		const readFaults = planFaults(DAYS, refreshDays);
		const plan = [...readFaults, ...planWriteFaults(DAYS, takenHours(readFaults))];
		// The faults on creates need creates to hit: their hours get two creatives each.
		const rowsByHour = creativesPlan(
			DAYS,
			plan
				.filter((f) => WRITE_FAULT_KINDS.has(f.kind) && f.kind !== 'putAnswerLost')
				.map((f) => f.hour),
		);
		const overlapHours = planOverlaps([...rowsByHour.keys()], plan);
		month = await setUpMonth(setUp, startMs, refreshDays, running, overlapHours);
		const m = month;
		console.log(
			`  simulated month ${new Date(startMs).toISOString()} + ${DAYS} days; clock file ${m.clock.file} (offset +${m.clock.offsetMs / 1000} s)`,
		);
		console.log(
			`  the creatives run twice at once at ${overlapHours.map((h) => new Date(startMs + h * HOUR).toISOString().slice(0, 13)).join(', ')}h`,
		);
		console.log(
			`  n8n ${m.server.url}, workers ${m.workers.map((w) => w.worker.url).join(', ')}, sandbox ${m.sandbox.baseUrl}`,
		);
		const executions = new Executions(m.n8nDb);
		const watch = new WriteWatch(m);
		const balances = new BalanceWatch(m.sandbox);
		let putLost = false;
		const recorder = new Recorder(m, executions, SNAPSHOTS);
		const faults: FaultRecord[] = [];
		const steps = { count: 0, timedOut: [] as string[], nudges: 0, idleSteps: 0, realMs: 0 };

		console.log(`\n▶ ${DAYS * 24} hourly steps`);
		let hours = 0;
		for (let hour = 0; hour < DAYS * 24; hour++) {
			if (BUDGET_MS && Date.now() - started > BUDGET_MS) {
				console.log(
					`  the real-time budget of ${seconds(BUDGET_MS)} ran out after ${hour} simulated hours`,
				);
				break;
			}
			hours = hour + 1;
			const hourStart = startMs + hour * HOUR;
			const due = [m.flows.sync.id, m.flows.creatives.id, m.flows.cpm.id];
			if (hour % 24 === BALANCE_HOUR) due.push(m.flows.balance.id);
			if (hour % ADS_EVERY_HOURS === 0) due.push(m.flows.ads.id);
			const todo = plan.filter((f) => f.hour === hour);
			for (const fault of todo.filter((f) => f.when === 'before'))
				faults.push(await injectFault(m, fault, hourStart, executions));
			for (const fault of todo.filter((f) => f.when === 'during')) prepareFault(m, fault);
			await watch.addRows(rowsByHour.get(hour) ?? [], hourStart);
			// The lost PUT waits for the rule's next change; a fault that cleared the sandbox's faults
			// since has cleared it too.
			const putFault = faults.find((f) => f.kind === 'putAnswerLost');
			if (putFault && !putLost && m.sandbox.faults.answersToLose === 0)
				m.sandbox.faults.loseAnswers(isPut);
			await executions.refresh();
			const before = executions.lastId;
			const requestsBefore = m.sandbox.requests.length;
			watch.noteHour(hourStart, requestsBefore);
			m.clock.jumpTo(hourStart + MINUTE * 60_000 + 1_000);
			wake(m);
			const during = todo
				.filter((f) => f.when === 'during')
				.map(async (f) => await injectFault(m, f, hourStart, executions, before, requestsBefore));
			const outcome = await settle(executions, m.clock, before, {
				due,
				triggerId: m.flows.trigger.id,
				requestsBefore,
				requests: m.sandbox.requests,
				timeoutMs: STEP_TIMEOUT_MS,
				wake: () => wake(m),
				pacedFlowId: m.flows.ads.id,
			});
			faults.push(...(await Promise.all(during)));
			const label0 = new Date(hourStart).toISOString().slice(0, 13);
			watch.checkCpm(label0);
			if (!putLost)
				putLost = notePutLost(
					m,
					faults.find((f) => f.kind === 'putAnswerLost'),
					hourStart,
					requestsBefore,
				);
			steps.count += 1;
			steps.nudges += outcome.nudges;
			steps.idleSteps += outcome.idleSteps;
			steps.realMs += outcome.realMs;
			const label = new Date(hourStart).toISOString().slice(0, 13);
			if (args.includes('--verbose'))
				console.log(
					`  ${label}h settled in ${seconds(outcome.realMs)} (first request ${outcome.phases.firstRequest ?? '-'} ms, runs listed ${outcome.phases.allListed ?? '-'} ms, ended ${outcome.phases.allEnded ?? '-'} ms), ${outcome.nudges} pacing jumps, ${outcome.idleSteps} idle seconds, executions ${executions
						.since(before)
						.map((e) => `#${e.id} ${e.status}`)
						.join(' ')}`,
				);
			if (args.includes('--verbose') && outcome.realMs > 15_000)
				console.log(
					m.sandbox.requests
						.slice(requestsBefore)
						.slice(-20)
						.map((r) => `    ${r.method} ${r.path} ${r.status}${r.fault ? ` ${r.fault}` : ''}`)
						.join('\n'),
				);
			if (outcome.timedOut) {
				steps.timedOut.push(`${label}: ${outcome.waitingFor.join(', ')}`);
				console.log(
					`  ${label}h did not settle within ${seconds(STEP_TIMEOUT_MS)}: waiting for ${outcome.waitingFor.join(', ')}`,
				);
			}
			for (const fault of todo.filter((f) => f.when === 'after'))
				faults.push(await injectFault(m, fault, hourStart, executions));
			// A fault over: its sandbox switches off, and the executions it crashed are retried.
			for (const fault of plan.filter((f) => f.hour + f.lasts === hour)) {
				recorder.afterFault(fault.kind);
				const record = faults.find((f) => f.kind === fault.kind);
				if (!record) continue;
				record.recovery = await retryCrashed(m, record, executions, m.clock);
				for (const line of record.recovery) console.log(`  after ${fault.kind}: ${line}`);
			}
			if (hour % 24 === 23) {
				const day = Math.floor(hour / 24) + 1;
				await recorder.endOfDay(day);
				const e = [...executions.all.values()];
				console.log(
					`  day ${day} done (${seconds(Date.now() - started)} real): ${e.length} executions, ${e.filter((x) => x.status !== 'success' && x.status !== 'running' && x.status !== 'new').length} failed; ${m.sandbox.requests.length} API requests; ${recorder.memoryLine()}`,
				);
			}
		}
		report = await buildReport({
			month: m,
			days: DAYS,
			hours,
			startMs,
			started,
			executions,
			faults,
			recorder,
			watch,
			balances,
			steps,
		});
	} catch (error) {
		checks.fail('month stage', (error as Error).stack ?? String(error));
		for (const p of month ? [month.server, ...month.workers.map((w) => w.worker)] : []) {
			console.log(`--- ${p.log.logFile}\n${tail(p.log.logFile, 20)}`);
		}
	} finally {
		for (const p of running.reverse()) await p.stop().catch(() => undefined);
		await month?.server.stop().catch(() => undefined);
		for (const w of month?.workers ?? []) await w.worker.stop().catch(() => undefined);
		await month?.n8nDb.end();
		await month?.monthDb.end();
	}
	if (report) {
		const line = JSON.stringify(report);
		writeFileSync(REPORT_FILE, `${JSON.stringify(report, null, 2)}\n`);
		console.log(`\nmonth report: ${line}`);
		console.log(`(also written to ${REPORT_FILE})`);
		// A shortened month or one cut by its budget is a try, not the evidence of a month.
		if (DAYS === 31 && report.simulatedDays >= 31)
			writeEvidence(monthEvidence(report, setUp.runtime.version));
		console.log('');
		for (const goal of report.goals)
			await checks.check(`${goal.goal}: ${goal.value}`, () => {
				if (!goal.met) throw new Error(goal.why);
			});
	}
	return finishStage({
		stage: 'month',
		started,
		checks,
		ranIn: `n8n ${setUp.runtime.version} queue mode over ${DAYS} simulated days`,
		work: setUp.work,
		holds: "n8n's user folder, the PostgreSQL and Redis folders, the clock file and logs",
		keep: args.includes('--keep'),
	});
}

runStage(main);
