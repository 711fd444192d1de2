/**
 * The workflows the queue, lost-worker and renewal stages activate, built here (not examples: they
 * poll every minute and every 17 seconds, which no user wants to import as is).
 *
 *  A. Ad Cabinet Stats Trigger (5-minute periods by campaign, completed periods only, no settle
 *     delay, backfill from a start date, polled every minute) → a No Operation node whose run data
 *     holds exactly the items that reached a worker. Two copies, in EUR and in USD: both poll at
 *     the same second of each minute, so two jobs wait in the queue at once and both workers get
 *     work.
 *  B. Schedule Trigger (every 17 s) → Ad Cabinet Stats (yesterday by hour and campaign, Return
 *     All) → Convert to File (CSV). Not a multiple of 5 s: Bull's idle workers wait on Redis in 5 s
 *     rounds, and a cadence in step with those rounds hands every job to the same worker.
 */
import type { Grouping } from '../../nodes/shared/stats/apiValues';
import { exampleId, SANDBOX_CREDENTIAL, type Example, type WorkflowJson } from './workflows';

const TRIGGER_TYPE = 'n8n-nodes-ad-cabinet.adCabinetStatsTrigger';
export const STATS_TYPE = 'n8n-nodes-ad-cabinet.adCabinetStats';

/** The trigger's period unit: the finest there is, so that a new period completes every 5 minutes. */
export const TRIGGER_UNIT = '5_minutes';
/** Both workflows group by campaign, so several rows share each period. */
export const GROUPING: Grouping[] = ['campaign'];
/** The Stats node's unit in workflow B; it tells B's requests from the trigger's in the sandbox log. */
export const SCHEDULED_UNIT = 'hour';
export const SCHEDULE_SECONDS = 17;
/** Workflow B's currency; the trigger copies are in TRIGGER_CURRENCIES. */
export const CURRENCY = 'EUR';
export const TRIGGER_CURRENCIES = ['EUR', 'USD'] as const;

export const NAMES = {
	trigger: 'New stats rows',
	received: 'Received rows',
	schedule: `Every ${SCHEDULE_SECONDS} seconds`,
	stats: 'Stats by campaign',
	csv: 'CSV file',
};

export const credentials = { adCabinetApi: { ...SANDBOX_CREDENTIAL } };

export function connect(from: string, to: string): Record<string, unknown> {
	return { [from]: { main: [[{ node: to, type: 'main', index: 0 }]] } };
}

export function queueExample(file: string, workflow: WorkflowJson): Example {
	return { file, id: exampleId(`queue/${file}`), workflow };
}

/** Workflow A: the trigger emits every completed 5-minute period from `startDate` on, in `currency`. */
export function triggerWorkflow(startDate: Date, currency: string = CURRENCY): Example {
	return queueExample(`queue-stats-trigger-${currency.toLowerCase()}.json`, {
		name: `Queue: new 5-minute stats rows (${currency})`,
		nodes: [
			{
				name: NAMES.trigger,
				type: TRIGGER_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					// Every minute at second 3 for every copy ("Every Minute" would pick a random second each).
					pollTimes: { item: [{ mode: 'custom', cronExpression: '3 * * * * *' }] },
					periodGroupingUnit: TRIGGER_UNIT,
					grouping: GROUPING,
					emit: 'completed',
					startFrom: 'date',
					startDate: startDate.toISOString(),
					currency,
					numericValues: true,
					filters: {},
					options: { settleMinutes: 0 },
				},
				credentials,
			},
			{
				name: NAMES.received,
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [240, 0],
				parameters: {},
			},
		] as unknown as WorkflowJson['nodes'],
		connections: connect(NAMES.trigger, NAMES.received),
		settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all' },
		pinData: {},
	});
}

/** Workflow B: yesterday's hourly rows by campaign as a CSV file, every SCHEDULE_SECONDS seconds. */
export function scheduledWorkflow(): Example {
	return queueExample('queue-scheduled-stats.json', {
		name: 'Queue: scheduled stats to CSV',
		nodes: [
			{
				name: NAMES.schedule,
				type: 'n8n-nodes-base.scheduleTrigger',
				typeVersion: 1.2,
				position: [0, 0],
				parameters: {
					rule: { interval: [{ field: 'seconds', secondsInterval: SCHEDULE_SECONDS }] },
				},
			},
			{
				name: NAMES.stats,
				type: STATS_TYPE,
				typeVersion: 1,
				position: [220, 0],
				parameters: {
					resource: 'statistic',
					operation: 'getAll',
					period: 'yesterday',
					periodGroupingUnit: SCHEDULED_UNIT,
					grouping: GROUPING,
					currency: CURRENCY,
					returnAll: true,
					filters: {},
					options: {},
				},
				credentials,
			},
			{
				name: NAMES.csv,
				type: 'n8n-nodes-base.convertToFile',
				typeVersion: 1.1,
				position: [440, 0],
				parameters: { operation: 'csv', options: { fileName: 'queue-stats.csv' } },
			},
		] as unknown as WorkflowJson['nodes'],
		connections: { ...connect(NAMES.schedule, NAMES.stats), ...connect(NAMES.stats, NAMES.csv) },
		settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all' },
		pinData: {},
	});
}
