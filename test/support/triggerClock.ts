import type { Sandbox } from '../../sandbox';

/**
 * Moves the node's clock (Date, faked by jest; timers stay real so HTTP and backoff work) and the
 * sandbox's clock together, so "now" is the same instant on both sides of the API.
 */
export function sharedClock(sandbox: () => Sandbox) {
	return {
		start(at: string | number) {
			jest.useFakeTimers({
				doNotFake: [
					'hrtime',
					'nextTick',
					'performance',
					'queueMicrotask',
					'requestAnimationFrame',
					'cancelAnimationFrame',
					'requestIdleCallback',
					'cancelIdleCallback',
					'setImmediate',
					'clearImmediate',
					'setInterval',
					'clearInterval',
					'setTimeout',
					'clearTimeout',
				],
			});
			this.set(at);
		},
		set(at: string | number) {
			const ms = typeof at === 'number' ? at : Date.parse(at);
			jest.setSystemTime(ms);
			sandbox().clock.set(new Date(ms));
		},
		now(): number {
			return Date.now();
		},
		stop() {
			jest.useRealTimers();
		},
	};
}
