/**
 * The image the stage runs: docker/Dockerfile over a Debian bookworm base. Outside the stage's
 * network namespace (where Debian's packages and the npm registry are reachable) `prepareImage`
 * makes sure the cache holds what the build needs: the debootstrap tarball (install-base.sh), npm's
 * tarball, and n8n with Node 24 (install-n8n.sh). Inside, `buildImage` imports the base and builds
 * the Dockerfile from a context in the work folder.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cacheRoot, REPO_ROOT, type N8nRuntime } from '../lib/runtime';
import { describe, run, type Daemon } from './daemon';

/** npm for the image: the `node` package of the npm registry carries none. */
const NPM_VERSION = '11.19.1';
const BASE_IMAGE = 'ad-cabinet/debian-base:bookworm';
/** The tag the stage gives its image; the documented commands name n8n's image instead. */
export const IMAGE = 'ad-cabinet/n8n:2.41.1';

export interface ImageInputs {
	baseTarball: string;
	/** Whether this run made the base (no cached tarball), and how long that took. */
	baseMadeMs?: number;
	npmTarball: string;
	/** Node's distribution folder (bin/node, include/, share/). */
	nodeDist: string;
	/** n8n's node_modules (n8n and every dependency, hoisted). */
	n8nModules: string;
}

function baseTarball(): { path: string; madeMs?: number } {
	const cached = join(cacheRoot(), 'docker-base-bookworm.tar');
	const started = Date.now();
	const made = !existsSync(cached);
	const result = spawnSync('bash', [join(REPO_ROOT, 'scripts', 'docker', 'install-base.sh')], {
		env: { ...process.env, AD_CABINET_CACHE: cacheRoot() },
		stdio: ['ignore', 'pipe', 'inherit'],
		encoding: 'utf8',
		timeout: 20 * 60_000,
	});
	if (result.status !== 0) {
		throw new Error(
			`install-base.sh failed (${result.error?.message ?? `exit ${result.status}`}); it needs debootstrap and Debian's package servers`,
		);
	}
	const path = result.stdout.trim().split('\n').pop() ?? '';
	return { path, madeMs: made ? Date.now() - started : undefined };
}

function npmTarball(runtime: N8nRuntime): string {
	const file = join(cacheRoot(), `npm-${NPM_VERSION}.tgz`);
	if (existsSync(file)) return file;
	const dir = join(cacheRoot(), `.npm-${NPM_VERSION}.partial`);
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	// The machine's settings (proxy, certificates) but none of those `npm run` passes down.
	const env: NodeJS.ProcessEnv = { PATH: `${runtime.binDir}:${process.env.PATH ?? ''}` };
	for (const [key, value] of Object.entries(process.env)) {
		if (key !== 'PATH' && !key.startsWith('npm_')) env[key] = value;
	}
	const out = execFileSync('npm', ['pack', '--json', `npm@${NPM_VERSION}`], {
		cwd: dir,
		env,
		encoding: 'utf8',
		timeout: 120_000,
	});
	const [{ filename }] = JSON.parse(out) as Array<{ filename: string }>;
	cpSync(join(dir, filename), file);
	rmSync(dir, { recursive: true, force: true });
	return file;
}

/** Outside the namespace: everything the build takes from the cache, made when missing. */
export function prepareImage(runtime: N8nRuntime): ImageInputs {
	const base = baseTarball();
	const nodeDist = dirname(dirname(realpathSync(join(runtime.binDir, 'node'))));
	return {
		baseTarball: base.path,
		baseMadeMs: base.madeMs,
		npmTarball: npmTarball(runtime),
		nodeDist,
		n8nModules: runtime.modulesDir,
	};
}

/**
 * One tarball of what goes under /usr/local: Node's bin/, include/ and share/, and n8n's
 * node_modules as lib/node_modules (the Dockerfile says why one file).
 */
async function usrLocalTarball(inputs: ImageInputs, file: string): Promise<void> {
	const made = await run(
		'tar',
		[
			'-cf',
			file,
			'-C',
			inputs.nodeDist,
			'bin',
			'include',
			'share',
			'-C',
			dirname(inputs.n8nModules),
			'--transform',
			's,^node_modules,lib/node_modules,',
			'node_modules',
		],
		process.env,
		{ timeoutMs: 600_000 },
	);
	if (made.code !== 0) throw new Error(`tar of Node and n8n failed: ${describe(made)}`);
}

interface BuiltImage {
	importMs: number;
	buildMs: number;
	/** The image's size as `docker image inspect` gives it, in bytes. */
	size: number;
}

/** Inside the namespace: the base imported and the Dockerfile built, as IMAGE. */
export async function buildImage(
	daemon: Daemon,
	inputs: ImageInputs,
	work: string,
): Promise<BuiltImage> {
	let t = Date.now();
	const imported = await daemon.docker(['import', inputs.baseTarball, BASE_IMAGE], {
		timeoutMs: 300_000,
	});
	if (imported.code !== 0)
		throw new Error(`docker import of the base failed: ${describe(imported)}`);
	const importMs = Date.now() - t;

	t = Date.now();
	const context = join(work, 'image-context');
	rmSync(context, { recursive: true, force: true });
	mkdirSync(context, { recursive: true });
	for (const file of readdirSync(join(REPO_ROOT, 'docker'))) {
		cpSync(join(REPO_ROOT, 'docker', file), join(context, file));
	}
	await usrLocalTarball(inputs, join(context, 'usr-local.tar'));
	cpSync(inputs.npmTarball, join(context, 'npm.tgz'));
	const built = await daemon.docker(
		['build', '--build-arg', `BASE_IMAGE=${BASE_IMAGE}`, '-t', IMAGE, context],
		{ timeoutMs: 900_000 },
	);
	rmSync(context, { recursive: true, force: true });
	if (built.code !== 0) throw new Error(`docker build failed: ${describe(built)}`);
	const buildMs = Date.now() - t;
	const size = Number(
		(await daemon.docker(['image', 'inspect', '--format', '{{.Size}}', IMAGE])).stdout.trim(),
	);
	return { importMs, buildMs, size };
}
