/**
 * The live heap of a Node process started with `--inspect=127.0.0.1:0`, read through its
 * inspector after a full garbage collection. Resident memory alone cannot tell a leak from the
 * collector not having run yet, or from heap space kept after a busy hour: the live heap after a
 * collection is what a leak makes grow.
 *
 * The inspector speaks over a WebSocket; Node 20 has a client behind `--experimental-websocket`,
 * so each reading runs in a short child process of its own and the scripts need no dependency.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/** What the process is started with: an inspector on a free port of 127.0.0.1. */
export const INSPECT_OPTION = '--inspect=127.0.0.1:0';

/** The inspector address the process printed first to its console (its own, before any child's). */
export function inspectorUrl(consoleFile: string): string | undefined {
	if (!existsSync(consoleFile)) return undefined;
	return /Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/[\w-]+)/.exec(
		readFileSync(consoleFile, 'utf8'),
	)?.[1];
}

// Runs in the child: a full collection, the heap's use, and a snapshot when a file is given.
const CLIENT = `
const fs = require('node:fs');
const [url, file] = process.argv.slice(1);
const ws = new WebSocket(url);
let id = 0;
const pending = new Map();
const call = (method, params = {}) => new Promise((resolve, reject) => {
	const i = ++id;
	pending.set(i, { resolve, reject });
	ws.send(JSON.stringify({ id: i, method, params }));
});
const out = file ? fs.openSync(file, 'w') : undefined;
ws.onmessage = (event) => {
	const m = JSON.parse(event.data);
	const p = m.id && pending.get(m.id);
	if (p) {
		pending.delete(m.id);
		if (m.error) p.reject(new Error(m.error.message));
		else p.resolve(m.result);
	} else if (m.method === 'HeapProfiler.addHeapSnapshotChunk' && out !== undefined) {
		fs.writeSync(out, m.params.chunk);
	}
};
ws.onerror = () => { console.error('no inspector answers at ' + url); process.exit(2); };
ws.onopen = async () => {
	try {
		await call('HeapProfiler.collectGarbage');
		const usage = await call('Runtime.getHeapUsage');
		if (out !== undefined) {
			await call('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
			fs.closeSync(out);
		}
		process.stdout.write(JSON.stringify(usage));
		process.exit(0);
	} catch (error) {
		console.error(error.message);
		process.exit(1);
	}
};
`;

/**
 * Collects the process's garbage and returns its live heap in MB (undefined when the inspector did
 * not answer in time); with `snapshotFile`, also writes a heap snapshot there.
 */
export async function heapAfterGc(
	url: string,
	snapshotFile?: string,
	timeoutMs = snapshotFile ? 300_000 : 60_000,
): Promise<number | undefined> {
	const args = [
		'--experimental-websocket',
		'-e',
		CLIENT,
		url,
		...(snapshotFile ? [snapshotFile] : []),
	];
	const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
	let out = '';
	child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
	const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
	const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
	clearTimeout(timer);
	if (code !== 0) return undefined;
	try {
		const { usedSize } = JSON.parse(out) as { usedSize: number };
		return Math.round(usedSize / 1024 / 1024);
	} catch {
		return undefined;
	}
}
