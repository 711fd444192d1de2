/**
 * The lost-worker stage's workflows: the queue stage's trigger (scripts/lib/statsWorkflows.ts)
 * delivering each row to a store, and the manual run that sends one window again.
 */
import type { Example, WorkflowJson } from '../lib/workflows';
import {
	connect,
	credentials,
	CURRENCY,
	GROUPING,
	queueExample,
	STATS_TYPE,
	TRIGGER_UNIT,
	triggerWorkflow,
} from '../lib/statsWorkflows';

export const LOST_NAMES = {
	trigger: 'New stats rows',
	store: 'Store each row',
};

/**
 * The lost-worker workflow: the trigger (as workflow A, in EUR) → an HTTP Request that sends each
 * row to `sinkUrl`, one every `intervalMs`, standing for a write into the user's own store.
 */
export function lostWorkerWorkflow(startDate: Date, sinkUrl: string, intervalMs: number): Example {
	const trigger = triggerWorkflow(startDate, CURRENCY).workflow.nodes[0];
	return queueExample('queue-lost-worker.json', {
		name: 'Queue: store new stats rows (lost worker)',
		nodes: [
			{ ...trigger, name: LOST_NAMES.trigger },
			{
				name: LOST_NAMES.store,
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [240, 0],
				parameters: {
					method: 'POST',
					url: sinkUrl,
					sendBody: true,
					specifyBody: 'json',
					jsonBody: '={{ JSON.stringify($json) }}',
					options: { batching: { batch: { batchSize: 1, batchInterval: intervalMs } } },
				},
			},
		] as unknown as WorkflowJson['nodes'],
		connections: connect(LOST_NAMES.trigger, LOST_NAMES.store),
		settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all' },
		pinData: {},
	});
}

/**
 * Recovery after a lost worker: a manual run that reads one window again with the Stats node (Get
 * Many, the trigger's unit, grouping and currency) and sends each row to the same store.
 */
export function resendWindowWorkflow(
	from: Date,
	to: Date,
	sinkUrl: string,
	intervalMs: number,
): Example {
	const store = lostWorkerWorkflow(from, sinkUrl, intervalMs).workflow.nodes[1];
	const names = { manual: 'Run by hand', stats: 'Rows of the window' };
	return queueExample('queue-resend-window.json', {
		name: 'Queue: send a window again (after a lost worker)',
		nodes: [
			{
				name: names.manual,
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				name: names.stats,
				type: STATS_TYPE,
				typeVersion: 1,
				position: [220, 0],
				parameters: {
					resource: 'statistic',
					operation: 'getAll',
					period: 'custom',
					periodFrom: from.toISOString(),
					periodTo: to.toISOString(),
					periodGroupingUnit: TRIGGER_UNIT,
					grouping: GROUPING,
					currency: CURRENCY,
					returnAll: true,
					filters: {},
					options: {},
				},
				credentials,
			},
			{ ...store, position: [440, 0] },
		] as unknown as WorkflowJson['nodes'],
		connections: { ...connect(names.manual, names.stats), ...connect(names.stats, store.name) },
		settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all' },
		pinData: {},
	});
}
