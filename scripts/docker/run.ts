/**
 * `npm run test:docker`: the package in n8n running in Docker containers, the only way n8n 3 runs
 * self-hosted.
 *
 * Outside a network namespace (Debian's packages and the npm registry reachable):
 *  1. n8n 2.41.1 and Node 24 from the cache (install-n8n.sh), the Debian bookworm base made by
 *     debootstrap once (install-base.sh), npm's tarball, and this repository packed.
 * Then the same script inside a network and mount namespace of its own (scripts/lib/namespace.ts),
 * where everything below lives and ends with the stage:
 *  2. its own dockerd (daemon.ts): data, exec root, socket and pid file in the work folder; the
 *     base imported and docker/Dockerfile built (image.ts).
 *  3. the sandbox API on 127.0.0.1, reached from containers through the bridge (forward.ts).
 *  4. the documented Docker install run as written, then the nodes, the example, the files' owner,
 *     and a new container on the same volume (documentedFlow.ts).
 *  5. Verdaccio (scripts/lib/verdaccio.ts) serving the packed tarball, and Settings → Community
 *     Nodes inside containers: refused with N8N_UNVERIFIED_PACKAGES_ENABLED=false; with n8n
 *     2.41.1's default Install, the example, Update to a patch release, Uninstall (communityFlow.ts).
 *  6. queue mode in containers: PostgreSQL and Redis on the machine, main and a worker as containers;
 *     a worker with a volume of its own fails the run, one on main's volume runs it (queueFlow.ts).
 * dockerd, its containers and its data folder are removed at the end, whatever happened.
 *
 * The namespace is what lets the documented `docker run -p 5678:5678` run unchanged: the bridge,
 * the NAT rules Docker writes and port 5678 are the namespace's own, so nothing listens on the
 * machine's interfaces and no port or firewall rule meets another stage's.
 * Flags: --keep (keep the work folder: the volume's content and the logs; dockerd is stopped).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Sandbox } from '../../sandbox';
import { Checks } from '../lib/checks';
import { ensureDebianPackages } from '../lib/debianPackages';
import { repoPackageJson } from '../lib/installPackage';
import { namespaceRefusal, runInNamespace } from '../lib/namespace';
import { ensureN8n, REPO_ROOT, type N8nRuntime } from '../lib/runtime';
import { ensureVerdaccio, startVerdaccio, type LocalRegistry } from '../lib/verdaccio';
import { finishStage, runStage, seconds, step } from '../lib/stage';
import type { DockerContext } from './containers';
import { startDaemon, type Daemon } from './daemon';
import { communityFlow } from './communityFlow';
import { documentedLines, readDockerInstall } from './documented';
import { documentedFlow } from './documentedFlow';
import { queueFlow } from './queueFlow';
import { forwarders, type Forwarders } from './forward';
import { buildImage, IMAGE, prepareImage, type ImageInputs } from './image';

const args = process.argv.slice(2);
const SETUP_ENV = 'AD_CABINET_DOCKER_SETUP';
const INSIDE_ENV = 'AD_CABINET_DOCKER_INSIDE';

interface Setup {
	started: number;
	work: string;
	runtime: N8nRuntime;
	inputs: ImageInputs;
	tarballDir: string;
	tarball: string;
}

function packInto(dir: string): string {
	mkdirSync(dir, { recursive: true });
	const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], {
		cwd: REPO_ROOT,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
		timeout: 120_000,
	});
	return (JSON.parse(out) as Array<{ filename: string }>)[0].filename;
}

async function outside(): Promise<number> {
	const started = Date.now();
	const refusal = namespaceRefusal();
	if (refusal) {
		console.error(`  ✗ the docker stage cannot run here: ${refusal}`);
		return 1;
	}
	const work = mkdtempSync(join(tmpdir(), 'ad-cabinet-docker-'));
	const setup = await step(
		started,
		'n8n, Node 24, the Debian base and npm from the cache',
		async () => {
			ensureDebianPackages({ dockerd: 'docker.io', debootstrap: 'debootstrap' });
			const runtime = ensureN8n('2.41.1');
			console.log(`  n8n ${runtime.version} on Node ${runtime.nodeVersion} from ${runtime.dir}`);
			const inputs = prepareImage(runtime);
			ensureVerdaccio(runtime.binDir);
			console.log(
				`  Debian bookworm base ${inputs.baseTarball} (${inputs.baseMadeMs === undefined ? 'cached' : `made by debootstrap in ${seconds(inputs.baseMadeMs)}`})`,
			);
			const tarballDir = join(work, 'release');
			const tarball = packInto(tarballDir);
			console.log(`  ${tarball} packed into ${tarballDir}`);
			return { started, work, runtime, inputs, tarballDir, tarball } satisfies Setup;
		},
	);
	console.log(
		'\n▶ A network and mount namespace of its own: loopback, and the bridge dockerd makes',
	);
	const code = await runInNamespace(work, [], { [SETUP_ENV]: JSON.stringify(setup) }, INSIDE_ENV);
	if (code !== 0 || args.includes('--keep')) return code;
	rmSync(work, { recursive: true, force: true });
	return code;
}

/** The address of Docker's default bridge (docker0) in the namespace: the machine, for containers. */
function bridgeAddress(): string {
	const shown = execFileSync('ip', ['-4', '-o', 'addr', 'show', 'docker0'], { encoding: 'utf8' });
	const address = /inet (\d+\.\d+\.\d+\.\d+)\//.exec(shown)?.[1];
	if (!address) throw new Error(`docker0 has no IPv4 address: ${shown}`);
	return address;
}

async function inside(): Promise<number> {
	const setup = JSON.parse(process.env[SETUP_ENV] ?? '{}') as Setup;
	const { started, work, runtime } = setup;
	const checks = new Checks();
	const pkg = repoPackageJson();
	let daemon: Daemon | undefined;
	let bridge: Forwarders | undefined;
	let sandbox: Sandbox | undefined;
	let twin: Sandbox | undefined;
	let registry: LocalRegistry | undefined;
	try {
		daemon = await step(started, 'dockerd of its own, and the image', async () => {
			const d = await startDaemon(work);
			console.log(
				`  docker client ${d.versions.client}, dockerd ${d.versions.server} on ${d.host}`,
			);
			const built = await buildImage(d, setup.inputs, work);
			console.log(
				`  ${IMAGE}: base imported in ${seconds(built.importMs)}, docker/Dockerfile built in ${seconds(built.buildMs)}, ${(built.size / 1_000_000).toFixed(0)} MB`,
			);
			return d;
		});
		bridge = forwarders(bridgeAddress());
		const now = new Date(Math.floor(Date.now() / 60_000) * 60_000);
		sandbox = await Sandbox.start({ platform: 'telegram', now, clock: 'frozen' });
		twin = await Sandbox.start({ platform: 'telegram', now, clock: 'frozen' });
		console.log(
			`  sandbox API on ${sandbox.baseUrl}, for containers ${await bridge.url(sandbox.baseUrl)}`,
		);
		const ctx: DockerContext = {
			checks,
			pkg,
			runtime,
			daemon,
			image: IMAGE,
			bridge,
			sandbox,
			twin,
			work,
			tarballDir: setup.tarballDir,
			started,
		};
		const install = readDockerInstall(documentedLines(), setup.tarball);
		await documentedFlow(ctx, install);

		registry = await startVerdaccio(
			join(work, 'verdaccio'),
			runtime.binDir,
			join(work, 'npm-cache'),
		);
		registry.publish(join(setup.tarballDir, setup.tarball));
		console.log(
			`\n  Verdaccio ${registry.version} on ${registry.url} (no uplink), serving ${pkg.name}@${pkg.version}`,
		);
		const [major, minor, patch] = pkg.version.split(/[.-]/).map(Number);
		await communityFlow(ctx, {
			registry,
			tarball: join(setup.tarballDir, setup.tarball),
			first: pkg.version,
			patch: `${major}.${minor}.${patch + 1}`,
		});
		await queueFlow(ctx, install);
	} catch (error) {
		checks.fail('docker stage', (error as Error).stack ?? String(error));
	} finally {
		await sandbox?.stop();
		await twin?.stop();
		await registry?.stop();
		await bridge?.close();
		await daemon?.stop();
	}
	return finishStage({
		stage: 'docker',
		started,
		checks,
		ranIn: `n8n ${runtime.version} in Docker containers of ${IMAGE}`,
		work,
		holds: "the packed tarball, the registry's storage, PostgreSQL's and Redis's folders",
		keep: args.includes('--keep'),
	});
}

runStage(process.env[INSIDE_ENV] ? inside : outside);
