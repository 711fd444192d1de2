/** The month's report for docs/measured.md: its goals, its headline figures and its days. */
import { machine, type Evidence } from '../lib/evidence';
import type { MonthReport } from './summary';

export function monthEvidence(report: MonthReport, n8nVersion: string): Evidence {
	const figure = (what: string, value: unknown) => ({ what, figure: String(value) });
	return {
		name: 'month',
		title: 'A month in queue mode',
		command: 'npm run test:month',
		date: new Date().toISOString(),
		machine: machine(),
		n8n: `${n8nVersion}, queue mode (main, 2 workers, PostgreSQL 17, Redis)`,
		seconds: report.realSeconds,
		goals: report.goals.map((g) => ({
			goal: g.goal,
			figure: g.met || !g.why ? g.value : `${g.value} (${g.why})`,
			result: g.met ? 'pass' : 'miss',
		})),
		figures: [
			figure('simulated days', report.simulatedDays),
			figure('executions', report.executions.total),
			figure('executions failed (all within faults)', report.executions.failed),
			figure('faults injected', report.faults.length),
			figure('API requests', report.api.requests),
			figure('sign-in requests', report.api.signIns),
			figure('token refreshes', report.api.refreshes),
			figure('RSS growth, largest of the processes', `${report.memory.growth}x`),
			figure('live heap growth, largest of the processes', `${report.memory.heapGrowth}x`),
			figure("trigger's stored state at the end", `${report.triggerStateBytes} bytes`),
			// The real time depends on these: simulated time the clock skipped while n8n only waited.
			figure('clock jumps while one run alone waited out the rate limit', report.clock.nudges),
			figure(
				'one-second clock steps while one run alone waited on a timer and every n8n process slept',
				report.clock.idleSeconds,
			),
		],
		days: {
			memory: Object.fromEntries(
				Object.entries(report.memoryReadings).map(([name, list]) => [
					name,
					list.map((r) => ({ day: r.day, rssMb: r.rssMb, heapMb: r.heapMb })),
				]),
			),
			...report.days,
		},
	};
}
