/**
 * A throw-away PostgreSQL for n8n (queue mode and n8n 1.x on Node 20): a fresh cluster by `initdb`
 * in its own folder, the server on 127.0.0.1 and a free port, trust authentication for the
 * `postgres` role, durability switched off (nothing is kept), stopped by a fast shutdown (SIGINT).
 *
 * The binaries are PostgreSQL 17.10 from the npm registry, installed into the cache by
 * install-postgres.sh (n8n 2.x supports PostgreSQL 17 and newer and warns about older servers);
 * AD_CABINET_PG_BIN names another bin folder instead (e.g. /usr/lib/postgresql/15/bin).
 *
 * PostgreSQL refuses to run as root. As root, the server runs as the `postgres` user (created as a
 * system user when missing), from a copy of the binaries inside the stage's folder, which that user
 * can read (the cache sits in root's home).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { freePort, spawnGroup, tail, type Spawned } from './processes';
import { cacheRoot, REPO_ROOT } from './runtime';

export interface Postgres {
	port: number;
	/** e.g. "17.10", from the server's own start-up line. */
	version: string;
	/** The settings n8n needs to use it. */
	n8nEnv: Record<string, string>;
	consoleFile: string;
	spawned: Spawned;
	/** How it went: 'fast shutdown', or 'SIGTERM/SIGKILL' when that did not end it. */
	stop(): Promise<string>;
}

/** The bin folder (postgres, initdb) to use, installing PostgreSQL into the cache when missing. */
function ensurePostgres(): string {
	const override = process.env.AD_CABINET_PG_BIN;
	if (override) return override;
	const script = join(REPO_ROOT, 'scripts', 'lib', 'install-postgres.sh');
	const result = spawnSync('bash', [script], {
		env: { ...process.env, AD_CABINET_CACHE: cacheRoot() },
		stdio: ['ignore', 'pipe', 'inherit'],
		encoding: 'utf8',
		timeout: 10 * 60_000,
	});
	if (result.status !== 0) {
		throw new Error(
			`install-postgres.sh failed (${result.error?.message ?? `exit ${result.status}`})`,
		);
	}
	return join(result.stdout.trim().split('\n').pop() ?? '', 'bin');
}

/** The uid/gid of the `postgres` system user, created when missing (as root only). */
function postgresUser(): { uid: number; gid: number } {
	const id = (flag: string) =>
		Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
	try {
		return { uid: id('-u'), gid: id('-g') };
	} catch {
		execFileSync('useradd', [
			'--system',
			'--user-group',
			'--no-create-home',
			'--shell',
			'/usr/sbin/nologin',
			'postgres',
		]);
		return { uid: id('-u'), gid: id('-g') };
	}
}

export async function startPostgres(dir: string, timeoutMs = 60_000): Promise<Postgres> {
	let binDir = ensurePostgres();
	mkdirSync(dir, { recursive: true });
	chmodSync(dir, 0o755);
	const asRoot = process.getuid?.() === 0;
	const user = asRoot ? postgresUser() : undefined;
	// The stage's folder (mkdtemp: 0700) must let that user pass through to this one.
	if (user) chmodSync(dirname(dir), 0o711);
	if (user && !process.env.AD_CABINET_PG_BIN) {
		// bin/, lib/ and share/ side by side: the binaries find their libraries and data relative to bin/.
		const copy = join(dir, 'server');
		cpSync(dirname(binDir), copy, { recursive: true, verbatimSymlinks: true });
		binDir = join(copy, 'bin');
	}
	const data = join(dir, 'data');
	const sockets = join(dir, 'sockets');
	for (const folder of [data, sockets]) {
		mkdirSync(folder, { recursive: true, mode: 0o700 });
		if (user) chownSync(folder, user.uid, user.gid);
	}
	const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C' };
	const initdb = spawnSync(
		join(binDir, 'initdb'),
		['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync'],
		{ env, encoding: 'utf8', timeout: 120_000, cwd: dir, ...user },
	);
	if (initdb.status !== 0) {
		const why = initdb.error?.message ?? `exit ${initdb.status}`;
		throw new Error(`initdb failed (${why})\n${initdb.stdout ?? ''}${initdb.stderr ?? ''}`);
	}
	const port = await freePort();
	const consoleFile = join(dir, 'postgres.console.txt');
	const spawned = spawnGroup(
		join(binDir, 'postgres'),
		[
			'-D',
			data,
			'-h',
			'127.0.0.1',
			'-p',
			String(port),
			'-k',
			sockets,
			// A throw-away cluster: nothing needs to survive a crash of the machine.
			...['fsync=off', 'synchronous_commit=off', 'full_page_writes=off'].flatMap((s) => ['-c', s]),
		],
		env,
		consoleFile,
		dir,
		undefined,
		user,
	);
	let exitCode: number | undefined;
	void spawned.exited.then((code) => {
		exitCode = code;
	});
	const deadline = Date.now() + timeoutMs;
	const output = () => (existsSync(consoleFile) ? readFileSync(consoleFile, 'utf8') : '');
	while (!output().includes('database system is ready to accept connections')) {
		if (exitCode !== undefined) {
			throw new Error(`postgres exited with ${exitCode}\n${tail(consoleFile)}`);
		}
		if (Date.now() > deadline) {
			await spawned.stop(2_000);
			throw new Error(`postgres not ready within ${timeoutMs / 1000}s\n${tail(consoleFile)}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	const version = /starting PostgreSQL (\S+)/.exec(output())?.[1] ?? 'unknown';
	const stop = async (): Promise<string> => {
		if (exitCode !== undefined) return `had already exited (${exitCode})`;
		const pid = spawned.child.pid;
		if (pid) process.kill(pid, 'SIGINT');
		let timer: NodeJS.Timeout | undefined;
		const ended = await Promise.race([
			spawned.exited.then(() => true),
			new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 10_000))),
		]);
		clearTimeout(timer);
		if (ended) return 'fast shutdown';
		await spawned.stop(3_000);
		return 'SIGTERM/SIGKILL';
	};
	return {
		port,
		version,
		consoleFile,
		spawned,
		stop,
		n8nEnv: {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(port),
			DB_POSTGRESDB_DATABASE: 'postgres',
			DB_POSTGRESDB_USER: 'postgres',
			DB_POSTGRESDB_PASSWORD: '',
		},
	};
}
