/**
 * The live heap of a Node process started with `--inspect=127.0.0.1:0`, read through its
 * inspector after a full garbage collection. Resident memory alone cannot tell a leak from the
 * collector not having run yet, or from heap space kept after a busy hour: the live heap after a
 * collection is what a leak makes grow.
 *
 * The inspector speaks over a WebSocket; Node 20 has a client behind `--experimental-websocket`,
 * so each reading runs in a short child process of its own and the scripts need no dependency.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What the process is started with: an inspector on a free port of 127.0.0.1. */
export const INSPECT_OPTION = '--inspect=127.0.0.1:0';

/** The inspector address the process printed first to its console (its own, before any child's). */
export function inspectorUrl(consoleFile: string): string | undefined {
	if (!existsSync(consoleFile)) return undefined;
	return /Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/[\w-]+)/.exec(
		readFileSync(consoleFile, 'utf8'),
	)?.[1];
}

// Runs in the child. The inspector answers commands in the order they were sent: a full
// collection, the heap's use, then a snapshot (its chunks come as events) when a file is given.
const CLIENT = `
const fs = require('node:fs');
const [url, file] = process.argv.slice(1);
const ws = new WebSocket(url);
const out = file ? fs.openSync(file, 'w') : undefined;
const methods = ['HeapProfiler.collectGarbage', 'Runtime.getHeapUsage'];
if (file) methods.push('HeapProfiler.takeHeapSnapshot');
let usage;
ws.onopen = () => methods.forEach((method, i) => ws.send(JSON.stringify({ id: i + 1, method, params: {} })));
ws.onerror = () => process.exit(2);
ws.onmessage = (event) => {
	const m = JSON.parse(event.data);
	if (m.method === 'HeapProfiler.addHeapSnapshotChunk') return fs.writeSync(out, m.params.chunk);
	if (m.error) process.exit(1);
	if (m.id === 2) usage = m.result;
	if (m.id !== methods.length) return;
	if (out !== undefined) fs.closeSync(out);
	process.stdout.write(JSON.stringify(usage));
	process.exit(0);
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
	// An empty file name: no snapshot.
	const args = ['--experimental-websocket', '-e', CLIENT, url, snapshotFile ?? ''];
	try {
		const { stdout } = await run(process.execPath, args, {
			timeout: timeoutMs,
			killSignal: 'SIGKILL',
		});
		return Math.round((JSON.parse(stdout) as { usedSize: number }).usedSize / 1024 / 1024);
	} catch {
		// No inspector, no answer in time, or an answer that is not the heap's use.
		return undefined;
	}
}
