import type { Clock } from '../../nodes/shared/store/clock';

/** A clock a test moves by hand: waits end when `advance` passes their end, in time order. */
export class ManualClock implements Clock {
	private timers: Array<{ at: number; fire: () => void; done: boolean }> = [];

	constructor(public time: number) {}

	now(): number {
		return this.time;
	}

	async sleep(ms: number, signal?: AbortSignal): Promise<void> {
		await new Promise<void>((resolve, reject) => {
			const timer = { at: this.time + ms, fire: resolve, done: false };
			signal?.addEventListener('abort', () => {
				timer.done = true;
				reject(new Error('aborted'));
			});
			this.timers.push(timer);
		});
	}

	/** Moves the clock on, ending each wait at its own time and letting what follows it run. */
	async advance(ms: number): Promise<void> {
		const until = this.time + ms;
		for (;;) {
			await settle();
			const due = this.timers
				.filter((timer) => !timer.done && timer.at <= until)
				.sort((a, b) => a.at - b.at)[0];
			if (!due) break;
			this.time = Math.max(this.time, due.at);
			due.done = true;
			due.fire();
		}
		this.time = until;
		await settle();
	}
}

/** Lets every promise callback that can run, run. */
export async function settle(): Promise<void> {
	for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
