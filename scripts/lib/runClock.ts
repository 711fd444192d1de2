import type { RunData } from './workflows';

/**
 * When n8n started this execution, by n8n's own clock: its first node's start in the run data.
 * What a workflow computes from today (a Last N Days period, `$today`) is of this instant's day,
 * so an expectation takes its day from here, never from a second reading of the clock, which
 * may fall on the other side of midnight.
 */
export function executionStartedAt(run: RunData): Date {
	const starts = Object.values(run.data.resultData.runData).flatMap((runs) =>
		runs.map((task) => task.startTime).filter((ms): ms is number => typeof ms === 'number'),
	);
	if (!starts.length) throw new Error('the run data holds no node start time (startTime)');
	return new Date(Math.min(...starts));
}
