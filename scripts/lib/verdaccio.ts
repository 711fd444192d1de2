/**
 * A throw-away npm registry: Verdaccio (installed from the npm registry into the cache by
 * install-verdaccio.sh, pinned) on 127.0.0.1 and a free port, with its storage in the stage's folder,
 * no uplink (it serves only what the stage publishes, so nothing n8n asks for can come from
 * anywhere else), one user made through npm's own login call, and a private npmrc holding that
 * user's token for `npm publish`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, spawnGroup, tail, waitForHttp, type Spawned } from './processes';
import { getAgainIfClosed } from './rest';
import { cacheRoot, REPO_ROOT } from './runtime';

const VERDACCIO_VERSION = '6.10.4';

interface Packument {
	name: string;
	'dist-tags': Record<string, string>;
	versions: Record<string, { version: string; dist: { tarball: string; integrity?: string } }>;
}

export interface LocalRegistry {
	/** e.g. http://127.0.0.1:41234 (no trailing slash, as n8n is given it). */
	url: string;
	version: string;
	consoleFile: string;
	spawned: Spawned;
	/** `npm publish <target>` (a tarball or a package folder) as the registry's user; npm's output. */
	publish(target: string): string;
	packument(name: string): Promise<Packument>;
	stop(): Promise<void>;
}

/** Installs Verdaccio into the cache when missing (seconds, once); returns its folder. */
export function ensureVerdaccio(nodeBinDir: string): string {
	const script = join(REPO_ROOT, 'scripts', 'lib', 'install-verdaccio.sh');
	const result = spawnSync('bash', [script], {
		env: {
			...process.env,
			VERDACCIO_VERSION,
			AD_CABINET_CACHE: cacheRoot(),
			NODE_BIN_DIR: nodeBinDir,
		},
		stdio: ['ignore', 'pipe', 'inherit'],
		encoding: 'utf8',
		timeout: 10 * 60_000,
	});
	if (result.status !== 0) {
		throw new Error(
			`install-verdaccio.sh failed (${result.error?.message ?? `exit ${result.status}`})`,
		);
	}
	return result.stdout.trim().split('\n').pop() ?? '';
}

/**
 * A shell for npm with none of the settings `npm run` passes down (this repository's .npmrc), and
 * npm's cache in `npmCache` (the run's own, not ~/.npm: see context.ts).
 */
function cleanEnv(nodeBinDir: string, npmCache?: string): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const key of ['HOME', 'USER', 'LANG', 'TMPDIR']) {
		if (process.env[key] !== undefined) env[key] = process.env[key];
	}
	env.PATH = `${nodeBinDir}:${process.env.PATH ?? '/usr/bin:/bin'}`;
	if (npmCache) env.npm_config_cache = npmCache;
	return env;
}

export async function startVerdaccio(
	dir: string,
	nodeBinDir: string,
	npmCache: string,
	timeoutMs = 60_000,
): Promise<LocalRegistry> {
	const installed = ensureVerdaccio(nodeBinDir);
	mkdirSync(dir, { recursive: true });
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	// JSON is YAML: Verdaccio reads this file as its config.yaml.
	const config = {
		storage: join(dir, 'storage'),
		auth: { htpasswd: { file: join(dir, 'htpasswd'), max_users: 1 } },
		uplinks: {},
		packages: { '**': { access: '$all', publish: '$authenticated', unpublish: '$authenticated' } },
		middlewares: { audit: { enabled: false } },
		web: { enable: false },
		publish: { allow_offline: true },
		log: { type: 'stdout', format: 'json', level: 'http' },
	};
	const configFile = join(dir, 'config.yaml');
	writeFileSync(configFile, JSON.stringify(config, null, 2));
	const consoleFile = join(dir, 'verdaccio.log');
	const spawned = spawnGroup(
		join(nodeBinDir, 'node'),
		[
			join(installed, 'node_modules', 'verdaccio', 'bin', 'verdaccio'),
			'--config',
			configFile,
			'--listen',
			`127.0.0.1:${port}`,
		],
		cleanEnv(nodeBinDir),
		consoleFile,
		dir,
	);
	try {
		await waitForHttp(`${url}/-/ping`, spawned, timeoutMs, 'Verdaccio');
	} catch (error) {
		await spawned.stop(3_000);
		throw new Error(`${(error as Error).message}\n${tail(consoleFile)}`);
	}

	// npm's own login call (what `npm adduser` sends), answered with a token.
	const user = { name: 'ad-cabinet-release', password: 'local-registry-only-1' };
	const response = await fetch(`${url}/-/user/org.couchdb.user:${user.name}`, {
		method: 'PUT',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ ...user, type: 'user', roles: [] }),
		signal: AbortSignal.timeout(15_000),
	});
	const login = (await response.json()) as { token?: string };
	if (!response.ok || !login.token) {
		await spawned.stop(3_000);
		throw new Error(`Verdaccio refused the user (${response.status}): ${JSON.stringify(login)}`);
	}
	const npmrc = join(dir, 'publisher.npmrc');
	writeFileSync(npmrc, `registry=${url}/\n//127.0.0.1:${port}/:_authToken=${login.token}\n`);

	const publish = (target: string): string => {
		const result = spawnSync(
			'npm',
			['publish', target, '--userconfig', npmrc, '--registry', `${url}/`, '--ignore-scripts'],
			{ cwd: dir, env: cleanEnv(nodeBinDir, npmCache), encoding: 'utf8', timeout: 120_000 },
		);
		const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
		if (result.status !== 0) {
			throw new Error(`npm publish ${target} failed (exit ${result.status}):\n${output}`);
		}
		return output;
	};
	const packument = async (name: string): Promise<Packument> => {
		const answer = await getAgainIfClosed(`${url}/${encodeURIComponent(name)}`);
		if (!answer.ok) throw new Error(`GET ${url}/${name} answered ${answer.status}`);
		return (await answer.json()) as Packument;
	};
	return {
		url,
		version: VERDACCIO_VERSION,
		consoleFile,
		spawned,
		publish,
		packument,
		stop: async () => await spawned.stop(5_000),
	};
}
