/**
 * Where executions ran, from n8n's own logs (JSON, debug level). In n8n 2.41 the main process logs
 * "Enqueued execution <id> (job <job>)" and, when the worker reports back, "Execution <id> (job
 * <job>) finished" with the worker's host ID; the worker logs "Host ID: <id>" at start and "Worker
 * started execution <id> (job <job>)" / "Worker finished execution <id> (job <job>)" (the latter
 * with `success`) around each job. A process that runs a workflow itself logs `Running node "<name>"
 * started` for each node, with the workflow's id.
 */
import type { LogEntry } from './logs';

interface ExecutionTrace {
	enqueuedByMain: boolean;
	/** Indexes of the workers whose own log says they started it. */
	startedOn: number[];
	/** Indexes of the workers whose own log says they finished it. */
	finishedOn: number[];
	workerSuccess?: boolean;
	/** The host ID main recorded for the worker that reported the execution finished. */
	reportedBy?: string;
}

const ENQUEUED = /^Enqueued execution (\d+) \(job [^)]+\)$/;
const MAIN_FINISHED = /^Execution (\d+) \(job [^)]+\) finished$/;
const WORKER_STARTED = /^Worker started execution (\d+) \(job [^)]+\)$/;
const WORKER_FINISHED = /^Worker finished execution (\d+) \(job [^)]+\)$/;

export function hostIdOf(entries: LogEntry[]): string | undefined {
	for (const entry of entries) {
		const match = /^Host ID: (\S+)$/.exec(entry.message);
		if (match) return match[1];
	}
	return undefined;
}

/**
 * Each execution as main's log and each worker's own log tell it. Workers on one machine share a
 * host ID (n8n derives it from the host name), so only their own logs tell them apart.
 */
export function traceExecutions(
	main: LogEntry[],
	workers: LogEntry[][],
): Map<string, ExecutionTrace> {
	const traces = new Map<string, ExecutionTrace>();
	const of = (id: string): ExecutionTrace => {
		let trace = traces.get(id);
		if (!trace) {
			trace = { enqueuedByMain: false, startedOn: [], finishedOn: [] };
			traces.set(id, trace);
		}
		return trace;
	};
	for (const entry of main) {
		let match = ENQUEUED.exec(entry.message);
		if (match) of(match[1]).enqueuedByMain = true;
		match = MAIN_FINISHED.exec(entry.message);
		if (match) {
			const workerId = entry.metadata?.workerId;
			if (typeof workerId === 'string') of(match[1]).reportedBy = workerId;
		}
	}
	workers.forEach((worker, index) => {
		for (const entry of worker) {
			let match = WORKER_STARTED.exec(entry.message);
			if (match) of(match[1]).startedOn.push(index);
			match = WORKER_FINISHED.exec(entry.message);
			if (match) {
				const trace = of(match[1]);
				trace.finishedOn.push(index);
				if (typeof entry.metadata?.success === 'boolean')
					trace.workerSuccess = entry.metadata.success;
			}
		}
	});
	return traces;
}

/** Log lines of a process that show it running a node of one of these workflows itself. */
export function nodeRuns(entries: LogEntry[], workflowIds: Set<string>): LogEntry[] {
	return entries.filter(
		(entry) =>
			/^Running node ".*" started$/.test(entry.message) &&
			workflowIds.has(String(entry.metadata?.workflowId)),
	);
}

/**
 * Problems of one execution's trace, empty when exactly one worker started and finished it, with
 * success, and main recorded a worker's host ID as the one that reported it.
 */
export function traceProblems(
	id: string,
	trace: ExecutionTrace | undefined,
	workerHost: string,
): string[] {
	if (!trace) return [`execution ${id}: in no log`];
	const problems: string[] = [];
	if (!trace.enqueuedByMain) problems.push(`execution ${id}: main did not log enqueuing it`);
	if (trace.startedOn.length !== 1)
		problems.push(`execution ${id}: started by ${trace.startedOn.length} workers`);
	if (trace.finishedOn.length !== 1 || trace.finishedOn[0] !== trace.startedOn[0])
		problems.push(
			`execution ${id}: finished by worker(s) [${trace.finishedOn.map((i) => i + 1).join(', ')}], started by [${trace.startedOn.map((i) => i + 1).join(', ')}]`,
		);
	else if (trace.workerSuccess !== true)
		problems.push(`execution ${id}: the worker logged success=${String(trace.workerSuccess)}`);
	if (trace.reportedBy !== workerHost)
		problems.push(
			`execution ${id}: main recorded it finished by ${trace.reportedBy ?? 'nobody'}, not ${workerHost}`,
		);
	return problems;
}
