import { performance } from 'node:perf_hooks';

export function median(values: number[]): number {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export async function timed<T>(work: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
	const started = performance.now();
	const value = await work();
	return { ms: performance.now() - started, value };
}

/** Collects garbage when the process runs with --expose-gc; twice, so weak and finalized objects go too. */
export function collectGarbage(): void {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (!gc) return;
	gc();
	gc();
}

const MB = 1024 * 1024;

export function formatMs(ms: number): string {
	if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
	if (ms >= 10) return `${ms.toFixed(0)} ms`;
	if (ms >= 0.1) return `${ms.toFixed(2)} ms`;
	return `${(ms * 1000).toFixed(1)} µs`;
}

export function formatBytes(bytes: number): string {
	if (bytes >= MB) return `${(bytes / MB).toFixed(1)} MB`;
	if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
	return `${bytes} B`;
}
