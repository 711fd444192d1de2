/**
 * A stage's own network: a network and mount namespace (`unshare --net --mount`, as root) with
 * only a loopback interface, where a hosts file bind-mounted over /etc/hosts sends the hosts of a
 * third-party service (Google, Telegram) to 127.0.0.1. n8n, the sandbox and the service's stand-in
 * all run in it; nothing in it reaches another machine, and the host's /etc/hosts and network are
 * untouched (both mounts and the interface end with the namespace). Each run makes a namespace of
 * its own, so two stages (or two runs of one) side by side share no port and no hosts file.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Why the namespace cannot be made here, or undefined when it can. */
export function namespaceRefusal(): string | undefined {
	if (process.platform !== 'linux') return 'it needs Linux namespaces';
	if (process.getuid?.() !== 0)
		return 'it needs root (CI runs as root) to make a network namespace with its own /etc/hosts';
	return undefined;
}

/**
 * Runs this same script again inside a new namespace, with `env` added and the variable `inside`
 * set to 1 (so that the script knows it is inside); resolves with its exit code. Its output is
 * this process's output.
 */
export async function runInNamespace(
	work: string,
	hosts: string[],
	env: Record<string, string>,
	inside: string,
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
			...'--net --mount --propagation private --fork --kill-child -- bash -c'.split(' '),
			script,
			'bash',
			process.execPath,
			'-r',
			'ts-node/register/transpile-only',
			...process.argv.slice(1),
		],
		{ stdio: 'inherit', env: { ...process.env, ...env, HOSTS_FILE: hostsFile, [inside]: '1' } },
	);
	const stop = () => child.kill('SIGTERM');
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
	return await new Promise((resolve) => {
		child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
	});
}
