/**
 * The real n8n the end-to-end stage and `npm run dev` run: installed once into a cache folder outside
 * the repository by install-n8n.sh, started here as child processes with Node 24 first on PATH.
 *
 * N8N_VERSION picks the n8n (default 2.41.1; 1.123.81 is the newest 1.x). AD_CABINET_NODE=20 runs it
 * with the Node 20 that runs this script instead (n8n 1.x supports Node 20; n8n 2.x does not): then
 * its expression engine is n8n's `legacy` one (isolated-vm, the default engine, ships no Node 20
 * build) and its SQLite driver, built for Node 24, does not load, so the stage uses PostgreSQL.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '..', '..');
const N8N_VERSION = process.env.N8N_VERSION ?? '2.41.1';
/** Fixed so that credentials imported by one command can be decrypted by the next. */
export const ENCRYPTION_KEY = 'n8n-nodes-ad-cabinet-e2e-only-not-a-secret';

export interface N8nRuntime {
	version: string;
	/** The cache folder of this version (…/n8n-<version>). */
	dir: string;
	/** Folder holding the Node that runs n8n as `node`; put it first on PATH. */
	binDir: string;
	/** That Node's version, e.g. "24.21.0", as it reports itself. */
	nodeVersion: string;
	/** Whether n8n's SQLite driver loads on that Node (built for Node 24 by install-n8n.sh). */
	sqlite: boolean;
	/** Settings this n8n needs on that Node. */
	env: Record<string, string>;
	/** The `n8n` executable script. */
	n8nBin: string;
	/** n8n's own node_modules, for its helper libraries (flatted). */
	modulesDir: string;
}

export function cacheRoot(): string {
	return (
		process.env.AD_CABINET_CACHE ??
		join(process.env.HOME ?? '/tmp', '.cache', 'n8n-nodes-ad-cabinet')
	);
}

/**
 * Installs n8n and Node 24 into the cache when missing (minutes, once) and describes the install,
 * with the Node that will run it. `version` defaults to N8N_VERSION (a stage that runs two n8n
 * lines, such as the registry stage, names each).
 */
export function ensureN8n(version = N8N_VERSION): N8nRuntime {
	const script = join(REPO_ROOT, 'scripts', 'lib', 'install-n8n.sh');
	const result = spawnSync('bash', [script], {
		cwd: REPO_ROOT,
		env: { ...process.env, N8N_VERSION: version, AD_CABINET_CACHE: cacheRoot() },
		stdio: ['ignore', 'pipe', 'inherit'],
		encoding: 'utf8',
		timeout: 30 * 60_000,
	});
	if (result.status !== 0) {
		throw new Error(`install-n8n.sh failed (${result.error?.message ?? `exit ${result.status}`})`);
	}
	const dir = result.stdout.trim().split('\n').pop() ?? '';
	const node20 = process.env.AD_CABINET_NODE === '20';
	if (node20 && !process.versions.node.startsWith('20.')) {
		throw new Error(
			`AD_CABINET_NODE=20 runs n8n with the Node that runs this stage, which is ${process.versions.node}, not 20`,
		);
	}
	if (process.env.AD_CABINET_NODE && !node20) {
		throw new Error(`AD_CABINET_NODE is 20 or unset (Node 24), not ${process.env.AD_CABINET_NODE}`);
	}
	const binDir = node20 ? dirname(process.execPath) : join(dir, 'bin');
	const nodeVersion = spawnSync(join(binDir, 'node'), ['--version'], { encoding: 'utf8' })
		.stdout.trim()
		.replace(/^v/, '');
	const runtime: N8nRuntime = {
		version,
		dir,
		binDir,
		nodeVersion,
		sqlite: !node20,
		env: node20 ? { N8N_EXPRESSION_ENGINE: 'legacy' } : {},
		n8nBin: join(dir, 'n8n', 'node_modules', '.bin', 'n8n'),
		modulesDir: join(dir, 'n8n', 'node_modules'),
	};
	const packageJson = join(runtime.modulesDir, 'n8n', 'package.json');
	if (!existsSync(runtime.n8nBin) || !existsSync(packageJson)) {
		throw new Error(`No n8n executable in ${dir}: delete that folder and run again`);
	}
	const installed = (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
	if (installed !== version) throw new Error(`${dir} holds n8n ${installed}, not ${version}`);
	return runtime;
}

/** Modules that fetch from api.n8n.io at start, where this n8n version has them. */
const PHONES_HOME = ['mcp-registry'];

function disabledModules(runtime: N8nRuntime): Record<string, string> {
	let known: string[] = [];
	try {
		const config = join(
			runtime.modulesDir,
			'@n8n',
			'backend-common',
			'dist',
			'modules',
			'modules.config.js',
		);
		known = (require(config) as { MODULE_NAMES?: string[] }).MODULE_NAMES ?? [];
	} catch {
		// an n8n without modules
	}
	// n8n refuses to start when N8N_DISABLED_MODULES names a module it does not have.
	const names = PHONES_HOME.filter((name) => known.includes(name));
	return names.length ? { N8N_DISABLED_MODULES: names.join(',') } : {};
}

interface N8nEnvOptions {
	userFolder: string;
	port: number;
	brokerPort: number;
	/** n8n's own log (JSON lines); its console stays quiet. */
	logFile: string;
	/** Settings a caller adds or overrides (dev mode passes the user's N8N_* through). */
	extra?: Record<string, string>;
}

/**
 * The environment of every n8n command: an isolated user folder and SQLite database, loopback only,
 * nothing that phones home (telemetry, version checks, templates, banners, the MCP server registry),
 * the timezone of the in-process harness, and a JSON debug log that the checks read.
 */
export function n8nEnv(runtime: N8nRuntime, options: N8nEnvOptions): NodeJS.ProcessEnv {
	const inherited: NodeJS.ProcessEnv = {};
	// LD_PRELOAD and FAKETIME: a clock set for the whole stage (scripts/near-midnight.sh) is n8n's too.
	for (const key of ['HOME', 'USER', 'LANG', 'TMPDIR', 'TERM', 'LD_PRELOAD', 'FAKETIME']) {
		if (process.env[key] !== undefined) inherited[key] = process.env[key];
	}
	return {
		...inherited,
		PATH: `${runtime.binDir}:${process.env.PATH ?? '/usr/bin:/bin'}`,
		N8N_USER_FOLDER: options.userFolder,
		N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
		DB_TYPE: 'sqlite',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_PORT: String(options.port),
		N8N_SECURE_COOKIE: 'false',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_RUNNERS_BROKER_PORT: String(options.brokerPort),
		N8N_PYTHON_ENABLED: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		...disabledModules(runtime),
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		GENERIC_TIMEZONE: 'UTC',
		TZ: 'UTC',
		N8N_LOG_OUTPUT: 'file',
		N8N_LOG_FORMAT: 'json',
		N8N_LOG_LEVEL: 'debug',
		N8N_LOG_FILE_LOCATION: options.logFile,
		...runtime.env,
		...options.extra,
	};
}
