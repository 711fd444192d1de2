/**
 * The stage's own network: a network and mount namespace (`unshare --net --mount`, as root) with
 * only a loopback interface, where a hosts file bind-mounted over /etc/hosts sends the Google hosts
 * to 127.0.0.1. n8n, the sandbox and the Google stand-in all run in it; nothing in it reaches
 * another machine, and the host's /etc/hosts and network are untouched (both mounts and the
 * interface end with the namespace).
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Set in the namespace's process, so that the stage knows it is inside. */
export const INSIDE = 'AD_CABINET_SHEETS_NAMESPACE';

/** Why the namespace cannot be made here, or undefined when it can. */
export function namespaceRefusal(): string | undefined {
	if (process.platform !== 'linux') return 'it needs Linux namespaces';
	if (process.getuid?.() !== 0)
		return 'it needs root (CI runs as root) to make a network namespace with its own /etc/hosts';
	return undefined;
}

/**
 * Runs this same script again inside a new namespace, with `env` added; resolves with its exit
 * code. Its output is this process's output.
 */
export async function runInNamespace(
	work: string,
	hosts: string[],
	env: Record<string, string>,
): Promise<number> {
	const hostsFile = join(work, 'hosts');
	writeFileSync(
		hostsFile,
		['127.0.0.1 localhost', ...hosts.map((h) => `127.0.0.1 ${h}`), ''].join('\n'),
	);
	const script = [
		'set -e',
		'ip link set lo up',
		`mount --bind "$HOSTS_FILE" /etc/hosts`,
		'exec "$@"',
	].join('\n');
	const child = spawn(
		'unshare',
		[
			'--net',
			'--mount',
			'--propagation',
			'private',
			'--fork',
			'--kill-child',
			'--',
			'bash',
			'-c',
			script,
			'bash',
			process.execPath,
			'-r',
			'ts-node/register/transpile-only',
			process.argv[1],
			...process.argv.slice(2),
		],
		{ stdio: 'inherit', env: { ...process.env, ...env, HOSTS_FILE: hostsFile, [INSIDE]: '1' } },
	);
	const stop = () => child.kill('SIGTERM');
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
	return await new Promise((resolve) => {
		child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
	});
}
