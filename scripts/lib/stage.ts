/**
 * The opening every real-n8n stage shares (end to end, queue mode, editor): n8n from the cache, a
 * fresh work folder, and this package installed into its n8n user folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Checks } from './checks';
import { installPackage, repoPackageJson } from './installPackage';
import { freePort, killAll } from './processes';
import { N8nSession } from './session';
import { ensureN8n, type N8nRuntime } from './runtime';
import { namespaceRefusal, runInNamespace } from './namespace';

export function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(1)}s`;
}

/** Prints `▶ [+m:ss] title`, runs the step, then `  (step: Ns)`. */
export async function step<T>(started: number, title: string, run: () => Promise<T>): Promise<T> {
	const at = Math.round((Date.now() - started) / 1000);
	console.log(`\n▶ [+${Math.floor(at / 60)}:${String(at % 60).padStart(2, '0')}] ${title}`);
	const t = Date.now();
	try {
		return await run();
	} finally {
		console.log(`  (step: ${seconds(Date.now() - t)})`);
	}
}

export interface StageSetup {
	runtime: N8nRuntime;
	/** Temporary folder for the user folder, imports and logs. */
	work: string;
	userFolder: string;
	/** Where the package was installed (or linked). */
	installedAt: string;
}

/**
 * Prints the n8n it uses and where the package went. Returns undefined (after printing why and
 * `<stage> stage: …`) when n8n cannot be installed.
 */
export function setUpStage(
	stage: string,
	started: number,
	mode: 'pack' | 'link' = 'pack',
	/** The n8n version, for a stage that runs two; N8N_VERSION (or 2.41.1) otherwise. */
	version?: string,
): StageSetup | undefined {
	const pkg = repoPackageJson();
	let t = Date.now();
	let runtime: N8nRuntime;
	try {
		runtime = ensureN8n(version);
	} catch (error) {
		console.error(`  ✗ ${(error as Error).message}`);
		console.log(`${stage} stage: ${seconds(Date.now() - started)}`);
		return undefined;
	}
	console.log(
		`  n8n ${runtime.version} on Node ${runtime.nodeVersion} (${runtime.binDir}/node) from ${runtime.dir} (${seconds(Date.now() - t)})`,
	);

	const work = mkdtempSync(join(tmpdir(), `ad-cabinet-${stage}-`));
	const userFolder = join(work, 'n8n-user');
	t = Date.now();
	const installedAt = installPackage(userFolder, mode, runtime.binDir);
	const how =
		mode === 'pack'
			? `packed and installed by the README's tarball commands (npm on Node ${runtime.nodeVersion})`
			: 'linked';
	console.log(`  ${pkg.name}@${pkg.version} ${how} at ${installedAt} (${seconds(Date.now() - t)})`);
	return { runtime, work, userFolder, installedAt };
}

/**
 * The closing every stage shares: the tally, the work folder kept when a check failed or `--keep`
 * was given (removed otherwise), and `<stage> stage: …`. Returns the exit code.
 */
export function finishStage(options: {
	stage: string;
	started: number;
	checks: Checks;
	/** How the tally names where it ran, e.g. "n8n 2.41.1 queue mode". */
	ranIn: string;
	work: string;
	/** What the work folder holds, for the message that keeps it. */
	holds: string;
	keep: boolean;
}): number {
	const { checks, work } = options;
	const failed = checks.failed.length;
	const total = checks.results.length;
	console.log(`\n${total - failed}/${total} checks passed in ${options.ranIn}.`);
	if (failed || options.keep) console.log(`${options.holds} are in ${work}`);
	else rmSync(work, { recursive: true, force: true });
	console.log(`${options.stage} stage: ${seconds(Date.now() - options.started)}`);
	return failed ? 1 : 0;
}

/**
 * Runs a stage's main function as the process: its exit code, and every n8n (and other) process
 * group stopped on SIGINT/SIGTERM or a crash. `onSignal` runs first (e.g. to close a browser).
 */
export function runStage(
	main: () => Promise<number>,
	onSignal?: (signal: NodeJS.Signals) => void,
): void {
	for (const signal of ['SIGINT', 'SIGTERM'] as const) {
		process.on(signal, () => {
			onSignal?.(signal);
			killAll();
			process.exit(130);
		});
	}
	main().then(
		(code) => process.exit(code),
		(error: Error) => {
			console.error(error.stack ?? error.message);
			killAll();
			process.exit(1);
		},
	);
}

/** An n8n session over the stage's user folder, on free ports. */
export async function stageSession(
	setUp: StageSetup,
	extraEnv?: Record<string, string>,
): Promise<N8nSession> {
	return new N8nSession({
		runtime: setUp.runtime,
		workDir: setUp.work,
		userFolder: setUp.userFolder,
		port: await freePort(),
		brokerPort: await freePort(),
		extraEnv,
	});
}

const DAY_MS = 86_400_000;

/**
 * Runs that compare whole days do not start within `minutes` of midnight (UTC), the most a stage's
 * runs take: this waits it out.
 */
export async function awayFromMidnight(minutes = 4): Promise<void> {
	const left = DAY_MS - (Date.now() % DAY_MS);
	if (left > minutes * 60_000) return;
	console.log(
		`  waiting ${seconds(left + 5_000)} for the day to turn (the runs compare whole days)`,
	);
	await new Promise((resolve) => setTimeout(resolve, left + 5_000));
}

/** How a stage that runs in a network namespace of its own hands its set-up to the run inside. */
export interface NamespacedStage {
	name: string;
	/** The service's hosts that the namespace's hosts file sends to 127.0.0.1. */
	hosts: string[];
	/** The variable that carries the set-up (JSON) into the namespace. */
	setupEnv: string;
	/** Set in the namespace's process, so that the stage knows it is inside. */
	inside: string;
}

/**
 * Outside the namespace: n8n and the package (which may need the npm registry); then the same
 * script again inside the namespace, which reads the set-up with `setUpInside`.
 */
export async function runOutsideNamespace(stage: NamespacedStage): Promise<number> {
	const started = Date.now();
	const refusal = namespaceRefusal();
	if (refusal) {
		console.error(`  ✗ the ${stage.name} stage cannot run here: ${refusal}`);
		return 1;
	}
	console.log('\n▶ n8n and the package');
	const setUp = setUpStage(stage.name, started);
	if (!setUp) return 1;
	console.log(
		`\n▶ A network namespace: loopback only, ${stage.hosts.join(' and ')} → 127.0.0.1 in its own /etc/hosts`,
	);
	return await runInNamespace(
		setUp.work,
		stage.hosts,
		{ [stage.setupEnv]: JSON.stringify({ ...setUp, started }) },
		stage.inside,
	);
}

/** Inside the namespace: the set-up made outside, with the time the stage started. */
export function setUpInside(stage: NamespacedStage): StageSetup & { started: number } {
	return JSON.parse(process.env[stage.setupEnv] ?? '{}') as StageSetup & { started: number };
}
