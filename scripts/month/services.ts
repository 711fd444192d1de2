/**
 * Restarting Redis and PostgreSQL in place (same program, arguments, user, folder and port), as a
 * host's service manager does, and a PostgreSQL client that connects again after such a restart.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { spawnGroup, type Spawned } from '../lib/processes';
import type { N8nRuntime } from '../lib/runtime';

export interface Restartable {
	/** Stops the server and starts it again; returns the milliseconds it was away. */
	restart(): Promise<number>;
	/** The server running now. */
	current(): Spawned;
	stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How a server was started (Redis rewrites its command line, so it comes from the spawn). */
function commandOf(spawned: Spawned): { argv: string[]; cwd: string; uid: number; gid: number } {
	const pid = spawned.child.pid ?? 0;
	const argv = spawned.child.spawnargs;
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1] ?? 0);
	const gid = Number(/^Gid:\s+(\d+)/m.exec(status)?.[1] ?? 0);
	return { argv, cwd: readlinkSync(`/proc/${pid}/cwd`), uid, gid };
}

/**
 * `first` restarted by `signal` (PostgreSQL: SIGINT, a fast shutdown; Redis: SIGTERM), ready again
 * when `ready()` says so.
 */
export function restartable(
	first: Spawned,
	consoleFile: string,
	signal: NodeJS.Signals,
	/** Called before each restart: a test of the server being back. */
	readiness: () => () => boolean,
): Restartable {
	let spawned = first;
	const stopNow = async () => {
		const pid = spawned.child.pid;
		if (pid === undefined) return;
		try {
			process.kill(pid, signal);
		} catch {
			return;
		}
		const ended = await Promise.race([
			spawned.exited.then(() => true),
			sleep(15_000).then(() => false),
		]);
		if (!ended) await spawned.stop(3_000);
	};
	return {
		current: () => spawned,
		async restart() {
			const { argv, cwd, uid, gid } = commandOf(spawned);
			const began = Date.now();
			const ready = readiness();
			await stopNow();
			const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C' };
			const user = uid === process.getuid?.() ? undefined : { uid, gid };
			spawned = spawnGroup(argv[0], argv.slice(1), env, consoleFile, cwd, undefined, user);
			const deadline = Date.now() + 60_000;
			while (!ready()) {
				if (Date.now() > deadline) throw new Error(`${argv[0]} did not come back within 60 s`);
				await sleep(100);
			}
			return Date.now() - began;
		},
		stop: stopNow,
	};
}

/** PostgreSQL is ready once its console has said so one more time than before. */
export function postgresReady(consoleFile: string): () => boolean {
	const count = () =>
		readFileSync(consoleFile, 'utf8').split('database system is ready to accept connections')
			.length - 1;
	const before = count();
	return () => count() > before;
}

export function redisReady(cli: string, port: number): () => boolean {
	return () =>
		spawnSync(cli, ['-h', '127.0.0.1', '-p', String(port), 'ping'], {
			encoding: 'utf8',
			timeout: 2_000,
		}).stdout?.trim() === 'PONG';
}

interface PgClient {
	connect(): Promise<void>;
	query<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: T[] }>;
	end(): Promise<void>;
	on(event: 'error', listener: () => void): void;
}

/** A client of one database that reconnects on the next query after the server went away. */
export class Db {
	private client?: PgClient;

	constructor(
		private readonly runtime: N8nRuntime,
		private readonly port: number,
		readonly database: string,
	) {}

	async query<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]> {
		for (let attempt = 1; ; attempt++) {
			try {
				if (!this.client) {
					const pg = require(join(this.runtime.modulesDir, 'pg')) as {
						Client: new (options: Record<string, unknown>) => PgClient;
					};
					const client = new pg.Client({
						host: '127.0.0.1',
						port: this.port,
						user: 'postgres',
						database: this.database,
					});
					client.on('error', () => {
						if (this.client === client) this.client = undefined;
					});
					await client.connect();
					this.client = client;
				}
				return (await this.client.query<T>(text, values)).rows;
			} catch (error) {
				this.client?.end().catch(() => undefined);
				this.client = undefined;
				// Only a lost or refused connection is tried again; an error of the statement is not.
				const code = (error as { code?: string }).code ?? '';
				if (attempt >= 20 || /^(?!08|57P)[0-9A-Z]{5}$/.test(code)) throw error;
				await sleep(500);
			}
		}
	}

	async end(): Promise<void> {
		await this.client?.end().catch(() => undefined);
		this.client = undefined;
	}
}
