/**
 * `npm run test:registry`: the package installed by n8n's own installer from an npm registry, as a
 * user installs it from npmjs.org once it is published.
 *
 *  1. n8n 2.41.1 and 1.123.81 from the cache (scripts/lib/install-n8n.sh), and which
 *     community-package settings each reads (envNames.ts).
 *  2. Verdaccio (pinned, from the npm registry into the cache: install-verdaccio.sh) on 127.0.0.1;
 *     this repository packed and the tarball published to it with `npm publish`.
 *  3. n8n 2.41.1, Settings → Community Nodes (settings.ts): Install, the nodes served and the
 *     example run, the patch version published and Update, the example again, Uninstall.
 *  4. n8n 2.41.1 started with N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV and N8N_COMMUNITY_PACKAGES
 *     (environment.ts), and in queue mode with PostgreSQL, Redis and workers (queue.ts).
 *  5. n8n 1.123.81, Settings → Community Nodes, the same cycle.
 *
 * Every step prints its start time and length; `registry stage: …` closes. Once n8n is installed
 * the stage is stopped (every process with it) if it runs past 12 minutes. n8n runs with
 * E2E_TESTS=true where a registry other than npmjs.org must be allowed: see settings.ts.
 * Flags: --keep (keep the work folder: user folders, logs, the registry's storage),
 * --only=2 or --only=1 (one n8n line).
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Sandbox } from '../../sandbox';
import { Checks } from '../lib/checks';
import { repoPackageJson } from '../lib/installPackage';
import { killAll } from '../lib/processes';
import { getAgainIfClosed } from '../lib/rest';
import { REPO_ROOT, ensureN8n, type N8nRuntime } from '../lib/runtime';
import { finishStage, runStage, step } from '../lib/stage';
import { npmCacheOf, type StageContext } from './context';
import { COMMUNITY_PACKAGE_SETTINGS, settingsRead } from './envNames';
import { environmentFlow } from './environment';
import { queueFlow } from './queue';
import { settingsFlow } from './settings';
import { startVerdaccio, type LocalRegistry } from '../lib/verdaccio';

const args = process.argv.slice(2);
const only = args.find((a) => a.startsWith('--only='))?.split('=')[1];
const LINES = { current: '2.41.1', previous: '1.123.81' };
/** Once n8n is installed, the whole stage takes about 3 minutes; past this it is stopped. */
const BUDGET_MS = 12 * 60_000;

/** x.y.z → x.y.(z+1) */
function nextPatch(version: string): string {
	const [major, minor, patch] = version.split(/[.-]/).map(Number);
	return `${major}.${minor}.${patch + 1}`;
}

/** `npm pack` of this repository into `dir`, with npm's cache in `npmCache`: the tarball's path. */
function packRepository(dir: string, npmCache: string): string {
	const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], {
		cwd: REPO_ROOT,
		env: { ...process.env, npm_config_cache: npmCache },
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
		timeout: 120_000,
	});
	const [{ filename }] = JSON.parse(out) as Array<{ filename: string }>;
	return join(dir, filename);
}

/** The tarball unpacked with its version raised to `version`: the folder to publish. */
function patchRelease(tarball: string, dir: string, version: string): string {
	mkdirSync(dir, { recursive: true });
	execFileSync('tar', ['xzf', tarball, '-C', dir]);
	const folder = join(dir, 'package');
	const file = join(folder, 'package.json');
	const pkg = JSON.parse(readFileSync(file, 'utf8')) as { version: string };
	pkg.version = version;
	writeFileSync(file, `${JSON.stringify(pkg, null, '\t')}\n`);
	return folder;
}

function printSettings(runtimes: N8nRuntime[]): void {
	const read = runtimes.map((r) => settingsRead(r));
	const width = Math.max(...COMMUNITY_PACKAGE_SETTINGS.map((s) => s.name.length));
	console.log(
		`  ${'setting'.padEnd(width)}  ${runtimes.map((r) => r.version.padEnd(8)).join('  ')}`,
	);
	for (const { name, does } of COMMUNITY_PACKAGE_SETTINGS) {
		const cells = read.map((set) => (set.has(name) ? 'read' : '—').padEnd(8)).join('  ');
		console.log(`  ${name.padEnd(width)}  ${cells}  ${does}`);
	}
}

async function main(): Promise<number> {
	const started = Date.now();
	const checks = new Checks();
	const pkg = repoPackageJson();
	const work = mkdtempSync(join(tmpdir(), 'ad-cabinet-registry-'));
	const lines = [LINES.current, LINES.previous].filter(
		(line) => !only || line.startsWith(`${only}.`),
	);
	let registry: LocalRegistry | undefined;
	let sandbox: Sandbox | undefined;
	let twin: Sandbox | undefined;
	const ranIn: string[] = [];
	try {
		const runtimes = await step(started, `n8n ${lines.join(' and ')} from the cache`, async () => {
			const found = lines.map((line) => ensureN8n(line));
			for (const r of found)
				console.log(`  n8n ${r.version} on Node ${r.nodeVersion} from ${r.dir}`);
			return found;
		});
		// Every wait below has its own time limit; this bounds the sum, with every process stopped.
		setTimeout(() => {
			console.error(
				`\nregistry stage: still running after ${BUDGET_MS / 60_000} minutes; stopping`,
			);
			killAll();
			process.exit(1);
		}, BUDGET_MS).unref();
		await step(
			started,
			'community-package settings each n8n reads (its compiled config)',
			async () => printSettings(runtimes),
		);

		const versions = { first: pkg.version, patch: nextPatch(pkg.version) };
		const publishDir = join(work, 'publish');
		mkdirSync(publishDir, { recursive: true });
		let patchPublished = false;
		const ctxRegistry = await step(
			started,
			'local npm registry: Verdaccio, and npm publish of the packed tarball',
			async () => {
				registry = await startVerdaccio(
					join(work, 'verdaccio'),
					runtimes[0].binDir,
					npmCacheOf(work),
				);
				console.log(`  Verdaccio ${registry.version} on ${registry.url} (no uplink)`);
				const tarball = packRepository(publishDir, npmCacheOf(work));
				registry.publish(tarball);
				await checks.check(
					`npm publish: the registry serves ${pkg.name}@${versions.first}, byte for byte the packed tarball`,
					async () => {
						const doc = await (registry ?? assert.fail()).packument(pkg.name);
						assert.deepEqual(Object.keys(doc.versions), [versions.first]);
						assert.equal(doc['dist-tags'].latest, versions.first);
						const served = await getAgainIfClosed(doc.versions[versions.first].dist.tarball);
						const bytes = Buffer.from(await served.arrayBuffer());
						assert.ok(
							bytes.equals(readFileSync(tarball)),
							'the served tarball differs from the packed one',
						);
					},
				);
				return { registry, tarball };
			},
		);
		const publishPatch = (): void => {
			if (patchPublished) return;
			const folder = patchRelease(
				ctxRegistry.tarball,
				join(publishDir, versions.patch),
				versions.patch,
			);
			ctxRegistry.registry.publish(folder);
			patchPublished = true;
			console.log(
				`  published ${pkg.name}@${versions.patch} (the same files, version raised) to the local registry`,
			);
		};

		const now = new Date(Math.floor(Date.now() / 60_000) * 60_000);
		sandbox = await Sandbox.start({ now, clock: 'frozen' });
		twin = await Sandbox.start({ now, clock: 'frozen' });
		const ctx: StageContext = {
			checks,
			pkg,
			registry: ctxRegistry.registry,
			versions,
			publishPatch,
			sandbox,
			twin,
			work,
			started,
		};

		for (const runtime of runtimes) {
			const current = runtime.version === LINES.current;
			// The first line installs the version packed from here and updates to the patch; a later line
			// finds the patch already published and pins the first version in the Install dialog.
			await settingsFlow(ctx, runtime, {
				installSpec: patchPublished ? `${pkg.name}@${versions.first}` : pkg.name,
				envListWithoutManaged: current
					? JSON.stringify([{ name: pkg.name, version: versions.patch }])
					: undefined,
				beforeUpdate: publishPatch,
			});
			ranIn.push(`${runtime.version} (Settings)`);
			if (current) {
				await environmentFlow(ctx, runtime);
				await queueFlow(ctx, runtime);
				ranIn.push(`${runtime.version} (environment, queue mode)`);
			}
		}
	} catch (error) {
		checks.fail('registry stage', (error as Error).stack ?? String(error));
	} finally {
		await sandbox?.stop();
		await twin?.stop();
		await registry?.stop();
	}
	return finishStage({
		stage: 'registry',
		started,
		checks,
		ranIn: `n8n ${ranIn.join(', ') || lines.join(', ')} from a local registry`,
		work,
		holds: "n8n's user folders, logs and the registry's storage",
		keep: args.includes('--keep'),
	});
}

runStage(main);
