/**
 * A throw-away Redis for n8n's queue: Debian's redis-server on 127.0.0.1 and a free port, nothing
 * persisted, in its own folder and process group; stopped with `redis-cli shutdown nosave`, and by
 * its PID when that does not end it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, spawnGroup, tail, type Spawned } from './processes';

const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
export const REDIS_CLI = process.env.REDIS_CLI ?? '/usr/bin/redis-cli';
/**
 * Redis and its client run on the real clock, without a stage's LD_PRELOAD of libfaketime
 * (scripts/near-midnight.sh): redis-server hangs under it, and Redis's own timeouts need no offset.
 */
const REAL_CLOCK_ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

export interface Redis {
	port: number;
	version: string;
	consoleFile: string;
	spawned: Spawned;
	/** `redis-cli … info <section>` as key → value. */
	info(section: string): Record<string, string>;
	/** One command through redis-cli, its output as text. */
	command(...args: string[]): string;
	/** How it went: 'shutdown nosave', or 'SIGTERM/SIGKILL by PID' when that did not end it. */
	stop(): Promise<string>;
}

function cli(port: number, args: string[], timeoutMs = 5_000): { ok: boolean; out: string } {
	const result = spawnSync(REDIS_CLI, ['-h', '127.0.0.1', '-p', String(port), ...args], {
		encoding: 'utf8',
		timeout: timeoutMs,
		env: REAL_CLOCK_ENV,
	});
	return { ok: result.status === 0, out: `${result.stdout ?? ''}${result.stderr ?? ''}`.trim() };
}

export async function startRedis(dir: string, timeoutMs = 20_000): Promise<Redis> {
	for (const bin of [REDIS_SERVER, REDIS_CLI]) {
		if (!existsSync(bin))
			throw new Error(`${bin} is missing: apt-get install -y redis-server redis-tools`);
	}
	const versionLine =
		spawnSync(REDIS_SERVER, ['--version'], { encoding: 'utf8', env: REAL_CLOCK_ENV }).stdout ?? '';
	const version = /v=(\S+)/.exec(versionLine)?.[1] ?? versionLine.trim();
	mkdirSync(dir, { recursive: true });
	const port = await freePort();
	const consoleFile = join(dir, 'redis.console.txt');
	const spawned = spawnGroup(
		REDIS_SERVER,
		[
			'--bind',
			'127.0.0.1',
			'--port',
			String(port),
			'--save',
			'',
			'--appendonly',
			'no',
			'--daemonize',
			'no',
			'--dir',
			dir,
			'--protected-mode',
			'yes',
		],
		REAL_CLOCK_ENV,
		consoleFile,
		dir,
	);
	let exitCode: number | undefined;
	void spawned.exited.then((code) => {
		exitCode = code;
	});
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (exitCode !== undefined) {
			throw new Error(`redis-server exited with ${exitCode}\n${tail(consoleFile)}`);
		}
		if (cli(port, ['ping'], 2_000).out === 'PONG') break;
		if (Date.now() > deadline) {
			await spawned.stop(2_000);
			throw new Error(
				`redis-server did not answer PING within ${timeoutMs / 1000}s\n${tail(consoleFile)}`,
			);
		}
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	const info = (section: string): Record<string, string> => {
		const fields: Record<string, string> = {};
		for (const line of cli(port, ['info', section]).out.split('\n')) {
			const at = line.indexOf(':');
			if (at > 0) fields[line.slice(0, at)] = line.slice(at + 1).trim();
		}
		return fields;
	};
	const stop = async (): Promise<string> => {
		if (exitCode !== undefined) return `had already exited (${exitCode})`;
		cli(port, ['shutdown', 'nosave']);
		const ended = await Promise.race([
			spawned.exited.then(() => true),
			new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000)),
		]);
		if (ended) return 'shutdown nosave';
		await spawned.stop(3_000);
		return 'SIGTERM/SIGKILL by PID';
	};
	const command = (...args: string[]): string => cli(port, args).out;
	return { port, version, consoleFile, spawned, info, command, stop };
}
