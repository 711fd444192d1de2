import type { Clock } from '../../nodes/shared/store/clock';

/**
 * Runs several async runs one step at a time, in an order it chooses, on a clock of its own, and
 * searches every order of their steps.
 *
 * A step is a point a run announces before it touches something shared (a statement on n8n's record
 * row, a request to the API): the run waits there until the scheduler picks it. Between steps a run
 * only computes. Waits go through `clock(run)`: a wait ends when the scheduler fires it, which it
 * does as a step once the clock has reached its end; the clock moves on only when no step can be
 * taken, so a call that read the row writes it before time passes (n8n's record calls are a read and
 * a write milliseconds apart).
 *
 * The search is depth first over the choices, each order run anew from the start. Two steps that
 * touch different things (or only read the same one) give the same result in either order, so only
 * one of the two orders is run (sleep sets): the orders run are every order that can differ.
 */
interface StepInfo {
	/** What the step touches: a row, the ad list, one ad; undefined for a wait ending. */
	resource?: string;
	/** Whether it changes what it touches. */
	write: boolean;
	label: string;
}

interface Pending extends StepInfo {
	id: string;
	go: () => void;
}

interface Timer {
	id: string;
	at: number;
	fire: () => void;
	cancel?: () => void;
	done: boolean;
}

interface Frame {
	/** The runs that could step here, in order. */
	enabled: Array<{ id: string; info: StepInfo }>;
	chosen: number;
	sleep: Set<string>;
	explored: Set<string>;
	/** Preemptions on the way to this frame, and the run of the step before it. */
	preemptions: number;
	previous?: string;
}

/** The run a step belongs to, and how many steps the run announced before it. */
const runOf = (id: string) => id.slice(0, id.indexOf('/'));
const countOf = (id: string) => Number(id.slice(id.indexOf('/') + 1));

/**
 * Whether taking `id` here preempts: the run of the step before could go on, and another run goes
 * instead.
 */
function preempts(frame: Frame, id: string): boolean {
	if (frame.previous === undefined || runOf(id) === frame.previous) return false;
	return frame.enabled.some((step) => runOf(step.id) === frame.previous);
}

/** The longest a scenario runs on its clock. */
const MAX_SCENARIO_MS = 10 * 60_000;

const dependent = (a: StepInfo, b: StepInfo) =>
	a.resource !== undefined && a.resource === b.resource && (a.write || b.write);

/** Waits for the scenario's end, which must come once no step is left. */
async function settle(finished: Promise<void>, order: Order): Promise<void> {
	const ended = await Promise.race([finished.then(() => true), drain().then(() => false)]);
	if (!ended)
		throw new Error(
			`a run never ended, waiting with no step left; the order:\n${order.trace.join('\n')}`,
		);
}

/** Lets every promise callback that can run, run. */
async function drain(): Promise<void> {
	for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

export class Order {
	now: number;
	readonly trace: string[] = [];
	private readonly start: number;
	private readonly pending = new Map<string, Pending>();
	private readonly timers: Timer[] = [];
	private readonly counts = new Map<number, number>();

	constructor(start: number) {
		this.now = start;
		this.start = start;
	}

	/**
	 * The name of a run's next step or wait: the run and how many it announced before. A run may have
	 * several under way (a claim renewed in the background), and the same prefix of choices gives
	 * the same names, so a search run anew finds its choices again.
	 */
	private nextId(run: number): string {
		const count = this.counts.get(run) ?? 0;
		this.counts.set(run, count + 1);
		return `${run}/${count}`;
	}

	/** Announces a step of `run` and waits until the scheduler takes it. */
	async step(run: number, info: StepInfo): Promise<void> {
		const id = this.nextId(run);
		await new Promise<void>((go) => this.pending.set(id, { ...info, id, go }));
	}

	/** The clock of one run: its waits end when the scheduler fires them. */
	clock(run: number): Clock {
		return {
			now: () => this.now,
			sleep: async (ms, signal) =>
				await new Promise<void>((resolve, reject) => {
					const timer: Timer = {
						id: this.nextId(run),
						at: this.now + ms,
						fire: resolve,
						done: false,
					};
					if (signal) {
						if (signal.aborted) return reject(new Error('aborted'));
						timer.cancel = () => reject(new Error('aborted'));
						signal.addEventListener('abort', () => {
							timer.done = true;
							timer.cancel?.();
						});
					}
					this.timers.push(timer);
				}),
		};
	}

	/** The steps that can be taken now: pending steps, and waits whose end the clock has reached. */
	async enabled(): Promise<Array<{ id: string; info: StepInfo; take: () => void }>> {
		await drain();
		for (;;) {
			const live = this.timers.filter((timer) => !timer.done);
			const due = live.filter((timer) => timer.at <= this.now);
			const steps = [...this.pending.values()].map((step) => ({
				id: step.id,
				info: { resource: step.resource, write: step.write, label: step.label },
				take: () => {
					this.pending.delete(step.id);
					step.go();
				},
			}));
			const waits = due.map((timer) => ({
				id: timer.id,
				info: {
					resource: undefined,
					write: false,
					label: `wait ends at +${timer.at - this.start} ms`,
				},
				take: () => {
					timer.done = true;
					timer.fire();
				},
			}));
			// One choice per run: its step or wait announced first. A run's own calls under way at once
			// (a check in the background beside its main work) go in the order they were announced.
			const first = new Map<string, (typeof steps)[number]>();
			for (const step of [...steps, ...waits]) {
				const run = runOf(step.id);
				const held = first.get(run);
				if (!held || countOf(step.id) < countOf(held.id)) first.set(run, step);
			}
			const all = [...first.values()];
			if (all.length > 0) return all.sort((a, b) => Number(runOf(a.id)) - Number(runOf(b.id)));
			if (live.length === 0) return [];
			const next = Math.min(...live.map((timer) => timer.at));
			// Nothing in a scenario lasts this long: waits still open then are left (a claim renewed
			// by a run that kept it would show in the checks).
			if (next > this.start + MAX_SCENARIO_MS) return [];
			this.now = next;
		}
	}

	/** Moves the clock on by `ms` (between phases of a scenario, with no run waiting). */
	advance(ms: number): void {
		this.now += ms;
	}
}

interface Explored {
	/** Orders run to their end. */
	orders: number;
	/** Orders cut short because an order already run gives the same result. */
	pruned: number;
}

/**
 * Runs `scenario` in every order that can differ. `scenario(order)` starts the runs on `order`
 * and returns a promise of the check, which `explore` awaits once no step is left; `maxOrders` bounds
 * the search (it throws when the bound is reached before the search ends).
 */
export async function explore(
	scenario: (order: Order) => { finished: Promise<void> },
	start: number,
	{ maxOrders = 200_000, maxPreemptions = Infinity } = {},
): Promise<Explored> {
	const allowed = (frame: Frame, id: string) =>
		!frame.sleep.has(id) &&
		!frame.explored.has(id) &&
		frame.preemptions + (preempts(frame, id) ? 1 : 0) <= maxPreemptions;
	const stack: Frame[] = [];
	const result: Explored = { orders: 0, pruned: 0 };
	for (;;) {
		const order = new Order(start);
		const { finished } = scenario(order);
		let depth = 0;
		let cut = false;
		for (;;) {
			const enabled = await order.enabled();
			if (enabled.length === 0) break;
			let frame = stack[depth];
			if (!frame) {
				const parent = stack[depth - 1];
				const sleep = new Set<string>();
				if (parent) {
					const took = parent.enabled[parent.chosen];
					for (const id of [...parent.sleep, ...parent.explored]) {
						const info = parent.enabled.find((step) => step.id === id)?.info;
						if (id !== took.id && info && !dependent(info, took.info)) sleep.add(id);
					}
				}
				frame = {
					enabled: enabled.map(({ id, info }) => ({ id, info })),
					chosen: -1,
					sleep,
					explored: new Set(),
					preemptions: parent
						? parent.preemptions + (preempts(parent, parent.enabled[parent.chosen].id) ? 1 : 0)
						: 0,
					previous: parent && runOf(parent.enabled[parent.chosen].id),
				};
				const candidate = frame;
				const first = enabled.findIndex((step) => allowed(candidate, step.id));
				frame.chosen = first;
				stack.push(frame);
				if (first === -1) {
					cut = true;
					break;
				}
			}
			const step = enabled[frame.chosen];
			if (!step || step.id !== frame.enabled[frame.chosen].id)
				throw new Error(
					`the order did not repeat at depth ${depth}: the scenario is not deterministic`,
				);
			order.trace.push(`${step.id} ${step.info.label}`);
			step.take();
			depth++;
		}
		if (cut) result.pruned++;
		else {
			await settle(finished, order);
			result.orders++;
		}
		if (result.orders + result.pruned >= maxOrders)
			throw new Error(`more than ${maxOrders} orders: the search was stopped`);
		// Backtrack: the deepest frame with a choice left takes it.
		stack.length = Math.min(stack.length, depth + 1);
		for (;;) {
			const frame = stack[stack.length - 1];
			if (!frame) return result;
			if (frame.chosen >= 0) frame.explored.add(frame.enabled[frame.chosen].id);
			const next = frame.enabled.findIndex((step) => allowed(frame, step.id));
			if (next !== -1) {
				frame.chosen = next;
				break;
			}
			stack.pop();
		}
	}
}

/** A seeded random order (for three runs, whose every order is too many). */
export async function randomOrder(
	scenario: (order: Order) => { finished: Promise<void> },
	start: number,
	seed: number,
): Promise<string[]> {
	let state = seed >>> 0 || 1;
	const random = () => {
		state ^= state << 13;
		state ^= state >>> 17;
		state ^= state << 5;
		return (state >>> 0) / 2 ** 32;
	};
	const order = new Order(start);
	const { finished } = scenario(order);
	for (;;) {
		const enabled = await order.enabled();
		if (enabled.length === 0) break;
		const step = enabled[Math.floor(random() * enabled.length)];
		order.trace.push(`${step.id} ${step.info.label}`);
		step.take();
	}
	await settle(finished, order);
	return order.trace;
}
