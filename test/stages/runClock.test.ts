import { utcDay } from '../../scripts/lib/expectationContext';
import { executionStartedAt } from '../../scripts/lib/runClock';
import type { RunData } from '../../scripts/lib/workflows';

const runWith = (starts: Record<string, number[]>): RunData => ({
	data: {
		resultData: {
			runData: Object.fromEntries(
				Object.entries(starts).map(([node, times]) => [
					node,
					times.map((startTime) => ({ startTime })),
				]),
			),
		},
	},
});

describe("a stage's expected dates come from the execution's own clock", () => {
	afterEach(() => jest.useRealTimers());

	test('the execution started when its first node did', () => {
		const run = runWith({
			'Last 7 days by campaign': [Date.parse('2026-11-30T00:00:00.400Z')],
			'Schedule Trigger': [Date.parse('2026-11-30T00:00:00.100Z')],
			'One row per campaign': [Date.parse('2026-11-30T00:00:00.900Z')],
		});
		expect(executionStartedAt(run).toISOString()).toBe('2026-11-30T00:00:00.100Z');
	});

	test('a run just after midnight expects the week before its own day, whatever the checking clock reads', () => {
		// The stage checks a second before midnight: its own clock would give the week before that day.
		jest.useFakeTimers({ now: Date.parse('2026-11-29T23:59:59.000Z') });
		const startedAt = executionStartedAt(
			runWith({ Trigger: [Date.parse('2026-11-30T00:00:05Z')] }),
		);
		expect([utcDay(startedAt, -7), utcDay(startedAt, -1)]).toEqual(['2026-11-23', '2026-11-29']);
		expect([utcDay(new Date(), -7), utcDay(new Date(), -1)]).toEqual(['2026-11-22', '2026-11-28']);
	});

	test('run data without start times is refused, not read as now', () => {
		expect(() =>
			executionStartedAt({ data: { resultData: { runData: { Trigger: [{}] } } } }),
		).toThrow(/no node start time/);
	});
});
