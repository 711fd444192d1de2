/**
 * Measurement 3 (pure part): the Stats Trigger's state machine, `applyPoll` from the built node,
 * over 10,000 polls five minutes apart, fed rows shaped exactly as the sandbox serves them. With
 * a re-check, some rows of the last settled hours are restated as polls go on.
 */
import { performance } from 'node:perf_hooks';
import type { IDataObject } from 'n8n-workflow';
import type * as PollStateModule from '../../nodes/AdCabinetStatsTrigger/pollState';
import { Sandbox } from '../../sandbox';

// The built module, as n8n loads it.
const { applyPoll, newState, windowStart } =
	require('../../dist/nodes/AdCabinetStatsTrigger/pollState') as typeof PollStateModule;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const START = '2026-03-10T12:34:00.000Z';

export interface PureArgs {
	polls: number;
	emit: 'completed' | 'everyChange';
	grouping: 'campaign' | 'ad';
	/** State size is recorded after every this many polls. */
	every: number;
	/** Re-Check Last N Periods; with it, one row of a settled hour is restated every `restateEvery` polls. */
	recheck?: number;
	restateEvery?: number;
}

export interface PureAnswer {
	rowsPerHour: number;
	/** JSON size of the state after every `every` polls. */
	stateBytes: number[];
	/** Time of each poll (applyPoll plus serializing the state, as n8n stores it), in ms. */
	pollMs: number[];
	emitted: number;
	/** Rows of settled hours that must have been emitted at least once. */
	settledRows: number;
	/** (hour, group) pairs emitted more than once in "completed" mode, restatements aside; must be 0. */
	repeated: number;
	/** Restatements made, those within the re-checked hours, and rows emitted marked as restated. */
	restatementsMade: number;
	restatedExpected: number;
	restatedEmitted: number;
	/** Restated rows emitted whose previous figures were not the ones last emitted for them. */
	wrongPrevious: number;
}

/** One settled hour of real sandbox rows, used as the shape of every hour. */
async function hourTemplate(grouping: string): Promise<IDataObject[]> {
	const sandbox = await Sandbox.start({ platform: 'ext', now: START });
	try {
		return sandbox.data.statsRows({
			period_from: '2026-03-09T10:00:00Z',
			period_to: '2026-03-09T10:59:59Z',
			period_grouping_unit: 'hour',
			grouping: [grouping],
			currency_code: 'EUR',
			order_by: 'period',
		}) as IDataObject[];
	} finally {
		await sandbox.stop();
	}
}

export async function purePolls(args: PureArgs): Promise<PureAnswer> {
	const template = await hourTemplate(args.grouping);
	const settings = {
		unit: 'hour' as const,
		grouping: [args.grouping],
		emit: args.emit,
		settleMs: 15 * MINUTE,
		recheck: args.recheck ?? 0,
	};
	const idField = args.grouping === 'ad' ? 'ad_id' : 'campaign_id';
	// How often each (hour, row index) was restated: each time adds a view and a cent of spend.
	const restatements = new Map<string, number>();
	let now = Date.parse(START);
	let state = newState('q', now - 2 * HOUR, false);
	// Rows of an hour as seen at a given age; a settled hour's rows are the same objects every poll.
	const cache = new Map<string, IDataObject[]>();
	const rowsOf = (hour: number, elapsed: number): IDataObject[] => {
		const key = `${hour}|${elapsed}`;
		let rows = cache.get(key);
		if (!rows) {
			const iso = new Date(hour).toISOString().replace('.000Z', 'Z');
			const share = elapsed / HOUR;
			rows = template.map((row, index) => {
				const times = restatements.get(`${hour}|${index}`) ?? 0;
				return {
					...row,
					period_date: iso,
					views: Math.floor(Number(row.views) * share) + times,
					clicks: Math.floor(Number(row.clicks) * share),
					exchanged_spent: (Number(row.exchanged_spent) * share + times / 100).toFixed(2),
				};
			});
			cache.set(key, rows);
		}
		return rows;
	};
	const lastEmitted = new Map<string, IDataObject>();
	let restatementsMade = 0;
	let restatedExpected = 0;
	let restatedEmitted = 0;
	let wrongPrevious = 0;
	const stateBytes: number[] = [];
	const pollMs: number[] = [];
	const seen = new Map<string, number>();
	let emitted = 0;
	for (let poll = 1; poll <= args.polls; poll++) {
		now += 5 * MINUTE;
		// From the 50th poll on, a few hours have been emitted since the start.
		if (args.restateEvery && poll >= 50 && poll % args.restateEvery === 0) {
			// One row of the last, the one before or the third settled hour (that one is not re-checked with 2).
			const turn = Math.floor(poll / args.restateEvery);
			const hour = Math.floor(state.wm / HOUR) * HOUR - (1 + (turn % 3)) * HOUR;
			const index = turn % template.length;
			restatements.set(`${hour}|${index}`, (restatements.get(`${hour}|${index}`) ?? 0) + 1);
			cache.delete(`${hour}|${HOUR}`);
			restatementsMade++;
			if (hour >= state.wm - (args.recheck ?? 0) * HOUR) restatedExpected++;
		}
		const rows: IDataObject[] = [];
		for (let hour = Math.floor(windowStart(state) / HOUR) * HOUR; hour < now; hour += HOUR) {
			for (const row of rowsOf(hour, Math.min(HOUR, now - hour))) rows.push(row);
		}
		const oldest = windowStart(state) - HOUR;
		for (const [key, value] of cache) {
			if (Date.parse(String(value[0]?.period_date)) < oldest) cache.delete(key);
		}
		const started = performance.now();
		const outcome = applyPoll(state, rows, now, settings);
		const stored = JSON.stringify(outcome.next);
		pollMs.push(performance.now() - started);
		state = JSON.parse(stored) as typeof state;
		emitted += outcome.emit.length;
		for (const row of outcome.emit) {
			const key = `${String(row.period_date)}|${String(row[idField])}`;
			const previous = outcome.restated.get(row);
			if (previous !== undefined) {
				restatedEmitted++;
				const before = lastEmitted.get(key);
				if (
					!before ||
					previous?.views !== before.views ||
					previous?.exchanged_spent !== before.exchanged_spent
				) {
					wrongPrevious++;
				}
			} else if (args.emit === 'completed') {
				seen.set(key, (seen.get(key) ?? 0) + 1);
			}
			if (settings.recheck) lastEmitted.set(key, row);
		}
		if (settings.recheck) {
			for (const key of lastEmitted.keys()) {
				if (Date.parse(key.slice(0, key.indexOf('|'))) < oldest) lastEmitted.delete(key);
			}
		}
		if (poll % args.every === 0) stateBytes.push(Buffer.byteLength(stored));
	}
	// The first hour starting at or after the initial watermark is the first one emitted.
	const firstHour = Math.ceil((Date.parse(START) - 2 * HOUR) / HOUR) * HOUR;
	const settledHours = Math.max(
		0,
		Math.floor((now - settings.settleMs - HOUR - firstHour) / HOUR) + 1,
	);
	return {
		rowsPerHour: template.length,
		stateBytes,
		pollMs,
		emitted,
		settledRows: settledHours * template.length,
		repeated: [...seen.values()].filter((n) => n > 1).length,
		restatementsMade,
		restatedExpected,
		restatedEmitted,
		wrongPrevious,
	};
}
