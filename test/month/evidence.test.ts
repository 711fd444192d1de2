import { monthEvidence } from '../../scripts/month/evidence';
import type { MonthReport } from '../../scripts/month/summary';

/** The parts of a month's report its evidence reads (made up here; a real one comes from the month). */
const report = {
	realSeconds: 2400,
	simulatedDays: 31,
	goals: [
		{ goal: 'failedOutsideFaults is 0', met: true, value: '0', why: '' },
		{
			goal: 'live heap after a full collection grows at most 1.10x',
			met: false,
			value: '1.2x',
			why: "a process's live heap grew more than that",
		},
	],
	executions: { total: 3173, failed: 46 },
	faults: [{ kind: 'apiDown' }],
	api: { requests: 22875, signIns: 7, refreshes: 787 },
	memory: { growth: 1.129, heapGrowth: 1.036 },
	triggerStateBytes: 60264,
	clock: { nudges: 150, idleSeconds: 1332 },
	memoryReadings: {
		main: [
			{ day: 1, rssMb: 480, heapMb: 200, rssAfterGcMb: 400 },
			{ day: 2, rssMb: 500, heapMb: 201, rssAfterGcMb: 410 },
		],
	},
	days: {
		executions: [{ day: 1, runs: 100, failed: 0 }],
		traffic: [{ day: 1, requests: 740, answers429: 0 }],
		faults: [{ day: 18, kind: 'apiDown' }],
	},
} as unknown as MonthReport;

describe("the month's evidence", () => {
	test('every goal with its figure, a missed one with why', () => {
		const evidence = monthEvidence(report, '2.41.1');
		expect(evidence.goals).toEqual([
			{ goal: 'failedOutsideFaults is 0', figure: '0', result: 'pass' },
			{
				goal: 'live heap after a full collection grows at most 1.10x',
				figure: "1.2x (a process's live heap grew more than that)",
				result: 'miss',
			},
		]);
		expect(evidence).toMatchObject({
			name: 'month',
			seconds: 2400,
			n8n: expect.stringMatching(/^2\.41\.1, queue mode/),
		});
		expect(evidence.figures).toContainEqual({
			what: 'live heap growth, largest of the processes',
			figure: '1.036x',
		});
		expect(evidence.figures).toContainEqual({
			what: 'one-second clock steps while one run alone waited on a timer and every n8n process slept',
			figure: '1332',
		});
	});

	test('its days: each process with its RSS and live heap, requests and 429s, failures and faults', () => {
		expect(monthEvidence(report, '2.41.1').days).toEqual({
			memory: {
				main: [
					{ day: 1, rssMb: 480, heapMb: 200 },
					{ day: 2, rssMb: 500, heapMb: 201 },
				],
			},
			executions: [{ day: 1, runs: 100, failed: 0 }],
			traffic: [{ day: 1, requests: 740, answers429: 0 }],
			faults: [{ day: 18, kind: 'apiDown' }],
		});
	});
});
