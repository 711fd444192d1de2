/**
 * The workflows of the sync stage: the two sync examples (examples/sync/) as they are, on a
 * schedule of seconds instead of every hour, and a Stats Trigger with Re-Check Last 2 Periods.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
	EXAMPLES_DIR,
	exampleId,
	SANDBOX_CREDENTIAL,
	type Example,
	type WorkflowJson,
} from '../lib/workflows';

const SYNC_DIR = join(EXAMPLES_DIR, 'sync');
const POSTGRES_CREDENTIAL = { id: 'adCabinetSyncPostgres', name: 'Sync PostgreSQL' };

/** The PostgreSQL credential of the sync table, in the stage's own database `sync`. */
export function syncTableCredential(port: number): object {
	return {
		...POSTGRES_CREDENTIAL,
		type: 'postgres',
		data: {
			host: '127.0.0.1',
			port,
			database: 'sync',
			user: 'postgres',
			password: '',
			ssl: 'disable',
			allowUnauthorizedCerts: false,
			maxConnections: 10,
		},
	};
}

export interface SyncFlow {
	example: Example;
	store: 'postgres' | 'dataTable';
	/** Seconds of each minute it runs at. */
	seconds: number[];
	/** Its nodes: the schedule, the Stats node and the store node. */
	names: { schedule: string; stats: string; store: string };
}

/** A sync example with its schedule set to the given seconds of every minute. */
export function syncFlow(file: string, store: SyncFlow['store'], seconds: number[]): SyncFlow {
	const workflow = JSON.parse(readFileSync(join(SYNC_DIR, file), 'utf8')) as WorkflowJson;
	const schedule = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.scheduleTrigger');
	const stats = workflow.nodes.find((n) => n.type === 'n8n-nodes-ad-cabinet.adCabinetStats');
	const storeNode = workflow.nodes.find((n) => /\.(postgres|dataTable)$/.test(n.type));
	if (!schedule || !stats || !storeNode)
		throw new Error(`${file}: schedule, Stats or store node missing`);
	schedule.parameters = {
		rule: { interval: [{ field: 'cronExpression', expression: `${seconds.join(',')} * * * * *` }] },
	};
	workflow.settings = { ...(workflow.settings as object), saveDataSuccessExecution: 'all' };
	return {
		example: { file: `sync-${file}`, id: exampleId(`sync/${file}`), workflow },
		store,
		seconds,
		names: { schedule: schedule.name, stats: stats.name, store: storeNode.name },
	};
}

export const TRIGGER_NAMES = { trigger: 'Restated stats rows', received: 'Received rows' };

/**
 * The Stats Trigger (1.1): daily rows by campaign in EUR from `startDate`, no settle delay, Re-Check
 * Last 2 Periods, polled at the given seconds of every minute → a No Operation node whose run data
 * holds what reached a worker.
 */
export function recheckTriggerFlow(startDate: Date, seconds: number[]): Example {
	const workflow: WorkflowJson = {
		name: 'Sync: stats trigger re-checking the last 2 days',
		nodes: [
			{
				name: TRIGGER_NAMES.trigger,
				type: 'n8n-nodes-ad-cabinet.adCabinetStatsTrigger',
				typeVersion: 1.1,
				position: [0, 0],
				parameters: {
					pollTimes: {
						item: [{ mode: 'custom', cronExpression: `${seconds.join(',')} * * * * *` }],
					},
					periodGroupingUnit: 'day',
					grouping: ['campaign'],
					emit: 'completed',
					startFrom: 'date',
					startDate: startDate.toISOString(),
					currency: 'EUR',
					numericValues: true,
					filters: {},
					options: { settleMinutes: 0, recheckPeriods: 2 },
				},
				credentials: { adCabinetApi: { ...SANDBOX_CREDENTIAL } },
			},
			{
				name: TRIGGER_NAMES.received,
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [240, 0],
				parameters: {},
			},
		] as unknown as WorkflowJson['nodes'],
		connections: {
			[TRIGGER_NAMES.trigger]: {
				main: [[{ node: TRIGGER_NAMES.received, type: 'main', index: 0 }]],
			},
		},
		settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all' },
		pinData: {},
	};
	return { file: 'sync-recheck-trigger.json', id: exampleId('sync/recheck-trigger'), workflow };
}
