/**
 * `npm run test:e2e`: the package inside real n8n.
 *
 *  1. n8n (and Node 24) from the npm registry into the cache, once (install-n8n.sh). N8N_VERSION
 *     picks the n8n (2.41.1 by default, 1.123.81 for the 1.x line) and AD_CABINET_NODE=20 runs it on
 *     Node 20 instead, with PostgreSQL for its database (scripts/lib/runtime.ts says why).
 *  2. The built package packed and installed into a fresh n8n user folder by the README's own
 *     tarball commands (scripts/lib/installPackage.ts).
 *  3. The sandbox API in this process, a credential pointing at it, every example imported (the
 *     Telegram recipes of examples/alerts/ and reports/ with their delivery replaced, as
 *     telegramExpectations.ts says).
 *  4. Each example run by n8n (`n8n execute`, or a manual REST run for a workflow that starts with
 *     a polling trigger or a Schedule Trigger, which `n8n execute` does not run) and held
 *     to its entry in expectations.ts, to the in-process harness's output, and to its API requests.
 *  5. `n8n start`: the editor, the node and credential types it serves, icons, credential test.
 *  6. n8n's logs: the package loaded, no warning or error about it, no host name looked up.
 *  7. `npm run dev -- --smoke`: the development instance serves the editor with our nodes.
 *
 * Flags: --keep (keep the temp folder with n8n's user folder and logs), --link (symlink the
 * repository instead of installing the packed package), --no-dev-smoke.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { Sandbox } from '../../sandbox';
import { Checks } from '../lib/checks';
import { checkEditor } from '../lib/editorChecks';
import { credentialsFor } from '../../harness/sandbox';
import { checkExample, planExamples } from '../lib/exampleChecks';
import { EXPECTATIONS } from '../lib/expectations';
import { checkRerun, prepareTables } from '../lib/exampleRerun';
import { telegramRecipeExamples } from '../lib/telegramExpectations';
import { repoPackageJson } from '../lib/installPackage';
import { checkLogs } from './logChecks';
import { runManually } from '../lib/manualRun';
import { ownNodes } from '../lib/nodeTypes';
import { startPostgres, type Postgres } from '../lib/postgres';
import { freePort } from '../lib/processes';
import { REPO_ROOT } from '../lib/runtime';
import { finishStage, runStage, seconds, setUpStage, stageSession } from '../lib/stage';
import { listExamples } from '../lib/workflows';
import { join } from 'node:path';

const args = new Set(process.argv.slice(2));

/** `npm run dev -- --smoke` on free ports: its exit code and output. */
async function devSmoke(timeoutMs: number): Promise<{ code: number; output: string }> {
	const flags = ['--smoke', `--port=${await freePort()}`, `--sandbox-port=${await freePort()}`];
	return await new Promise((resolve) => {
		const child = spawn('npm', ['run', '--silent', 'dev', '--', ...flags], {
			cwd: REPO_ROOT,
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		const kill = (signal: NodeJS.Signals) => {
			try {
				if (child.pid) process.kill(-child.pid, signal);
			} catch {
				// gone
			}
		};
		const timer = setTimeout(() => {
			output += `\n(timed out after ${timeoutMs / 1000}s)`;
			kill('SIGINT');
			setTimeout(() => kill('SIGKILL'), 10_000).unref();
		}, timeoutMs);
		child.on('close', (code) => {
			clearTimeout(timer);
			resolve({ code: code ?? 1, output });
		});
	});
}

async function main(): Promise<number> {
	const started = Date.now();
	const checks = new Checks();
	const pkg = repoPackageJson();

	console.log('\n▶ n8n');
	const setUp = setUpStage('e2e', started, args.has('--link') ? 'link' : 'pack');
	if (!setUp) return 1;
	const { runtime, work, userFolder } = setUp;
	let t: number;

	// Both sandboxes start at the same frozen instant with the same seed: identical data and ids.
	// They speak the real service's form, as a credential without a platform does, with its rate limit.
	const now = new Date(Math.floor(Date.now() / 60_000) * 60_000);
	const sandbox = await Sandbox.start({ platform: 'telegram', now, clock: 'frozen' });
	const twin = await Sandbox.start({ platform: 'telegram', now, clock: 'frozen' });
	console.log(
		`  sandbox API for n8n on ${sandbox.baseUrl}, its twin for the harness on ${twin.baseUrl}`,
	);

	// n8n's SQLite driver is built for Node 24: on Node 20 n8n keeps its data in PostgreSQL.
	let postgres: Postgres | undefined;
	if (!runtime.sqlite) {
		postgres = await startPostgres(join(work, 'postgres'));
		console.log(`  PostgreSQL ${postgres.version} on 127.0.0.1:${postgres.port} for n8n's data`);
	}
	const session = await stageSession(setUp, postgres?.n8nEnv);
	// The Telegram recipes of examples/alerts/ and examples/reports/ too, their delivery replaced.
	const examples = [...listExamples(), ...telegramRecipeExamples()];
	const pollingTypes = new Set(
		ownNodes(pkg)
			.nodes.filter((n) => n.polling)
			.map((n) => n.type),
	);
	const setup = { checks, sandbox, twin, userFolder, runtime };
	try {
		console.log('\n▶ Import');
		await checks.check('the sandbox credential imports (n8n import:credentials)', async () => {
			await session.importCredential(credentialsFor(sandbox));
		});
		await checks.check(
			`${examples.length} example workflows import (n8n import:workflow)`,
			async () => {
				await session.importExamples(examples);
			},
		);

		console.log('\n▶ Examples (expectations: scripts/lib/expectations.ts)');
		const planned = await planExamples(checks, examples, EXPECTATIONS, pollingTypes, pkg.name);
		for (const entry of planned.filter((p) => !p.trigger)) {
			const run = async () => (await session.execute(entry.example)).run;
			await checkExample(setup, entry, run, 'n8n execute --id … --rawOutput');
		}

		console.log('\n▶ n8n start: editor and REST API');
		t = Date.now();
		const server = await session.startServer();
		console.log(`  n8n ready on ${server.url} (${seconds(Date.now() - t)})`);
		try {
			await checkEditor(checks, server.rest, sandbox, pkg, examples, runtime.version);
			for (const entry of planned.filter((p) => p.trigger)) {
				const trigger = entry.trigger ?? assert.fail();
				const edit = await prepareTables(checks, server.rest, entry, runtime.version);
				const run = async () =>
					await runManually(runtime, server.rest, entry.example, trigger, undefined, edit);
				await checkExample(
					setup,
					entry,
					run,
					`manual run from "${trigger.name}", as the editor does`,
				);
				await checkRerun(checks, sandbox, entry, run);
			}
		} finally {
			await server.stop();
		}

		console.log('\n▶ n8n logs');
		await checkLogs(checks, session, pkg);

		if (!args.has('--no-dev-smoke')) {
			console.log('\n▶ npm run dev -- --smoke');
			await checks.check(
				'`npm run dev` serves the editor with our nodes, credential and examples',
				async () => {
					const { code, output } = await devSmoke(300_000);
					const lines = output.trimEnd().split('\n');
					assert.equal(code, 0, `exit ${code}\n${lines.slice(-40).join('\n')}`);
				},
			);
		}
	} catch (error) {
		checks.fail('end-to-end stage', (error as Error).stack ?? String(error));
	} finally {
		await sandbox.stop();
		await twin.stop();
		if (postgres) await postgres.stop();
	}

	return finishStage({
		stage: 'e2e',
		started,
		checks,
		ranIn: `n8n ${runtime.version} on Node ${runtime.nodeVersion}${postgres ? ` with PostgreSQL ${postgres.version}` : ''}`,
		work,
		holds: "n8n's user folder, imports and logs",
		keep: args.has('--keep'),
	});
}

runStage(main);
