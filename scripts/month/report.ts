/**
 * The month's figures against the sandbox's ground truth: the two stores, the trigger's emissions,
 * the API's answers and sign-ins, and memory.
 */
import { apiRequests } from '../../harness/sandbox';
import type { Sandbox } from '../../sandbox';
import type { GroupMemory } from '../lib/memory';
import type { Received } from '../lib/sink';
import { FIGURES } from './workflows';

const SIGN_IN_PATH = '/api/v2/login';
const REFRESH_PATH = '/api/v2/access-token';

type Row = Record<string, unknown>;

const msOf = (value: unknown) => (typeof value === 'number' ? value : Date.parse(String(value)));
const dayOf = (value: unknown) => new Date(msOf(value)).toISOString().slice(0, 10);
const hourOf = (value: unknown) => new Date(msOf(value)).toISOString().slice(0, 13);
const figuresOf = (row: Row) => FIGURES.map((f) => Number(row[f]).toFixed(2)).join('|');

interface StoreFigures {
	rows: number;
	expected: number;
	missing: number;
	/** Missing rows of the hours a fault lost (their poll's execution ended by the fault). */
	missingInFaults: number;
	mismatches: number;
	duplicates: number;
	/** Up to 5 identities whose figures differ, for the notes. */
	examples: string[];
}

/** Compares rows held (identity → figures) with the API's rows. */
export function compareStore(
	truth: Map<string, string>,
	held: Array<{ identity: string; figures: string }>,
	lostToFault: (identity: string) => boolean = () => false,
): StoreFigures {
	const seen = new Map<string, number>();
	for (const row of held) seen.set(row.identity, (seen.get(row.identity) ?? 0) + 1);
	const different = held.filter(
		(row) => truth.has(row.identity) && truth.get(row.identity) !== row.figures,
	);
	const unexpected = held.filter((row) => !truth.has(row.identity));
	return {
		rows: held.length,
		expected: truth.size,
		missing: [...truth.keys()].filter((identity) => !seen.has(identity)).length,
		missingInFaults: [...truth.keys()].filter(
			(identity) => !seen.has(identity) && lostToFault(identity),
		).length,
		mismatches: different.length + unexpected.length,
		duplicates: [...seen.values()].reduce((n, count) => n + count - 1, 0),
		examples: [...different, ...unexpected].slice(0, 5).map((row) => row.identity),
	};
}

/** The API's rows by day and ad over [fromMs, toMs], as identity (day/ad) → figures. */
export function truthByAdDay(sandbox: Sandbox, fromMs: number, toMs: number): Map<string, string> {
	const rows = sandbox.data.statsRows({
		period_from: `${dayOf(fromMs)}T00:00:00+00:00`,
		period_to: `${dayOf(toMs)}T23:59:59+00:00`,
		period_grouping_unit: 'day',
		grouping: ['ad'],
		currency_code: 'EUR',
	}) as Row[];
	return new Map(
		rows.map((row) => [`${dayOf(row.period_date)}/${String(row.ad_id)}`, figuresOf(row)]),
	);
}

/** The API's completed hours by campaign in [fromMs, toMs), as identity (hour/campaign) → figures. */
export function truthByCampaignHour(
	sandbox: Sandbox,
	fromMs: number,
	toMs: number,
): Map<string, string> {
	const out = new Map<string, string>();
	// The API serves fine units at most 2 days a request; the ground truth follows the same windows.
	for (let start = fromMs; start < toMs; start += 2 * 86_400_000) {
		const end = Math.min(toMs, start + 2 * 86_400_000) - 1_000;
		const rows = sandbox.data.statsRows({
			period_from: new Date(start).toISOString().replace('.000Z', '+00:00'),
			period_to: new Date(end).toISOString().replace('.000Z', '+00:00'),
			period_grouping_unit: 'hour',
			grouping: ['campaign'],
			currency_code: 'EUR',
		}) as Row[];
		for (const row of rows) {
			if (Date.parse(String(row.period_date)) >= toMs) continue;
			out.set(`${hourOf(row.period_date)}/${String(row.campaign_id)}`, figuresOf(row));
		}
	}
	return out;
}

/** The hour (ms) of an identity `YYYY-MM-DDTHH/<id>`. */
export const hourMsOf = (identity: string) => Date.parse(`${identity.split('/')[0]}:00:00Z`);

export const heldByAdDay = (rows: Row[]) =>
	rows.map((row) => ({
		identity: `${dayOf(row.period_date)}/${String(row.ad_id)}`,
		figures: figuresOf(row),
	}));

export const heldByCampaignHour = (rows: Row[]) =>
	rows.map((row) => ({
		identity: `${hourOf(row.period_date)}/${String(row.campaign_id)}`,
		figures: figuresOf(row),
	}));

/** The trigger's emissions (every one, from the sink) against the completed hours of the API. */
export function triggerFigures(
	truth: Map<string, string>,
	emitted: Received[],
	lostToFault: (identity: string) => boolean,
) {
	const first = new Map<string, number>();
	let restated = 0;
	for (const { body } of emitted) {
		if (body.restated === true) {
			restated += 1;
			continue;
		}
		const identity = `${hourOf(body.period_date)}/${String(body.campaign_id)}`;
		first.set(identity, (first.get(identity) ?? 0) + 1);
	}
	const missing = [...truth.keys()].filter((identity) => !first.has(identity));
	return {
		expected: truth.size,
		emitted: [...first.values()].reduce((n, c) => n + c, 0),
		missing: missing.length,
		missingInFaults: missing.filter(lostToFault).length,
		duplicates: [...first.values()].reduce((n, c) => n + Math.max(0, c - 1), 0),
		restated,
		missingExamples: missing.filter((identity) => !lostToFault(identity)).slice(0, 5),
	};
}

/** `signInTimes`: the simulated time of each sign-in request, in order (the log keeps real time). */
export function apiFigures(
	sandbox: Sandbox,
	signInTimes: readonly number[],
	answers429At: readonly string[],
) {
	const requests = apiRequests(sandbox);
	return {
		requests: requests.length,
		answers429: requests.filter((r) => r.status === 429).length,
		answers401: requests.filter((r) => r.status === 401).length,
		signIns: requests.filter((r) => r.path.replace(/\/$/, '') === SIGN_IN_PATH).length,
		refreshes: requests.filter((r) => r.path.replace(/\/$/, '') === REFRESH_PATH).length,
		refusedSignIns: sandbox.sessions.counts.failedLogins,
		// Distinct simulated minutes with a sign-in request: n8n gives a node no lock shared by its
		// processes, so main and a worker that meet the same moment each sign in.
		signInMoments: new Set(signInTimes.map((ms) => new Date(ms).toISOString().slice(0, 16))).size,
		// Each sign-in's simulated time and answer, so that every one can be put down to its cause.
		signInsAt: requests
			.filter((r) => r.path.replace(/\/$/, '') === SIGN_IN_PATH)
			.map((r, i) => `${new Date(signInTimes[i] ?? 0).toISOString().slice(0, 16)} ${r.status}`),
		answers429At,
		answers429ByPath: countBy(
			requests.filter((r) => r.status === 429),
			(r) => r.path,
		),
	};
}

function countBy<T>(list: T[], key: (item: T) => string): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const item of list) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
	return counts;
}

export interface MemoryReading {
	day: number;
	rssMb: number;
	/** The live heap after a full garbage collection, read through the process's inspector. */
	heapMb?: number;
	/** Resident memory right after that collection. */
	rssAfterGcMb?: number;
}

/** n8n's own process of a group (its task runner is a child with its own RSS). */
export const n8nRss = (group: GroupMemory) => Math.round(group.processes[0]?.rssMb ?? 0);

const median = (values: number[]) => {
	const sorted = [...values].sort((x, y) => x - y);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2);
};

/** How many end-of-day readings each end of a process's life is taken over. */
const READINGS_PER_END = 3;

/**
 * Each process's RSS early and late in its life, and the largest ratio of the two. A process's
 * first reading is left out: it comes at the end of the day it started, before n8n has loaded
 * what a day of runs loads (for the first processes day 1; for a worker started after a kill, a
 * few hours after its start). One end-of-day reading swings by up to a fifth with the garbage
 * collector (a worker read 358, 444 and 396 MB on three days in a row), so each end is the median
 * of 3 readings: a leak moves the median, one reading taken just before a collection does not.
 */
interface ProcessMemory {
	early: number;
	late: number;
	from: number;
	to: number;
	/** The live heap after a full collection, early and late in the same way (MB). */
	heapEarly?: number;
	heapLate?: number;
}

/**
 * Each process by name, `growth`: the largest ratio of late to early RSS of them, and
 * `heapGrowth`: the same for the live heap after a full collection, which only a leak makes grow.
 */
type MemoryFigures = { growth: number; heapGrowth: number } & {
	[name: string]: ProcessMemory | number;
};

export function memoryFigures(readings: Record<string, MemoryReading[]>): MemoryFigures {
	const out: Record<string, ProcessMemory> = {};
	let growth = 0;
	let heapGrowth = 0;
	for (const [name, list] of Object.entries(readings)) {
		const whole = list.length > 1 ? list.slice(1) : list;
		if (!whole.length) continue;
		const n = Math.min(READINGS_PER_END, Math.floor(whole.length / 2) || 1);
		const early = median(whole.slice(0, n).map((r) => r.rssMb));
		const late = median(whole.slice(-n).map((r) => r.rssMb));
		const from = whole[0].day;
		const to = whole[whole.length - 1].day;
		out[name] = { early, late, from, to };
		if (to > from && early > 0) growth = Math.max(growth, late / early);
		const heaps = whole.map((r) => r.heapMb);
		if (heaps.every((mb): mb is number => mb !== undefined)) {
			const heapEarly = median(heaps.slice(0, n));
			const heapLate = median(heaps.slice(-n));
			out[name] = { ...out[name], heapEarly, heapLate };
			if (to > from && heapEarly > 0) heapGrowth = Math.max(heapGrowth, heapLate / heapEarly);
		}
	}
	return { ...out, growth: Number(growth.toFixed(3)), heapGrowth: Number(heapGrowth.toFixed(3)) };
}

/** The live heap after a full collection may grow this much in a process's life: only a leak does. */
const HEAP_GROWTH_LIMIT = 1.1;
/** RSS may grow this much: above the heap's bound, as the allocator keeps freed pages a while. */
const RSS_GROWTH_LIMIT = 1.5;

/** The month's two memory goals: the live heap decides whether memory leaks; RSS stays bounded. */
export function memoryGoals(memory: { growth: number; heapGrowth: number }) {
	return [
		{
			goal: `live heap after a full collection grows at most ${HEAP_GROWTH_LIMIT.toFixed(2)}x`,
			met: memory.heapGrowth > 0 && memory.heapGrowth <= HEAP_GROWTH_LIMIT,
			value: `${memory.heapGrowth}x`,
			why:
				memory.heapGrowth > 0
					? "a process's live heap after a full collection (median of 3 end-of-day readings) grew more than that between the start of its life and its end"
					: "no process's live heap was read (the inspector did not answer)",
		},
		{
			goal: `RSS grows at most ${RSS_GROWTH_LIMIT.toFixed(1)}x`,
			met: memory.growth <= RSS_GROWTH_LIMIT,
			value: `${memory.growth}x`,
			why: "a process's RSS (median of 3 end-of-day readings) grew more than that between the start of its life and its end",
		},
	];
}
