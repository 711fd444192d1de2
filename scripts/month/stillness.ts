/**
 * Whether the processes on the simulated clock (n8n main, its workers: every process whose
 * environment names the clock's file) are still: none used the CPU for a while, and none is running
 * at this moment.
 *
 * A clock step is safe only then. n8n measures some synchronous work on the process's own clock (a
 * regular expression is stopped after 250 ms), so a step that lands while a process works fails
 * that work: "no request open" is not enough, a run may be validating its parameters. A process
 * asleep in its event loop, waiting on a timer, only sees the timer fire sooner.
 */
import { readdirSync, readFileSync } from 'node:fs';

interface Sample {
	/** CPU ticks used so far (user and system, all threads). */
	ticks: number;
	/** Whether the main thread is running or ready to run. */
	running: boolean;
}

function sampleOf(pid: number): Sample | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		// Fields after the command name, which may hold spaces: state is the 3rd field, utime and
		// stime the 14th and 15th.
		const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return { ticks: Number(rest[11]) + Number(rest[12]), running: rest[0] === 'R' };
	} catch {
		return undefined;
	}
}

export class Stillness {
	/** Every process seen, and whether it is on the clock. */
	private readonly onClock = new Map<number, boolean>();
	private readonly ticks = new Map<number, number>();
	private stillSince = Date.now();

	constructor(private readonly clockFile: string) {}

	private isOnClock(pid: number): boolean {
		let known = this.onClock.get(pid);
		if (known === undefined) {
			try {
				known = readFileSync(`/proc/${pid}/environ`, 'utf8')
					.split('\0')
					.includes(`FAKETIME_TIMESTAMP_FILE=${this.clockFile}`);
			} catch {
				known = false;
			}
			this.onClock.set(pid, known);
		}
		return known;
	}

	/** Looks at every process on the clock now (call it every 100 ms or so): whether all were still. */
	sample(): boolean {
		const pids = new Set(
			readdirSync('/proc')
				.filter((name) => /^\d+$/.test(name))
				.map(Number),
		);
		for (const pid of this.onClock.keys())
			if (!pids.has(pid)) {
				this.onClock.delete(pid);
				this.ticks.delete(pid);
			}
		let moved = false;
		let running = false;
		for (const pid of pids) {
			if (!this.isOnClock(pid)) continue;
			const now = sampleOf(pid);
			if (!now) continue;
			if (this.ticks.get(pid) !== now.ticks) moved = true;
			this.ticks.set(pid, now.ticks);
			running ||= now.running;
		}
		if (moved || running) this.stillSince = Date.now();
		return !moved && !running;
	}

	/** No process on the clock used the CPU, or was running, at any sample of the last `ms` (real). */
	stillFor(ms: number): boolean {
		return Date.now() - this.stillSince >= ms;
	}
}
