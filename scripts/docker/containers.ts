/**
 * What the stage's flows share: the daemon, the image, the sandbox (and its twin for the in-process
 * harness) seen through the bridge, timed steps, and readings of n8n running in a container.
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Sandbox } from '../../sandbox';
import { credentialsFor } from '../../harness/sandbox';
import type { Checks } from '../lib/checks';
import type { PackageJson } from '../lib/installPackage';
import { freePort } from '../lib/processes';
import { N8nRest } from '../lib/rest';
import type { N8nRuntime } from '../lib/runtime';
import { checkExampleByRest, createExampleByRest } from '../lib/restExample';
import type { Example } from '../lib/workflows';
import { describe, type Daemon } from './daemon';
import type { Forwarders } from './forward';

/** The example each flow runs: a manual trigger, the Stats node, Convert to File. */
const EXAMPLE_FILE = 'stats-to-csv.json';

export interface DockerContext {
	checks: Checks;
	pkg: PackageJson;
	/** n8n on this machine's cache: the helper libraries (flatted, xlsx) the checks read runs with. */
	runtime: N8nRuntime;
	daemon: Daemon;
	image: string;
	bridge: Forwarders;
	sandbox: Sandbox;
	twin: Sandbox;
	work: string;
	/** The folder holding the packed tarball, where the documented commands run. */
	tarballDir: string;
	started: number;
}

/**
 * Starts n8n (main, or `worker` as the command) in a container named `name` with `volume` as its
 * n8n folder and its port published on 127.0.0.1; `args` (environment and the like) go before the
 * image. Returns the published port.
 */
export async function startN8nContainer(
	ctx: DockerContext,
	name: string,
	volume: string,
	args: string[],
	...command: string[]
): Promise<number> {
	const port = await freePort();
	const started = await ctx.daemon.docker([
		'run',
		'-d',
		'--name',
		name,
		'-p',
		`127.0.0.1:${port}:5678`,
		'-v',
		`${volume}:/home/node/.n8n`,
		...args,
		ctx.image,
		...command,
	]);
	if (started.code !== 0) throw new Error(`docker run ${name} failed: ${describe(started)}`);
	return port;
}

/**
 * Waits until n8n in `container` answers on `url` (health, settings and the editor, as the other
 * stages wait), then signs in as the owner (made on a fresh volume).
 */
export async function n8nReady(
	ctx: DockerContext,
	container: string,
	url: string,
	timeoutMs = 180_000,
): Promise<N8nRest> {
	const deadline = Date.now() + timeoutMs;
	for (const path of ['/healthz/readiness', '/rest/settings', '/']) {
		for (;;) {
			const answer = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(5_000) }).catch(
				() => undefined,
			);
			if (answer?.status === 200) break;
			const state = await ctx.daemon.docker([
				'inspect',
				'--format',
				'{{.State.Status}}',
				container,
			]);
			if (Date.now() > deadline || !/running/.test(state.stdout)) {
				const logs = await ctx.daemon.docker(['logs', '--tail', '40', container]);
				throw new Error(
					`n8n in container ${container} did not answer ${url}${path} (${state.stdout.trim() || 'no such container'}):\n${describe(logs)}`,
				);
			}
			await new Promise((resolve) => setTimeout(resolve, 1_000));
		}
	}
	const rest = new N8nRest(url);
	await rest.signIn();
	return rest;
}

/** The host folder whose `.n8n` is the volume's content, as n8n's user folder in the container. */
export function volumeHome(ctx: DockerContext, volume: string): string {
	const home = join(ctx.work, `home-${volume}`);
	mkdirSync(home, { recursive: true });
	try {
		symlinkSync(join(ctx.daemon.dataRoot, 'volumes', volume, '_data'), join(home, '.n8n'));
	} catch {
		// made by an earlier flow on the same volume
	}
	return home;
}

/**
 * The sandbox credential and the example created through the REST API as the editor saves them,
 * the credential's URLs being the sandbox's as a container reaches it.
 */
export async function createExample(
	ctx: DockerContext,
	rest: N8nRest,
): Promise<{ example: Example; credentialId: string; baseUrl: string }> {
	const data = credentialsFor(ctx.sandbox);
	data.baseUrl = await ctx.bridge.url(data.baseUrl);
	data.clientApiUrl = await ctx.bridge.url(data.clientApiUrl);
	const made = await createExampleByRest(rest, EXAMPLE_FILE, data, {
		// The documented `docker run` sets no GENERIC_TIMEZONE, so the instance's timezone is n8n's
		// default (America/New_York); the workflow's own setting puts its days in UTC, the harness's.
		settings: { executionOrder: 'v1', timezone: 'UTC' },
	});
	return { ...made, baseUrl: data.baseUrl };
}

/**
 * The example run in the container as the editor's Execute workflow runs it, and held to what the
 * e2e stage holds it to (see `checkExampleByRest`).
 */
export async function checkExampleRuns(
	ctx: DockerContext,
	rest: N8nRest,
	userFolder: string,
	example: Example,
	how: string,
): Promise<void> {
	const { checks, sandbox, twin, runtime } = ctx;
	await checkExampleByRest(
		{ checks, sandbox, twin, userFolder, runtime },
		rest,
		example,
		how,
		180_000,
	);
}

/** The package's node types n8n lists, without their AI-tool twins (`…Tool`). */
export async function servedNodes(rest: N8nRest, name: string): Promise<string[]> {
	const types = await rest.typeFile<Array<{ name: string }>>('/types/nodes.json');
	const own = types
		.map((t) => t.name)
		.filter((n) => n.startsWith(`${name}.`) && !n.endsWith('Tool'));
	return [...new Set(own)].map((n) => n.slice(name.length + 1)).sort();
}
