/**
 * Puts this package where n8n loads community nodes from: `<user folder>/.n8n/nodes/node_modules`.
 *
 * - 'pack' (every real-n8n stage) does what a user does with the release tarball: `npm pack`, the
 *   tarball in the home folder, then the README's own commands, taken verbatim from between its
 *   `<!-- tarball-install:start -->` and `<!-- tarball-install:end -->` markers and run by bash with
 *   HOME set to the stage's n8n user folder, the npm and Node that run n8n first on PATH, and none
 *   of this repository's npm settings. It fails when the block is missing, a command fails, or npm
 *   put anything beside the package (a second n8n-workflow from the peer dependency, say): the nodes
 *   must resolve `n8n-workflow` to n8n's own copy, as for a user.
 * - 'link' (`npm run dev`) symlinks that folder to the repository, so a rebuild of dist/ is what n8n
 *   loads on its next start.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './runtime';

export interface PackageJson {
	name: string;
	version: string;
	dependencies?: Record<string, string>;
	devDependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	optionalDependencies?: Record<string, string>;
	n8n: { nodes: string[]; credentials: string[] };
}

export function repoPackageJson(): PackageJson {
	return JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as PackageJson;
}

const TARBALL_BLOCK = {
	start: '<!-- tarball-install:start -->',
	end: '<!-- tarball-install:end -->',
};

/** The shell lines of the README's tarball install: the first ```sh block between the markers. */
export function readmeTarballCommands(readme = join(REPO_ROOT, 'README.md')): string[] {
	const text = readFileSync(readme, 'utf8');
	const start = text.indexOf(TARBALL_BLOCK.start);
	const end = text.indexOf(TARBALL_BLOCK.end, start);
	if (start < 0 || end < 0) {
		throw new Error(
			`README.md has no ${TARBALL_BLOCK.start} … ${TARBALL_BLOCK.end} block with the tarball install commands`,
		);
	}
	const fence = /```(?:sh|bash|shell)\n([\s\S]*?)```/.exec(text.slice(start, end));
	const lines = (fence?.[1] ?? '').split('\n').filter((line) => line.trim() !== '');
	if (lines.length === 0)
		throw new Error('the README tarball install block holds no ```sh code block');
	return lines;
}

interface TarballInstall {
	/** Where the package ended up. */
	target: string;
	commands: string[];
	/** What the commands printed (bash -x shows each line as it ran). */
	transcript: string;
	/** Node's version that ran npm. */
	nodeVersion: string;
}

/**
 * The npm settings files of this machine's user (~/.npmrc and npm's global npmrc, which may name a
 * registry or a certificate file), found as the user's own npm finds them: with HOME and the Node on
 * PATH changed, npm would otherwise look elsewhere.
 */
function machineNpmConfig(): Record<string, string> {
	const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
	const get = (key: string) =>
		spawnSync('npm', ['config', 'get', key], { env, encoding: 'utf8' }).stdout?.trim() ?? '';
	const config: Record<string, string> = {};
	for (const key of ['globalconfig', 'userconfig']) {
		const file = get(key);
		if (file && existsSync(file)) config[`npm_config_${key}`] = file;
	}
	return config;
}

/**
 * Packs the repository, puts the tarball in `home` and runs the README's commands there (see the
 * header). `binDir` holds the `node` that runs npm (and n8n).
 */
function installFromTarball(home: string, binDir: string): TarballInstall {
	const pkg = repoPackageJson();
	const commands = readmeTarballCommands();
	mkdirSync(home, { recursive: true });
	const packDir = mkdtempSync(join(tmpdir(), 'ad-cabinet-pack-'));
	try {
		const out = execFileSync('npm', ['pack', '--json', '--pack-destination', packDir], {
			cwd: REPO_ROOT,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
			timeout: 120_000,
		});
		const [{ filename }] = JSON.parse(out) as Array<{ filename: string }>;
		copyFileSync(join(packDir, filename), join(home, filename));
	} finally {
		rmSync(packDir, { recursive: true, force: true });
	}
	// A user's shell: their home, their PATH, this machine's npm settings (registry, certificates);
	// not this repository's .npmrc nor the settings `npm run` passes down.
	const env: NodeJS.ProcessEnv = {
		HOME: home,
		PATH: `${binDir}:${process.env.PATH ?? '/usr/bin:/bin'}`,
		LANG: process.env.LANG ?? 'C.UTF-8',
		TMPDIR: process.env.TMPDIR ?? tmpdir(),
		...machineNpmConfig(),
	};
	const nodeVersion = spawnSync(join(binDir, 'node'), ['--version'], { encoding: 'utf8' })
		.stdout.trim()
		.replace(/^v/, '');
	const result = spawnSync('bash', ['-e', '-x'], {
		cwd: home,
		env,
		input: `${commands.join('\n')}\n`,
		encoding: 'utf8',
		timeout: 300_000,
	});
	const transcript = `${result.stdout ?? ''}${result.stderr ?? ''}`;
	if (result.status !== 0) {
		throw new Error(
			`the README's tarball install failed (${result.error?.message ?? `exit ${result.status}`}) on Node ${nodeVersion}:\n${transcript.trimEnd().split('\n').slice(-30).join('\n')}`,
		);
	}
	const modules = join(home, '.n8n', 'nodes', 'node_modules');
	const target = join(modules, pkg.name);
	if (!existsSync(join(target, 'package.json'))) {
		throw new Error(`after the README's commands, ${target} does not exist:\n${transcript}`);
	}
	const beside = readdirSync(modules).filter((name) => !name.startsWith('.') && name !== pkg.name);
	if (beside.length > 0) {
		throw new Error(
			`the README's commands installed more than ${pkg.name} into ${modules}: ${beside.join(', ')} (n8n-workflow must come from n8n itself)`,
		);
	}
	return { target, commands, transcript, nodeVersion };
}

export function installPackage(userFolder: string, mode: 'pack' | 'link', binDir?: string): string {
	const pkg = repoPackageJson();
	if (mode === 'pack') {
		return installFromTarball(userFolder, binDir ?? join(process.execPath, '..')).target;
	}
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const target = join(nodesDir, 'node_modules', pkg.name);
	mkdirSync(join(nodesDir, 'node_modules'), { recursive: true });
	rmSync(target, { recursive: true, force: true });
	symlinkSync(REPO_ROOT, target, 'dir');
	writeFileSync(
		join(nodesDir, 'package.json'),
		JSON.stringify(
			{ name: 'installed-nodes', private: true, dependencies: { [pkg.name]: pkg.version } },
			null,
			2,
		),
	);
	return target;
}
