/**
 * n8n child processes: each in its own process group (n8n starts a task-runner child), every wait
 * time-boxed, and every group stopped by its PID when the caller is done or the runner exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { N8nRuntime } from './runtime';

const live = new Set<number>();

function killGroup(pid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(-pid, signal);
	} catch {
		// already gone
	}
}

process.on('exit', () => {
	for (const pid of live) killGroup(pid, 'SIGKILL');
});

/** The last lines of a file, for failure messages. */
export function tail(file: string, lines = 40): string {
	if (!existsSync(file)) return `(no ${file})`;
	return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

export interface Spawned {
	child: ChildProcess;
	exited: Promise<number>;
	/** SIGTERM to the group, SIGKILL after `graceMs`; resolves once the main process is gone. */
	stop(graceMs?: number): Promise<void>;
}

/**
 * Starts `command <args>` in a new process group with its console written to `consoleFile` (and
 * passed to `echo`), as `user` when given. The group is stopped by killAll() and when this process
 * exits.
 */
export function spawnGroup(
	command: string,
	args: string[],
	env: NodeJS.ProcessEnv,
	consoleFile: string,
	cwd: string,
	echo?: (chunk: string) => void,
	/** Another user to run as (PostgreSQL refuses to run as root). */
	user?: { uid: number; gid: number },
): Spawned {
	const out = createWriteStream(consoleFile, { flags: 'a' });
	const child = spawn(command, args, {
		env,
		cwd,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
		...user,
	});
	child.stdout?.pipe(out, { end: false });
	child.stderr?.pipe(out, { end: false });
	if (echo) {
		child.stdout?.on('data', (chunk: Buffer) => echo(chunk.toString()));
		child.stderr?.on('data', (chunk: Buffer) => echo(chunk.toString()));
	}
	const pid = child.pid;
	if (pid === undefined) throw new Error(`could not start ${command} ${args.join(' ')}`);
	live.add(pid);
	const exited = new Promise<number>((resolve) => {
		child.on('close', (code, signal) => {
			live.delete(pid);
			// A child (n8n's task runner) may outlive the main process for a moment; the group goes with it.
			killGroup(pid, 'SIGKILL');
			out.end();
			resolve(code ?? (signal ? 128 : 1));
		});
	});
	const stop = async (graceMs = 15_000): Promise<void> => {
		if (!live.has(pid)) return;
		killGroup(pid, 'SIGTERM');
		const timer = setTimeout(() => killGroup(pid, 'SIGKILL'), graceMs);
		await exited;
		clearTimeout(timer);
	};
	return { child, exited, stop };
}

class TimeoutError extends Error {}

/** Runs an n8n command to its end, or stops it and fails after `timeoutMs`. */
export async function runN8n(
	runtime: N8nRuntime,
	args: string[],
	env: NodeJS.ProcessEnv,
	consoleFile: string,
	cwd: string,
	timeoutMs: number,
): Promise<number> {
	const spawned = spawnGroup(runtime.n8nBin, args, env, consoleFile, cwd);
	let timer: NodeJS.Timeout | undefined;
	const timedOut = new Promise<'timeout'>((resolve) => {
		timer = setTimeout(() => resolve('timeout'), timeoutMs);
	});
	const outcome = await Promise.race([spawned.exited, timedOut]);
	clearTimeout(timer);
	if (outcome === 'timeout') {
		await spawned.stop(5_000);
		throw new TimeoutError(`n8n ${args.join(' ')} did not finish within ${timeoutMs / 1000}s`);
	}
	return outcome;
}

/** Polls `url` until it answers 200, the process exits, or `timeoutMs` passes. */
export async function waitForHttp(
	url: string,
	spawned: Spawned,
	timeoutMs: number,
	what = 'n8n',
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	let exitCode: number | undefined;
	void spawned.exited.then((code) => {
		exitCode = code;
	});
	while (Date.now() < deadline) {
		if (exitCode !== undefined)
			throw new Error(`${what} exited with code ${exitCode} before answering ${url}`);
		try {
			const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
			if (response.status === 200) return;
		} catch {
			// not listening yet
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new TimeoutError(`${what} did not answer ${url} within ${timeoutMs / 1000}s`);
}

/** Stops every process group still running (n8n, Redis), for signal handlers. */
export function killAll(): void {
	for (const pid of live) killGroup(pid, 'SIGKILL');
	live.clear();
}
