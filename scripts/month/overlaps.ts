/**
 * Two runs of the creatives workflow at once, with the same new rows: on some days the rows added
 * at 10:05 are met by the hourly run and by a second Schedule Trigger of the same workflow firing
 * at the same second, as when a schedule is duplicated or someone starts the workflow while it
 * runs. n8n main fires both cron jobs on one tick and queues two executions, which the workers
 * take at once: both read the same rows without an ad ID, and both go to create their ads. Skip
 * Identical must let only one of them make each ad.
 *
 * The report counts the moments from the start times n8n wrote, not from this plan: a moment is
 * two or more runs of the workflow that began within OVERLAP_MS of each other, in an hour whose
 * rows were added just before it.
 */
import type { ExecutionRow } from './executions';
import type { PlannedFault } from './faults';
import { MINUTE } from './workflows';
import type { WorkflowNode } from '../lib/workflows';

/** Every sixth day that adds rows gets a second run at 10:05 (day 1, 7, 13, 19, 25, 31). */
const OVERLAP_EVERY_DAYS = 6;
/** Two runs that began this close are one moment: the workers take queued runs within ms. */
const OVERLAP_MS = 1_000;
const SAME_MOMENT_TRIGGER = 'Same moment, second run';

/**
 * The hours (steps from the month's start) of the overlaps: hours that add rows, on every sixth day,
 * away from the faults (an hour before to an hour after each, its whole length included), so that
 * a fault's figures stay its own. With none left (a short run, where the faults crowd every hour
 * that adds rows), the first hour with rows that no fault hits.
 */
export function planOverlaps(rowHours: number[], faults: PlannedFault[]): number[] {
	const hit = (margin: number) => {
		const hours = new Set<number>();
		for (const f of faults)
			for (let h = f.hour - margin; h <= f.hour + f.lasts + margin; h++) hours.add(h);
		return hours;
	};
	const sorted = [...new Set(rowHours)].sort((a, b) => a - b);
	const near = hit(1);
	const chosen = sorted.filter(
		(h) => !near.has(h) && Math.floor(h / 24) % OVERLAP_EVERY_DAYS === 0,
	);
	if (chosen.length > 0) return chosen;
	const on = hit(0);
	return sorted.filter((h) => !on.has(h)).slice(0, 1);
}

/** A second Schedule Trigger firing at minute 5 of each overlap hour, on its date only (UTC). */
export function sameMomentTrigger(hours: number[], startMs: number): WorkflowNode {
	const interval = hours.map((hour) => {
		const at = new Date(startMs + hour * 3_600_000);
		return {
			field: 'cronExpression',
			expression: `0 ${MINUTE} ${at.getUTCHours()} ${at.getUTCDate()} ${at.getUTCMonth() + 1} *`,
		};
	});
	return {
		name: SAME_MOMENT_TRIGGER,
		type: 'n8n-nodes-base.scheduleTrigger',
		typeVersion: 1.2,
		parameters: { rule: { interval } },
	};
}

interface OverlapMoment {
	at: string;
	executions: string[];
	/** Real spread of the start times within the moment, ms. */
	spreadMs: number;
}

/**
 * The moments two or more runs began within OVERLAP_MS of each other, in an hour that added rows
 * (`rowHoursMs`: the start of each such hour). Retries and manual runs are left out: the stage
 * starts those itself, later.
 */
export function overlapMoments(runs: ExecutionRow[], rowHoursMs: number[]) {
	const started = runs
		.filter((r) => r.startedAt !== undefined && r.mode !== 'retry' && r.mode !== 'manual')
		.sort((a, b) => (a.startedAt as number) - (b.startedAt as number));
	const groups: ExecutionRow[][] = [];
	for (const run of started) {
		const last = groups.at(-1);
		if (last && (run.startedAt as number) - (last[0].startedAt as number) <= OVERLAP_MS)
			last.push(run);
		else groups.push([run]);
	}
	const hours = new Set(rowHoursMs);
	const hourOf = (ms: number) => Math.floor(ms / 3_600_000) * 3_600_000;
	const moments: OverlapMoment[] = groups
		.filter((g) => g.length > 1 && hours.has(hourOf(g[0].startedAt as number)))
		.map((g) => ({
			at: new Date(g[0].startedAt as number).toISOString(),
			executions: g.map((r) => `#${r.id} ${r.status}`),
			spreadMs: (g.at(-1)?.startedAt as number) - (g[0].startedAt as number),
		}));
	return {
		overlaps: moments.length,
		/** Moments of two runs at once in hours without new rows (nothing to create twice). */
		withoutNewRows: groups.filter((g) => g.length > 1).length - moments.length,
		moments,
	};
}
