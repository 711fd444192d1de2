/**
 * The stage's own Docker daemon: `dockerd` with its data, exec root, socket and pid file in the
 * stage's work folder, so it shares nothing with another daemon on the machine, and every `docker`
 * command here talks to it through DOCKER_HOST. It runs in the stage's network namespace (run.ts),
 * where its bridge, its NAT rules and the ports containers publish live and end with the stage.
 * `stop` stops every container, the daemon and its containerd, and removes the data folder.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnGroup, tail, type Spawned } from '../lib/processes';

interface DockerResult {
	code: number;
	stdout: string;
	stderr: string;
}

export interface Daemon {
	/** unix://<work>/docker/docker.sock */
	host: string;
	/** Where named volumes live on this machine: <data root>/volumes/<name>/_data. */
	dataRoot: string;
	versions: { client: string; server: string };
	logFile: string;
	/** `docker <args>` against this daemon; never throws, the caller reads the code. */
	docker(args: string[], options?: { input?: string; timeoutMs?: number }): Promise<DockerResult>;
	/** Runs a shell line (bash -c) with DOCKER_HOST set, from `cwd`: how documented commands run. */
	shell(line: string, cwd: string, timeoutMs?: number): Promise<DockerResult>;
	stop(): Promise<void>;
}

function dockerEnv(host: string): NodeJS.ProcessEnv {
	// The legacy builder: Debian's daemon 20.10 and whichever docker client is on PATH both speak it,
	// and it needs no buildx plug-in.
	return { ...process.env, DOCKER_HOST: host, DOCKER_BUILDKIT: '0', DOCKER_CLI_HINTS: 'false' };
}

export async function run(
	command: string,
	args: string[],
	env: NodeJS.ProcessEnv,
	options: { input?: string; timeoutMs?: number; cwd?: string } = {},
): Promise<DockerResult> {
	return await new Promise((resolve) => {
		const child = spawn(command, args, { env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const timer = setTimeout(() => {
			stderr += `\n(timed out after ${(options.timeoutMs ?? 0) / 1000}s)`;
			child.kill('SIGKILL');
		}, options.timeoutMs ?? 300_000);
		child.on('error', (error) => (stderr += error.message));
		// A command that exits before reading its input (docker rm, say) closes the pipe: not a failure.
		child.stdin.on('error', () => undefined);
		child.on('close', (code) => {
			clearTimeout(timer);
			resolve({ code: code ?? 1, stdout, stderr });
		});
		child.stdin.end(options.input ?? '');
	});
}

/**
 * The containerd shims of this daemon (their command line names its exec root, which is unique to
 * the run) and the container processes under them, killed: a shim outlives a daemon that did not
 * stop its containers (the stage killed by a signal or a crash).
 */
function killShims(execRoot: string): void {
	const processes: Array<{ pid: number; ppid: number; cmdline: string }> = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			processes.push({ pid: Number(entry), ppid, cmdline });
		} catch {
			// gone meanwhile
		}
	}
	const shims = processes.filter(
		(p) => p.cmdline.includes('containerd-shim') && p.cmdline.includes(execRoot),
	);
	for (const shim of shims) {
		for (const child of processes.filter((p) => p.ppid === shim.pid)) {
			try {
				process.kill(child.pid, 'SIGKILL');
			} catch {
				// gone
			}
		}
		try {
			process.kill(shim.pid, 'SIGKILL');
		} catch {
			// gone
		}
	}
}

async function waitFor(test: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (await test()) return true;
		await new Promise((resolve) => setTimeout(resolve, 300));
	}
	return false;
}

export async function startDaemon(work: string): Promise<Daemon> {
	const root = join(work, 'docker');
	mkdirSync(root, { recursive: true });
	const host = `unix://${join(root, 'docker.sock')}`;
	const dataRoot = join(root, 'data');
	const logFile = join(root, 'dockerd.log');
	const env = dockerEnv(host);
	const execRoot = join(root, 'exec');
	process.on('exit', () => killShims(execRoot));
	const spawned: Spawned = spawnGroup(
		'dockerd',
		[
			`--data-root=${dataRoot}`,
			`--exec-root=${execRoot}`,
			`--pidfile=${join(root, 'dockerd.pid')}`,
			`--host=${host}`,
		],
		env,
		logFile,
		root,
	);
	const docker = async (args: string[], options: { input?: string; timeoutMs?: number } = {}) =>
		await run('docker', args, env, options);
	const ready = await waitFor(
		async () => (await docker(['info'], { timeoutMs: 5_000 })).code === 0,
		60_000,
	);
	if (!ready) {
		await spawned.stop(5_000);
		throw new Error(`dockerd did not answer within 60s:\n${tail(logFile, 30)}`);
	}
	const version = await docker(['version', '--format', '{{.Client.Version}} {{.Server.Version}}']);
	const [client, server] = version.stdout.trim().split(' ');
	const stop = async () => {
		const ids = (await docker(['ps', '-aq'])).stdout.split('\n').filter(Boolean);
		if (ids.length) await docker(['rm', '-f', ...ids], { timeoutMs: 60_000 });
		await spawned.stop(20_000);
		killShims(execRoot);
		// Hundreds of thousands of files (the image's layers): rm is several times faster than Node's rmSync.
		await run('rm', ['-rf', root], process.env, { timeoutMs: 600_000 });
	};
	return {
		host,
		dataRoot,
		versions: { client, server },
		logFile,
		docker,
		shell: async (line, cwd, timeoutMs) =>
			await run('bash', ['-e', '-c', line], env, { cwd, timeoutMs }),
		stop,
	};
}

/** The output of a failed command, for a check's message. */
export function describe(result: DockerResult): string {
	return `exit ${result.code}\n${`${result.stdout}${result.stderr}`.trimEnd().split('\n').slice(-25).join('\n')}`;
}
