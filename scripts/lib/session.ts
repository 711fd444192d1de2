/**
 * One n8n user folder and the n8n commands run against it: imports, `execute`, and `start`.
 * Every command writes its own JSON log and console file under `<work>/logs/`, so a failure can
 * show the tail of exactly the command that failed, and the log checks can read them all.
 */
import type { SandboxCredential, SignInCredential } from '../../harness/sandbox';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readLog, type LogEntry } from './logs';
import { runN8n, spawnGroup, tail, waitForHttp, type Spawned } from './processes';
import { N8nRest } from './rest';
import { n8nEnv, type N8nRuntime } from './runtime';
import {
	runDataFromLog,
	writeCredentialImport,
	writeWorkflowImport,
	type Example,
	type RunData,
} from './workflows';

export interface CommandLog {
	label: string;
	logFile: string;
	consoleFile: string;
}

interface SessionOptions {
	runtime: N8nRuntime;
	/** Holds logs and import files. */
	workDir: string;
	userFolder: string;
	port: number;
	brokerPort: number;
	extraEnv?: Record<string, string>;
	/** Receives the console output of `n8n start` (npm run dev shows it). */
	echo?: (chunk: string) => void;
}

class CommandError extends Error {}

export interface N8nServer {
	url: string;
	rest: N8nRest;
	spawned: Spawned;
	log: CommandLog;
	stop(): Promise<void>;
}

export interface N8nWorker {
	/** The worker's health server. */
	url: string;
	spawned: Spawned;
	log: CommandLog;
	stop(): Promise<void>;
}

export class N8nSession {
	readonly logs: CommandLog[] = [];

	private readonly logDir: string;

	constructor(readonly options: SessionOptions) {
		this.logDir = join(options.workDir, 'logs');
		mkdirSync(this.logDir, { recursive: true });
		mkdirSync(options.userFolder, { recursive: true });
	}

	get userFolder(): string {
		return this.options.userFolder;
	}

	private newLog(label: string): CommandLog {
		const base = `${String(this.logs.length + 1).padStart(2, '0')}-${label.replace(/[^\w.-]+/g, '_')}`;
		const log = {
			label,
			logFile: join(this.logDir, `${base}.log`),
			consoleFile: join(this.logDir, `${base}.console.txt`),
		};
		this.logs.push(log);
		return log;
	}

	/** The environment of one command: the session's, then `extra` (settings of that process alone). */
	private env(log: CommandLog, extra?: Record<string, string>): NodeJS.ProcessEnv {
		const { runtime, userFolder, port, brokerPort, extraEnv } = this.options;
		return n8nEnv(runtime, {
			userFolder,
			port,
			brokerPort,
			logFile: log.logFile,
			extra: { ...extraEnv, ...extra },
		});
	}

	/** Runs one n8n command to its end and returns its log; a non-zero exit or a timeout throws. */
	async command(label: string, args: string[], timeoutMs: number): Promise<LogEntry[]> {
		const log = this.newLog(label);
		let code: number;
		try {
			code = await runN8n(
				this.options.runtime,
				args,
				this.env(log),
				log.consoleFile,
				this.options.workDir,
				timeoutMs,
			);
		} catch (error) {
			throw new CommandError(`${(error as Error).message}\n${this.tails(log)}`);
		}
		const entries = readLog(log.logFile);
		if (code !== 0)
			throw new CommandError(`n8n ${args.join(' ')} exited with ${code}\n${this.tails(log)}`);
		return entries;
	}

	tails(log: CommandLog, lines = 25): string {
		return `--- ${log.logFile} (last ${lines} lines)\n${tail(log.logFile, lines)}\n--- ${log.consoleFile}\n${tail(log.consoleFile, lines)}`;
	}

	/** Runs an import or publish command to its end; throws `missing` when its log does not say `said`. */
	private async commandSaying(
		label: string,
		args: string[],
		said: string,
		missing: string,
	): Promise<void> {
		const entries = await this.command(label, args, 120_000);
		if (!entries.some((e) => e.message.startsWith(said)))
			throw new CommandError(`${missing}\n${this.tails(this.logs[this.logs.length - 1])}`);
	}

	async importCredential(data: SandboxCredential | SignInCredential): Promise<void> {
		const file = join(this.options.workDir, 'credentials.json');
		writeCredentialImport(file, data);
		await this.commandSaying(
			'import-credentials',
			['import:credentials', `--input=${file}`],
			'Successfully imported 1 credential',
			'import:credentials did not report the import',
		);
	}

	/** Imports credentials given whole (`{ id, name, type, data }` each), as `n8n import:credentials` reads them. */
	async importCredentials(credentials: object[], fileName = 'credentials.json'): Promise<void> {
		const file = join(this.options.workDir, fileName);
		writeFileSync(file, JSON.stringify(credentials, null, 2));
		const count = credentials.length;
		await this.commandSaying(
			'import-credentials',
			['import:credentials', `--input=${file}`],
			`Successfully imported ${count} credential${count === 1 ? '' : 's'}`,
			`import:credentials did not report ${count} credential(s)`,
		);
	}

	async importExamples(examples: Example[]): Promise<void> {
		const dir = join(this.options.workDir, 'workflows');
		writeWorkflowImport(dir, examples);
		const wanted = `Successfully imported ${examples.length} ${examples.length === 1 ? 'workflow' : 'workflows'}`;
		await this.commandSaying(
			'import-workflows',
			['import:workflow', '--separate', `--input=${dir}`],
			wanted,
			`import:workflow did not report "${wanted}"`,
		);
	}

	/**
	 * `n8n publish:workflow --id=<id>` (n8n 1.x: `n8n update:workflow --id=<id> --active=true`): the
	 * workflow becomes active when n8n next starts.
	 */
	async publishWorkflow(id: string): Promise<void> {
		const v1 = this.options.runtime.version.startsWith('1.');
		const [args, said] = v1
			? [['update:workflow', `--id=${id}`, '--active=true'], `Activating workflow with ID: ${id}`]
			: [['publish:workflow', `--id=${id}`], `Publishing workflow with ID: ${id}`];
		await this.commandSaying(`publish-${id}`, args, said, `${args[0]} did not report "${said}"`);
	}

	/**
	 * `n8n execute --id=<id> --rawOutput`: the run data it prints, whether or not the run failed.
	 * It can exit 0 without running anything, so callers assert on the items.
	 */
	async execute(example: Example, timeoutMs = 180_000): Promise<{ run: RunData; log: CommandLog }> {
		const label = `execute-${example.file.replace(/\.json$/, '')}`;
		let entries: LogEntry[];
		try {
			entries = await this.command(
				label,
				['execute', `--id=${example.id}`, '--rawOutput'],
				timeoutMs,
			);
		} catch (error) {
			// A failed run exits 1 but still logs its run data, which says more than the exit code.
			entries = readLog(this.logs[this.logs.length - 1].logFile);
			const run = runDataFromLog(entries.map((e) => e.message));
			if (run) return { run, log: this.logs[this.logs.length - 1] };
			throw error;
		}
		const log = this.logs[this.logs.length - 1];
		const run = runDataFromLog(entries.map((e) => e.message));
		if (!run) throw new CommandError(`n8n execute printed no run data\n${this.tails(log)}`);
		return { run, log };
	}

	/**
	 * `n8n start` on 127.0.0.1:<port>, ready when its health check, settings and editor all answer
	 * 200 (n8n 1.x reports ready before the editor and REST routes are mounted).
	 */
	async startServer(timeoutMs = 120_000): Promise<N8nServer> {
		const log = this.newLog('start');
		const spawned = spawnGroup(
			this.options.runtime.n8nBin,
			['start'],
			this.env(log),
			log.consoleFile,
			this.options.workDir,
			this.options.echo,
		);
		const url = `http://127.0.0.1:${this.options.port}`;
		try {
			const deadline = Date.now() + timeoutMs;
			for (const path of ['/healthz/readiness', '/rest/settings', '/']) {
				await waitForHttp(`${url}${path}`, spawned, Math.max(1_000, deadline - Date.now()));
			}
		} catch (error) {
			await spawned.stop(5_000);
			throw new CommandError(`${(error as Error).message}\n${this.tails(log, 40)}`);
		}
		return { url, rest: new N8nRest(url), spawned, log, stop: async () => await spawned.stop() };
	}

	/**
	 * `n8n worker` for queue mode (the session's extraEnv carries EXECUTIONS_MODE and Redis): its own
	 * task-runner broker port and a health server on 127.0.0.1:<healthPort>, ready when
	 * /healthz/readiness answers 200.
	 */
	async startWorker(
		options: { brokerPort: number; healthPort: number; concurrency?: number },
		timeoutMs = 120_000,
	): Promise<N8nWorker> {
		const log = this.newLog('worker');
		const args = [
			'worker',
			...(options.concurrency ? [`--concurrency=${options.concurrency}`] : []),
		];
		const spawned = spawnGroup(
			this.options.runtime.n8nBin,
			args,
			this.env(log, {
				N8N_RUNNERS_BROKER_PORT: String(options.brokerPort),
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(options.healthPort),
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			}),
			log.consoleFile,
			this.options.workDir,
		);
		const url = `http://127.0.0.1:${options.healthPort}`;
		try {
			await waitForHttp(`${url}/healthz/readiness`, spawned, timeoutMs, 'n8n worker');
		} catch (error) {
			await spawned.stop(5_000);
			throw new CommandError(`${(error as Error).message}\n${this.tails(log, 40)}`);
		}
		return { url, spawned, log, stop: async () => await spawned.stop() };
	}

	/** Every log entry of every command so far, with the command it came from. */
	allEntries(): Array<{ log: CommandLog; entries: LogEntry[] }> {
		return this.logs.map((log) => ({ log, entries: readLog(log.logFile) }));
	}
}
