import { spawnSync } from 'node:child_process';

/**
 * Installs Debian packages as `.ci/run` installs its system packages: apt-get, non-interactive,
 * through `sudo -n` unless root, and once more after `apt-get update` when the package lists are
 * stale or absent. The caller checks what it needed is there.
 */
export function aptInstall(packages: string[]): void {
	const root = process.getuid?.() === 0;
	const apt = (...args: string[]) =>
		spawnSync(root ? 'apt-get' : 'sudo', root ? args : ['-n', 'apt-get', ...args], {
			stdio: 'inherit',
			env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
		}).status === 0;
	if (!apt('install', '-y', ...packages)) {
		apt('update');
		apt('install', '-y', ...packages);
	}
}

/**
 * Installs the Debian packages a stage needs when their commands are missing (see `aptInstall`).
 * `commands` maps a command to the package that brings it.
 */
export function ensureDebianPackages(commands: Record<string, string>): void {
	const has = (command: string) =>
		spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
	const missing = [
		...new Set(
			Object.entries(commands)
				.filter(([command]) => !has(command))
				.map(([, pkg]) => pkg),
		),
	];
	if (!missing.length) return;
	console.log(`  installing ${missing.join(', ')} with apt-get (their commands are missing)`);
	aptInstall(missing);
	const still = Object.keys(commands).filter((command) => !has(command));
	if (still.length)
		throw new Error(
			`${still.join(', ')} still missing after apt-get install -y ${missing.join(' ')}: install those Debian packages by hand (it needs root or sudo without a password)`,
		);
}
