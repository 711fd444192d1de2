/**
 * What the registry stage's flows share: the local registry and the published versions, the
 * sandbox API (and its twin for the harness), the example workflow run after each install, timed
 * steps, and a few readings of a running n8n.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Sandbox } from '../../sandbox';
import { credentialsFor } from '../../harness/sandbox';
import type { Checks } from '../lib/checks';
import type { PackageJson } from '../lib/installPackage';
import { readLog, type LogEntry } from '../lib/logs';
import { freePort } from '../lib/processes';
import type { N8nRest } from '../lib/rest';
import type { N8nRuntime } from '../lib/runtime';
import { N8nSession, type CommandLog } from '../lib/session';
import { checkExampleByRest, createExampleByRest } from '../lib/restExample';
import type { Example } from '../lib/workflows';
import type { LocalRegistry } from '../lib/verdaccio';

/** The example run after each install: a manual trigger, our Stats node, Convert to File. */
const EXAMPLE_FILE = 'stats-to-csv.json';

export interface StageContext {
	checks: Checks;
	pkg: PackageJson;
	registry: LocalRegistry;
	/** The version packed from this repository, and the patch release made from it. */
	versions: { first: string; patch: string };
	/** Publishes the patch version once (the Settings flow on the first n8n line does it). */
	publishPatch(): void;
	sandbox: Sandbox;
	twin: Sandbox;
	work: string;
	started: number;
}

/** A session on a fresh user folder in `<work>/<label>`, on free ports. */
export async function newSession(
	ctx: StageContext,
	runtime: N8nRuntime,
	label: string,
	extraEnv: Record<string, string>,
	userFolder?: string,
): Promise<N8nSession> {
	const workDir = join(ctx.work, label);
	return new N8nSession({
		runtime,
		workDir,
		userFolder: userFolder ?? join(workDir, 'n8n-user'),
		port: await freePort(),
		brokerPort: await freePort(),
		extraEnv,
	});
}

/**
 * npm's cache for everything npm does in this run (n8n's installer, `npm pack`, `npm publish`): in
 * the work folder, so that each run starts as the first on a fresh machine. In ~/.npm it would keep
 * the tarballs of the versions published here (the same bytes in every run), and a later run's
 * installs would no longer fetch them, as no user's would.
 */
export function npmCacheOf(work: string): string {
	return join(work, 'npm-cache');
}

/**
 * n8n's registry pointed at the local one: N8N_COMMUNITY_PACKAGES_REGISTRY is what n8n passes to
 * `npm pack`/`npm install` and asks for versions; npm's cache is the run's own.
 */
export function registryEnv(ctx: StageContext): Record<string, string> {
	return {
		N8N_COMMUNITY_PACKAGES_REGISTRY: ctx.registry.url,
		npm_config_cache: npmCacheOf(ctx.work),
	};
}

/**
 * The list's Update badge comes from `npm outdated`, which n8n runs in `.n8n/nodes` with npm's own
 * settings and no --registry (n8n 1.x also without HOME or any npm_config_ variable, so ~/.npmrc is
 * not read): an .npmrc in that folder names the local registry for it, as an administrator with a
 * private registry would, and the run's own npm cache.
 */
export function pointNpmAtRegistry(ctx: StageContext, userFolder: string): void {
	const nodes = join(userFolder, '.n8n', 'nodes');
	mkdirSync(nodes, { recursive: true });
	writeFileSync(
		join(nodes, '.npmrc'),
		`registry=${ctx.registry.url}/\ncache=${npmCacheOf(ctx.work)}\n`,
	);
}

/** Node types of this package that a running n8n serves to its editor. */
export async function servedTypes(rest: N8nRest, packageName: string): Promise<string[]> {
	const types = await rest.typeFile<Array<{ name: string }>>('/types/nodes.json');
	return [
		...new Set(types.map((t) => t.name).filter((n) => n.startsWith(`${packageName}.`))),
	].sort();
}

/** The entries of one command's log whose message matches. */
export function logLines(log: CommandLog, pattern: RegExp): LogEntry[] {
	return readLog(log.logFile).filter((entry) => pattern.test(entry.message));
}

/**
 * The sandbox credential and the example, created through the REST API as the editor saves them
 * (nothing imported by the CLI, so the package can be absent when they are made).
 */
export async function createExample(ctx: StageContext, rest: N8nRest): Promise<Example> {
	const { example } = await createExampleByRest(rest, EXAMPLE_FILE, credentialsFor(ctx.sandbox), {
		settings: { executionOrder: 'v1' },
		// n8n 1.x stores the flag from the body (2.x ignores it and keeps a new workflow inactive).
		active: false,
	});
	return example;
}

/** The example run in n8n and held to everything the e2e stage holds it to (see `checkExampleByRest`). */
export async function checkExampleRuns(
	ctx: StageContext,
	runtime: N8nRuntime,
	rest: N8nRest,
	userFolder: string,
	example: Example,
	how: string,
): Promise<void> {
	const { checks, sandbox, twin } = ctx;
	await checkExampleByRest({ checks, sandbox, twin, userFolder, runtime }, rest, example, how);
}
