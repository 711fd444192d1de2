/**
 * The month's faults aimed at writes, placed by the share of the month like the others, each at an
 * hour the stage adds two creatives at (so the creatives run has two creates to make):
 *
 *  createAnswerLost             a create is carried out (the ad is made) and its answer lost;
 *  create5xx                    a create answered 503 before anything is made;
 *  creativesWorkerKilled        the worker running the creatives run killed (SIGKILL) between two
 *                               creates: the first made and answered, the second not yet sent;
 *                               the crashed execution is then retried, as after any crash;
 *  createAnswerLostWorkerKilled a create's answer lost and the worker running it killed right after;
 *  createAnswerLostAgain        a create's answer lost once more;
 *  putAnswerLost                the CPM rule's next PUT carried out and its answer lost (armed from
 *                               its hour until the rule next changes a CPM).
 *
 * No write fault lands on an hour of the Ads run (every 6 hours) or the hour before it: the hour
 * after a failed create reads the ad list again, which the Ads run fills alone.
 */
import type { LoggedRequest } from '../../sandbox';
import { readLog } from '../lib/logs';
import type { Executions } from './executions';
import { HOUR, type FaultKind, type FaultRecord, type PlannedFault } from './faults';
import { startWorker, type Month } from './setup';
import { ADS_EVERY_HOURS, MINUTE } from './workflows';

type WriteFaultKind = Extract<
	FaultKind,
	| 'createAnswerLost'
	| 'create5xx'
	| 'creativesWorkerKilled'
	| 'createAnswerLostWorkerKilled'
	| 'createAnswerLostAgain'
	| 'putAnswerLost'
>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const isCreate = (path: string, method: string) =>
	method === 'POST' && /^\/api\/advertisement\/[a-z]+\/?$/.test(path);
export const isPut = (path: string, method: string) =>
	method === 'PUT' && /^\/api\/advertisement\/[a-z]+\/\d+\/?$/.test(path);
export const isCreateRequest = (r: LoggedRequest) => isCreate(r.path, r.method);
export const isPutRequest = (r: LoggedRequest) => isPut(r.path, r.method);

const SHARES: Array<[WriteFaultKind, number, PlannedFault['when']]> = [
	['createAnswerLost', 3.3, 'before'],
	['create5xx', 4.4, 'before'],
	['creativesWorkerKilled', 7.3, 'during'],
	['createAnswerLostWorkerKilled', 9.5, 'during'],
	['createAnswerLostAgain', 13.3, 'before'],
	['putAnswerLost', 14.4, 'before'],
];

/** The write faults of a month of `days` days, clear of the hours in `taken`. */
export function planWriteFaults(days: number, taken: number[]): PlannedFault[] {
	const hours = days * 24;
	const used = new Set(taken);
	return SHARES.map(([kind, share, when]) => {
		let hour = Math.max(1, Math.round((share * hours) / 31));
		while (
			hour % ADS_EVERY_HOURS === 0 ||
			hour % ADS_EVERY_HOURS === ADS_EVERY_HOURS - 1 ||
			used.has(hour) ||
			used.has(hour + 1)
		)
			hour += 1;
		used.add(hour);
		return { kind, hour: Math.min(hour, hours - 2), when, forcesSignIn: false, lasts: 0 };
	});
}

/** The worker that logged starting this execution, killed; a new worker started in its place. */
async function killWorkerOf(
	m: Month,
	executions: Executions,
	executionId: number,
): Promise<string> {
	const line = new RegExp(`^Worker started execution ${executionId} `);
	const victim = m.workers.findIndex(({ worker }) =>
		readLog(worker.log.logFile).some((e) => line.test(e.message)),
	);
	if (victim < 0) return `no worker logged starting execution ${executionId}; none killed`;
	const { label, worker } = m.workers[victim];
	const pid = worker.spawned.child.pid ?? 0;
	executions.abandoned.add(executionId);
	process.kill(-pid, 'SIGKILL');
	m.workers.splice(victim, 1);
	const replacement = await startWorker(m);
	m.workers.push({ label: `${label}-replacement`, worker: replacement });
	return `${label} (pid ${pid}) killed while it ran execution ${executionId}; a new worker started`;
}

/** Waits for `seen` among this hour's requests, then kills the worker of the creatives run. */
async function killCreativesWorker(
	m: Month,
	executions: Executions,
	before: number,
	requestsBefore: number,
	seen: (r: LoggedRequest) => boolean,
	what: string,
): Promise<string> {
	const deadline = Date.now() + 90_000;
	for (;;) {
		const hit = m.sandbox.requests.slice(requestsBefore).some(seen);
		if (hit) {
			await executions.refresh();
			const run = executions
				.since(before)
				.find((e) => e.workflowId === m.flows.creatives.id && e.mode !== 'retry');
			if (run) return `${what}: ${await killWorkerOf(m, executions, run.id)}`;
		}
		if (Date.now() > deadline) return `${what} never happened; no worker killed`;
		await sleep(hit ? 50 : 10);
	}
}

/** Switches a write fault on (before the hour's jump) or lands it (during the hour). */
export async function injectWriteFault(
	m: Month,
	kind: WriteFaultKind,
	executions: Executions,
	before: number,
	requestsBefore: number,
): Promise<string> {
	const faults = m.sandbox.faults;
	switch (kind) {
		case 'createAnswerLost':
		case 'createAnswerLostAgain':
			faults.loseAnswers(isCreate);
			return "the hour's first create carried out (the ad made) and its answer lost";
		case 'create5xx': {
			let left = 1;
			faults.set({
				rate: 1,
				kinds: ['503'],
				match: (path, method) => isCreate(path, method) && left-- > 0,
			});
			return "the hour's first create answered 503 before anything was made";
		}
		case 'creativesWorkerKilled':
			return await killCreativesWorker(
				m,
				executions,
				before,
				requestsBefore,
				(r) => isCreateRequest(r) && r.status === 201 && r.fault === undefined,
				'between two creates (the first made and answered)',
			);
		case 'createAnswerLostWorkerKilled':
			return await killCreativesWorker(
				m,
				executions,
				before,
				requestsBefore,
				(r) => isCreateRequest(r) && r.fault === 'lost',
				"right after a create's answer was lost",
			);
		case 'putAnswerLost':
			faults.loseAnswers(isPut);
			return "the CPM rule's next PUT carried out and its answer lost";
	}
}

/** What must be switched on before the jump of an hour whose fault lands during it. */
export function prepareWriteFault(m: Month, kind: WriteFaultKind): void {
	if (kind === 'createAnswerLostWorkerKilled') m.sandbox.faults.loseAnswers(isCreate);
}

/** After an hour: a fault that switched on a one-off 5xx is switched off. */
export function clearWriteFault(m: Month, kind: WriteFaultKind): void {
	if (kind === 'create5xx') m.sandbox.faults.clear();
}

/**
 * The PUT whose answer is to be lost waits for the rule's next change, which may come hours after
 * its fault's hour: when it comes, the fault's record moves to that hour, so the run it ends is
 * put down to it. Returns true once the fault has landed.
 */
export function notePutLost(
	m: Month,
	record: FaultRecord | undefined,
	hourStart: number,
	requestsBefore: number,
): boolean {
	if (!record) return false;
	const lost = m.sandbox.requests
		.slice(requestsBefore)
		.find((r) => isPutRequest(r) && r.fault === 'lost');
	if (!lost) return false;
	record.fromMs = hourStart;
	record.toMs = hourStart + HOUR;
	record.at = new Date(hourStart + MINUTE * 60_000).toISOString();
	record.detail = `${record.detail}: PUT ${lost.path} (cpm ${String((lost.body as { cpm?: unknown }).cpm)}) at this hour`;
	return true;
}

export const WRITE_FAULT_KINDS = new Set<string>(SHARES.map(([kind]) => kind));
