/**
 * `npm run dev`: real n8n on http://127.0.0.1:5678 with this package linked in as a community node,
 * the sandbox API, an "Ad Cabinet sandbox" credential pointing at it and every example workflow
 * imported. `tsc --watch` runs alongside; after each successful rebuild n8n restarts and loads the
 * new dist/. Ctrl-C stops everything.
 *
 *   --port=N           n8n's port (default $N8N_PORT or 5678)
 *   --sandbox-port=N   the sandbox's port (default 5690; the credential points at it)
 *   --fresh            start from an empty n8n user folder (workflows and executions are kept otherwise)
 *   --no-watch         no tsc --watch / restarts
 *   --smoke            start everything in a temp folder, check the editor serves our nodes, stop
 *
 * The n8n user folder lives in <cache>/dev/n8n-user (cache: $AD_CABINET_CACHE or
 * ~/.cache/n8n-nodes-ad-cabinet), so workflows made in the editor survive restarts.
 */
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Sandbox } from '../../sandbox';
import { signInCredentialsFor } from '../../harness/sandbox';
import { Checks } from '../lib/checks';
import { installPackage, repoPackageJson } from '../lib/installPackage';
import { loadedNodeCount, readLog } from '../lib/logs';
import { checkEditor } from '../lib/editorChecks';
import { freePort, killAll } from '../lib/processes';
import { OWNER } from '../lib/rest';
import { cacheRoot, ensureN8n, REPO_ROOT } from '../lib/runtime';
import { N8nSession, type N8nServer } from '../lib/session';
import { listExamples, SANDBOX_CREDENTIAL } from '../lib/workflows';

interface DevArgs {
	port: number;
	sandboxPort: number;
	fresh: boolean;
	watch: boolean;
	smoke: boolean;
}

function parseArgs(argv: string[]): DevArgs {
	const value = (name: string): string | undefined =>
		argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
	const number = (name: string, fallback: number): number => {
		const raw = value(name);
		const parsed = raw === undefined ? fallback : Number(raw);
		if (!Number.isInteger(parsed) || parsed <= 0 || parsed > 65535)
			throw new Error(`--${name} must be a port number`);
		return parsed;
	};
	const known = /^--(port|sandbox-port)=|^--(fresh|no-watch|smoke)$/;
	const unknown = argv.filter((a) => !known.test(a));
	if (unknown.length)
		throw new Error(`Unknown argument(s) ${unknown.join(' ')}; see scripts/dev/run.ts`);
	return {
		port: number('port', Number(process.env.N8N_PORT ?? 5678)),
		sandboxPort: number('sandbox-port', 5690),
		fresh: argv.includes('--fresh'),
		watch: !argv.includes('--no-watch') && !argv.includes('--smoke'),
		smoke: argv.includes('--smoke'),
	};
}

async function assertPortFree(port: number, what: string): Promise<void> {
	await new Promise<void>((resolve, reject) => {
		const server = createServer();
		server.once('error', () =>
			reject(
				new Error(
					`Port ${port} (${what}) is in use: stop what holds it or pass --${what === 'n8n' ? 'port' : 'sandbox-port'}=N`,
				),
			),
		);
		server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
	});
}

function prefixed(prefix: string): (chunk: string) => void {
	return (chunk) => {
		for (const line of chunk.split('\n'))
			if (line.trim()) process.stdout.write(`${prefix} ${line}\n`);
	};
}

/** `tsc --watch` on the build config; calls `onBuilt` after every successful compilation but the first. */
function startTscWatch(onFirst: () => void, onBuilt: () => void): ChildProcess {
	const tsc = spawn(
		process.execPath,
		[
			require.resolve('typescript/bin/tsc'),
			'-p',
			'tsconfig.build.json',
			'--watch',
			'--preserveWatchOutput',
		],
		{ cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
	);
	let first = true;
	tsc.stdout?.on('data', (chunk: Buffer) => {
		for (const line of chunk.toString().split('\n')) {
			const text = line.replace(/\x1b\[[0-9;]*m/g, '').trim(); // eslint-disable-line no-control-regex
			if (!text) continue;
			const summary = /Found (\d+) errors?\. Watching for file changes/.exec(text);
			if (!summary) {
				if (/error TS\d+/.test(text)) process.stdout.write(`[tsc] ${text}\n`);
				continue;
			}
			const errors = Number(summary[1]);
			if (first) {
				first = false;
				onFirst();
			} else if (errors === 0) {
				process.stdout.write('[tsc] rebuilt dist/ with no errors: restarting n8n to load it\n');
				onBuilt();
			} else {
				process.stdout.write(`[tsc] ${errors} error(s): n8n keeps running the previous build\n`);
			}
		}
	});
	return tsc;
}

/** `--smoke`: what a developer would see in the browser, checked over HTTP. */
async function smokeChecks(
	server: N8nServer,
	sandbox: Sandbox,
	n8nVersion: string,
): Promise<number> {
	const checks = new Checks();
	const pkg = repoPackageJson();
	await checkEditor(checks, server.rest, sandbox, pkg, listExamples(), n8nVersion);
	await checks.check(
		`n8n loaded all ${pkg.n8n.nodes.length} nodes from the linked repository`,
		() => {
			assert.equal(loadedNodeCount(readLog(server.log.logFile), pkg.name), pkg.n8n.nodes.length);
		},
	);
	return checks.failed.length;
}

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	await assertPortFree(args.port, 'n8n');
	await assertPortFree(args.sandboxPort, 'sandbox');
	const runtime = ensureN8n();
	const workDir = args.smoke
		? mkdtempSync(join(tmpdir(), 'ad-cabinet-dev-smoke-'))
		: join(cacheRoot(), 'dev');
	const userFolder = join(workDir, 'n8n-user');
	if (args.fresh) rmSync(workDir, { recursive: true, force: true });
	mkdirSync(workDir, { recursive: true });
	rmSync(join(workDir, 'logs'), { recursive: true, force: true }); // this run's logs only
	installPackage(userFolder, 'link');

	// The real service's form, with its rate limit.
	const sandbox = await Sandbox.start({
		platform: 'telegram',
		port: args.sandboxPort,
		clock: 'real',
	});
	const session = new N8nSession({
		runtime,
		workDir,
		userFolder,
		port: args.port,
		brokerPort: await freePort(),
		// The smoke test reads n8n's JSON debug log; a developer reads n8n's console.
		extraEnv: args.smoke
			? {}
			: { N8N_LOG_OUTPUT: 'console,file', N8N_LOG_FORMAT: 'text', N8N_LOG_LEVEL: 'info' },
		echo: args.smoke ? undefined : prefixed('[n8n]'),
	});
	let server: N8nServer | undefined;
	let tsc: ChildProcess | undefined;
	let stopping = false;
	const shutdown = async (code: number): Promise<never> => {
		stopping = true;
		tsc?.kill('SIGTERM');
		await server?.stop();
		await sandbox.stop();
		if (args.smoke) rmSync(workDir, { recursive: true, force: true });
		process.exit(code);
	};
	process.on('SIGINT', () => void shutdown(0));
	process.on('SIGTERM', () => void shutdown(0));

	try {
		const examples = listExamples();
		// Username and password, as a user of the real service fills it in: n8n signs in and renews.
		await session.importCredential(signInCredentialsFor(sandbox));
		await session.importExamples(examples);
		if (args.watch) {
			// n8n starts once the watcher's first compilation has rewritten dist/, never during it.
			await new Promise<void>((resolve) => {
				let restarting = Promise.resolve();
				tsc = startTscWatch(resolve, () => {
					restarting = restarting.then(async () => {
						if (stopping || !server) return;
						await server.stop();
						server = await session.startServer();
						await server.rest.signIn();
						process.stdout.write(`n8n restarted with the new build: ${server.url}\n`);
					});
				});
			});
		}
		server = await session.startServer();
		await server.rest.signIn();
		if (args.smoke) {
			const failures = await smokeChecks(server, sandbox, runtime.version);
			console.log(
				failures ? `npm run dev --smoke: ${failures} check(s) failed` : 'npm run dev --smoke: ok',
			);
			await shutdown(failures ? 1 : 0);
		}
		console.log(`
n8n ${runtime.version} is running with ${repoPackageJson().name} linked from ${REPO_ROOT}

  Editor       ${server.url}
  Sign in      ${OWNER.email} / ${OWNER.password}
  Sandbox API  base ${sandbox.baseUrl} · client ${sandbox.clientApiUrl} · token ${sandbox.token}
  Credential   "${SANDBOX_CREDENTIAL.name}": username ${sandbox.username} / ${sandbox.password} (n8n signs in and renews the token)
  Examples     ${examples.map((e) => `${server?.url}/workflow/${e.id}  ${e.workflow.name} (${e.file})`).join('\n               ')}

  ${args.watch ? 'tsc --watch is running: each successful rebuild restarts n8n with the new dist/.' : 'Rebuild with `npm run build`, then restart with `npm run dev`.'}
  Icons are copied by \`npm run build\` only. n8n's data: ${userFolder} (\`--fresh\` empties it)
  Ctrl-C stops ${args.watch ? 'n8n, the sandbox and tsc' : 'n8n and the sandbox'}.
`);
	} catch (error) {
		console.error((error as Error).message);
		killAll();
		await shutdown(1);
	}
}

main().catch((error: Error) => {
	console.error(error.message);
	killAll();
	process.exit(1);
});
