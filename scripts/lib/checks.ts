/** A flat list of named checks: each prints ✓ or ✗ with its reason, and the run fails if any failed. */
import { inspect } from 'node:util';

interface CheckResult {
	name: string;
	ok: boolean;
	ms: number;
	detail?: string;
}

export class Checks {
	readonly results: CheckResult[] = [];

	async check(name: string, fn: () => void | Promise<void>): Promise<boolean> {
		const started = Date.now();
		try {
			await fn();
			this.record({ name, ok: true, ms: Date.now() - started });
			return true;
		} catch (error) {
			const detail = error instanceof Error ? error.message : inspect(error);
			this.record({ name, ok: false, ms: Date.now() - started, detail });
			return false;
		}
	}

	fail(name: string, detail: string): void {
		this.record({ name, ok: false, ms: 0, detail });
	}

	private record(result: CheckResult): void {
		this.results.push(result);
		const time = result.ms >= 1000 ? ` (${(result.ms / 1000).toFixed(1)}s)` : '';
		console.log(`  ${result.ok ? '✓' : '✗'} ${result.name}${time}`);
		if (result.detail) console.log(result.detail.replace(/^/gm, '      '));
	}

	get failed(): CheckResult[] {
		return this.results.filter((r) => !r.ok);
	}
}
