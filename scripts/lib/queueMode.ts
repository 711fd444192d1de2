/**
 * n8n in queue mode as the queue, sync and lost-worker stages run it: PostgreSQL for n8n's data,
 * Redis for the jobs, one main and a number of workers, each on free ports of 127.0.0.1.
 */
import { readLog } from './logs';
import { freePort } from './processes';
import type { Postgres } from './postgres';
import type { Redis } from './redis';
import type { N8nServer, N8nSession, N8nWorker } from './session';

/** The environment of main and workers: PostgreSQL holds n8n's data, Redis carries the jobs. */
export function queueModeEnv(postgres: Postgres, redis: Redis): Record<string, string> {
	return {
		...postgres.n8nEnv,
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
	};
}

interface QueueMode {
	server: N8nServer;
	workers: N8nWorker[];
	/** Starts one more worker (to replace one that was killed). */
	startWorker: () => Promise<N8nWorker>;
}

/** Starts main and `count` workers at once; throws with every start's reason if one fails. */
export async function startQueueMode(session: N8nSession, count: number): Promise<QueueMode> {
	const startWorker = async () =>
		await session.startWorker({ brokerPort: await freePort(), healthPort: await freePort() });
	const starts = await Promise.allSettled([
		session.startServer(),
		...Array.from({ length: count }, startWorker),
	]);
	const [mainStart, ...workerStarts] = starts;
	const workers = workerStarts.flatMap((start) =>
		start.status === 'fulfilled' ? [start.value as N8nWorker] : [],
	);
	if (mainStart.status !== 'fulfilled' || workers.length !== count) {
		await Promise.all([
			mainStart.status === 'fulfilled' ? (mainStart.value as N8nServer).stop() : undefined,
			...workers.map((worker) => worker.stop()),
		]);
		const reasons = starts
			.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
			.map((r) => String((r.reason as Error).message ?? r.reason));
		throw new Error(`start failed:\n${reasons.join('\n')}`);
	}
	return { server: mainStart.value as N8nServer, workers, startWorker };
}

interface KilledWorker {
	/** Its place in the list given. */
	index: number;
	pid: number;
	/** The Bull job of the execution, as the worker logged it. */
	jobId: string;
}

/** The place in `workers` of the one whose own log says it started the execution, or -1. */
export function workerThatStarted(workers: N8nWorker[], executionId: string): number {
	return workers.findIndex((worker) => startedJob(worker, executionId) !== undefined);
}

function startedJob(worker: N8nWorker, executionId: string): string | undefined {
	const startedLine = new RegExp(`^Worker started execution ${executionId} \\(job ([^)]+)\\)$`);
	return readLog(worker.log.logFile)
		.map((entry) => startedLine.exec(entry.message)?.[1])
		.find(Boolean);
}

/**
 * Kills the worker running an execution with SIGKILL, as a lost machine ends: the one whose own
 * log says it started the execution (workers share a host ID, so main's log cannot tell).
 */
export function killWorkerRunning(workers: N8nWorker[], executionId: string): KilledWorker {
	for (const [index, worker] of workers.entries()) {
		const jobId = startedJob(worker, executionId);
		if (!jobId) continue;
		const pid = worker.spawned.child.pid;
		if (pid === undefined)
			throw new Error(`the worker running execution ${executionId} has no pid`);
		process.kill(pid, 'SIGKILL');
		return { index, pid, jobId };
	}
	throw new Error(`no live worker logged starting execution ${executionId}`);
}
