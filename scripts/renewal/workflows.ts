/**
 * The workflows of the renewal stage: the queue stage's trigger (polled every minute) and
 * scheduled Stats → CSV (every 17 s), and a manual run of a multipart write (Audiences Create).
 */
import { exampleId, SANDBOX_CREDENTIAL, type Example, type WorkflowJson } from '../lib/workflows';
import { scheduledWorkflow, triggerWorkflow } from '../lib/statsWorkflows';

const AUDIENCE_TYPE = 'n8n-nodes-ad-cabinet.adCabinetAudiences';
export const MANUAL_NAMES = { manual: 'Run by hand', create: 'Create audience' };

function renamed(example: Example, file: string, name: string): Example {
	return {
		file,
		id: exampleId(`renewal/${file}`),
		workflow: { ...example.workflow, name },
	};
}

/**
 * The Stats Trigger (5-minute periods from an hour back) polled every minute at second 3: n8n polls
 * no more often than once a minute.
 */
export function pollingTrigger(startDate: Date): Example {
	return renamed(
		triggerWorkflow(startDate),
		'renewal-stats-trigger.json',
		'Renewal: new 5-minute stats rows',
	);
}

/** Schedule Trigger every 17 s → Stats (yesterday by hour and campaign) → CSV. */
export function scheduledStats(): Example {
	return renamed(
		scheduledWorkflow(),
		'renewal-scheduled-stats.json',
		'Renewal: stats to CSV every 17 s',
	);
}

/** 1,000 distinct phone numbers of one country, as Audiences Create needs at least that many. */
function phoneNumbers(): string[] {
	return Array.from({ length: 1000 }, (_, i) => `99893${String(i).padStart(7, '0')}`);
}

/** Manual Trigger → Audiences Create from a typed list: a multipart write, run by hand. */
export function manualAudience(accountId: string): Example {
	const workflow: WorkflowJson = {
		name: 'Renewal: create an audience by hand',
		nodes: [
			{
				name: MANUAL_NAMES.manual,
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				parameters: {},
			},
			{
				name: MANUAL_NAMES.create,
				type: AUDIENCE_TYPE,
				typeVersion: 1,
				parameters: {
					resource: 'audience',
					operation: 'create',
					accountId,
					title: 'Renewal audience',
					source: 'list',
					phoneNumbers: phoneNumbers().join(', '),
				},
				credentials: { adCabinetApi: { ...SANDBOX_CREDENTIAL } },
			},
		] as unknown as WorkflowJson['nodes'],
		connections: {
			[MANUAL_NAMES.manual]: { main: [[{ node: MANUAL_NAMES.create, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all' },
		pinData: {},
	};
	workflow.nodes.forEach((node, i) => Object.assign(node, { position: [i * 220, 0] }));
	return {
		file: 'renewal-manual-audience.json',
		id: exampleId('renewal/manual-audience'),
		workflow,
	};
}
