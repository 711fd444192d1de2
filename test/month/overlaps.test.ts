import type { ExecutionRow } from '../../scripts/month/executions';
import type { PlannedFault } from '../../scripts/month/faults';
import { overlapMoments, planOverlaps, sameMomentTrigger } from '../../scripts/month/overlaps';

const HOUR = 3_600_000;
const run = (id: number, startedAt: number, mode = 'trigger'): ExecutionRow => ({
	id,
	workflowId: 'creatives',
	status: 'success',
	mode,
	createdAt: startedAt - 20,
	startedAt,
	stoppedAt: startedAt + 3_000,
});
const fault = (hour: number, lasts = 0): PlannedFault => ({
	kind: 'create5xx',
	hour,
	when: 'during',
	forcesSignIn: false,
	lasts,
});

describe('two creatives runs at once', () => {
	test('the overlap hours are row hours of every sixth day, away from the faults', () => {
		const rowHours = [10, 34, 154, 178, 298];
		expect(planOverlaps(rowHours, [])).toEqual([10, 154, 298]);
		expect(planOverlaps(rowHours, [fault(153), fault(296, 1)])).toEqual([10]);
		// None left on those days: the first row hour no fault hits, even right after one.
		expect(planOverlaps([10, 34], [fault(10)])).toEqual([34]);
		expect(planOverlaps([8, 10, 34], [fault(8), fault(10), fault(33)])).toEqual([34]);
	});

	test('the second trigger fires at minute 5 of each overlap hour, on its date', () => {
		const start = Date.UTC(2026, 11, 4);
		const node = sameMomentTrigger([10, 154], start);
		expect(node.parameters).toEqual({
			rule: {
				interval: [
					{ field: 'cronExpression', expression: '0 5 10 4 12 *' },
					{ field: 'cronExpression', expression: '0 5 10 10 12 *' },
				],
			},
		});
	});

	test('runs that began within a second in an hour with new rows are one moment', () => {
		const h10 = 10 * HOUR;
		const figures = overlapMoments(
			[
				run(1, h10 + 61_000),
				run(2, h10 + 61_180),
				run(3, 11 * HOUR + 61_000),
				// Two at once in an hour without new rows: nothing to make twice, not counted.
				run(4, 12 * HOUR + 61_000),
				run(5, 12 * HOUR + 61_100),
				// A retry the stage started right after a run is not a second trigger.
				run(6, 13 * HOUR + 61_000),
				run(7, 13 * HOUR + 61_200, 'retry'),
			],
			[h10, 13 * HOUR],
		);
		expect(figures.overlaps).toBe(1);
		expect(figures.withoutNewRows).toBe(1);
		expect(figures.moments[0]).toEqual({
			at: new Date(h10 + 61_000).toISOString(),
			executions: ['#1 success', '#2 success'],
			spreadMs: 180,
		});
	});

	test('runs more than a second apart are not an overlap', () => {
		expect(
			overlapMoments([run(1, 10 * HOUR), run(2, 10 * HOUR + 1_500)], [10 * HOUR]).overlaps,
		).toBe(0);
	});
});
