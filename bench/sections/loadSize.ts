/**
 * Measurement 5: how long n8n takes to load the package (every built node and credential module
 * listed in package.json, each in a fresh process), and the size of what `npm pack` publishes.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { formatBytes, formatMs, median } from '../lib/measure';
import type { Line } from '../lib/report';

const ROOT = join(__dirname, '..', '..');

/** Run by `node -e` in a fresh process: prints how long each step of loading took, in ms. */
const LOADER = `
const { performance } = require('node:perf_hooks');
const { join } = require('node:path');
const root = process.argv[1];
const pkg = require(join(root, 'package.json'));
const files = [...pkg.n8n.credentials, ...pkg.n8n.nodes].map((file) => join(root, file));
const t0 = performance.now();
if (process.argv[2] === 'host') require(require.resolve('n8n-workflow', { paths: [root] }));
const t1 = performance.now();
for (const file of files) {
	const mod = require(file);
	const Class = Object.values(mod).find((value) => typeof value === 'function');
	new Class();
}
const t2 = performance.now();
process.stdout.write(JSON.stringify({ hostMs: t1 - t0, oursMs: t2 - t1, modules: files.length }));
`;

interface LoadSample {
	hostMs: number;
	oursMs: number;
	modules: number;
}

function loadOnce(hostFirst: boolean): LoadSample {
	const result = spawnSync(process.execPath, ['-e', LOADER, ROOT, hostFirst ? 'host' : 'cold'], {
		encoding: 'utf8',
		cwd: ROOT,
	});
	if (result.status !== 0) throw new Error(`loading the package failed: ${result.stderr}`);
	return JSON.parse(result.stdout) as LoadSample;
}

interface LoadSizeRaw {
	withHost: LoadSample[];
	cold: LoadSample[];
	pack: { size: number; unpackedSize: number; entryCount: number };
}

export function loadSizeBench(
	processes: number,
	log: (text: string) => void,
): { lines: Line[]; raw: LoadSizeRaw } {
	log('5. Load and size');
	const withHost: LoadSample[] = [];
	const cold: LoadSample[] = [];
	for (let i = 0; i < processes; i++) {
		withHost.push(loadOnce(true));
		cold.push(loadOnce(false));
	}
	const packed = JSON.parse(
		execFileSync('npm', ['pack', '--dry-run', '--json', '--silent'], {
			cwd: ROOT,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		}),
	) as Array<{ size: number; unpackedSize: number; entryCount: number }>;
	const pack = {
		size: packed[0].size,
		unpackedSize: packed[0].unpackedSize,
		entryCount: packed[0].entryCount,
	};
	const ours = median(withHost.map((s) => s.oursMs));
	const modules = withHost[0].modules;
	const lines: Line[] = [
		{
			id: '5a',
			what: `require + construct all ${modules} built modules, n8n-workflow already loaded (as in n8n), median of ${processes} processes`,
			goal: '≤ 50 ms',
			measured: formatMs(ours),
			ratio: ours / 50,
			limit: 1,
		},
		{
			id: '5',
			what: 'the same in a bare process, n8n-workflow loaded by our modules',
			goal: '',
			measured: `${formatMs(median(cold.map((s) => s.oursMs)))} (n8n-workflow alone: ${formatMs(median(withHost.map((s) => s.hostMs)))})`,
		},
		{
			id: '5b',
			what: `npm pack tarball (${pack.entryCount} files, ${formatBytes(pack.unpackedSize)} unpacked)`,
			goal: '≤ 150 KB',
			measured: formatBytes(pack.size),
			ratio: pack.size / (150 * 1024),
			limit: 1,
		},
	];
	return { lines, raw: { withHost, cold, pack } };
}
