/**
 * The four reading workflows a month runs (the three that write or alert are in writeFlows.ts), all
 * active the whole time, all on the one sign-in credential:
 *
 *  trigger  Stats Trigger, hourly by campaign, Re-Check Last 100 Periods, polled every hour at
 *           minute 5 → the row's key and figures → a data table (Upsert on row_key), and each emitted row
 *           to the sink (so that a row emitted twice is seen, which the upsert would hide).
 *  sync     Schedule, hourly at minute 5 → Stats Get Many, Last 5 Days (today included) by ad →
 *           the row's key and figures → PostgreSQL, Insert or Update on row_key.
 *  balance  examples/balance-alert.json, daily at 08:05, its alert sent to the sink.
 *  ads      Schedule, every 6 hours at minute 5 → one item per campaign → Ads Get Many, Return
 *           All, per campaign: more requests to the ad list than the limit lets through in a
 *           minute, so the pacing waits → the count of ads to the sink.
 */
import {
	exampleId,
	readWorkflow,
	SANDBOX_CREDENTIAL,
	type Example,
	type WorkflowJson,
	type WorkflowNode,
} from '../lib/workflows';

export const MONTH_POSTGRES = { id: 'adCabinetMonthPostgres', name: 'Month PostgreSQL' };
export const SYNC_TABLE = 'ad_stats_by_ad';
export const DATA_TABLE = 'campaign_hours';
/** Minute of the hour every workflow starts at: one jump of the clock starts them together. */
export const MINUTE = 5;
export const BALANCE_HOUR = 8;
/**
 * The sandbox, like an ad platform, restates a day's figures up to 3 days after the day ends, so
 * both stores re-read that far back: a shorter window never sees a late restatement and the store
 * keeps the old figures. Last 5 Days (today included) still reads a day on the 4th day after it;
 * 100 hourly periods reach 4 days behind the newest hour.
 */
export const SYNC_DAYS = 5;
const RECHECK_PERIODS = 100;
export const ADS_EVERY_HOURS = 6;

export const FIGURES = ['views', 'clicks', 'actions', 'exchanged_spent'] as const;

export type FlowName = 'trigger' | 'sync' | 'balance' | 'ads' | 'creatives' | 'cpm' | 'alerts';

const credentials = { adCabinetApi: { ...SANDBOX_CREDENTIAL } };

function node(
	name: string,
	type: string,
	typeVersion: number,
	parameters: Record<string, unknown>,
	extra: Partial<WorkflowNode> = {},
): WorkflowNode {
	return { name, type, typeVersion, parameters, ...extra };
}

function chain(...names: Array<string | string[]>): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (let i = 0; i < names.length - 1; i++) {
		const from = names[i] as string;
		const to = ([] as string[]).concat(names[i + 1]);
		out[from] = { main: [to.map((n) => ({ node: n, type: 'main', index: 0 }))] };
	}
	return out;
}

/**
 * A Set node keeping only the key, the period, one id field and the compared figures. It names the
 * fields to keep instead of setting each by an expression: an expression per field and item costs
 * about a second per hourly sync of 600 rows, which a month pays 744 times.
 */
function keepFields(
	name: string,
	idField: 'campaign_id' | 'ad_id',
	restated: boolean,
): WorkflowNode {
	const fields = ['row_key', 'period_date', idField, ...FIGURES, ...(restated ? ['restated'] : [])];
	return node(name, 'n8n-nodes-base.set', 3.4, {
		mode: 'manual',
		includeOtherFields: true,
		include: 'selected',
		includeFields: fields.join(', '),
		assignments: { assignments: [] },
		options: {},
	});
}

function post(name: string, url: string): WorkflowNode {
	return node(name, 'n8n-nodes-base.httpRequest', 4.2, {
		method: 'POST',
		url,
		sendBody: true,
		specifyBody: 'json',
		jsonBody: '={{ JSON.stringify($json) }}',
		options: {},
	});
}

/**
 * A Schedule Trigger on a cron expression with its second set: n8n's interval rules pick a second
 * of their own (stable per node, anywhere in the minute), and the clock jumps to second 1.
 */
export function scheduled(name: string, hours: string): WorkflowNode {
	return node(name, 'n8n-nodes-base.scheduleTrigger', 1.2, {
		rule: { interval: [{ field: 'cronExpression', expression: `0 ${MINUTE} ${hours} * * *` }] },
	});
}

export function example(name: FlowName, workflow: WorkflowJson): Example {
	workflow.nodes.forEach((n, i) => {
		if (!('position' in n)) Object.assign(n, { position: [i * 220, 0] });
	});
	workflow.settings = {
		executionOrder: 'v1',
		saveDataSuccessExecution: 'all',
		saveDataErrorExecution: 'all',
		...(workflow.settings as object),
	};
	return { file: `month-${name}.json`, id: exampleId(`month/${name}`), workflow };
}

export function triggerFlow(startDate: Date, sink: string): Example {
	return example('trigger', {
		name: 'Month: new hours by campaign',
		nodes: [
			node(
				'New hours by campaign',
				'n8n-nodes-ad-cabinet.adCabinetStatsTrigger',
				1.1,
				{
					pollTimes: { item: [{ mode: 'custom', cronExpression: `0 ${MINUTE} * * * *` }] },
					periodGroupingUnit: 'hour',
					grouping: ['campaign'],
					emit: 'completed',
					startFrom: 'date',
					startDate: startDate.toISOString(),
					currency: 'EUR',
					numericValues: true,
					filters: {},
					options: { settleMinutes: 0, recheckPeriods: RECHECK_PERIODS },
				},
				{ credentials },
			),
			keepFields('Key and figures', 'campaign_id', true),
			node('Upsert by row_key', 'n8n-nodes-base.dataTable', 1.1, {
				resource: 'row',
				operation: 'upsert',
				dataTableId: { __rl: true, mode: 'name', value: DATA_TABLE },
				matchType: 'allConditions',
				filters: {
					conditions: [{ keyName: 'row_key', condition: 'eq', keyValue: '={{ $json.row_key }}' }],
				},
				columns: { mappingMode: 'autoMapInputData', value: {}, matchingColumns: [], schema: [] },
				options: {},
			}),
			post('Record emitted row', `${sink}/trigger`),
		],
		connections: chain('New hours by campaign', 'Key and figures', [
			'Upsert by row_key',
			'Record emitted row',
		]),
	});
}

export function syncFlow(): Example {
	return example('sync', {
		name: `Month: last ${SYNC_DAYS} days by ad to PostgreSQL`,
		nodes: [
			scheduled('Every hour', '*'),
			node(
				`Last ${SYNC_DAYS} days by ad`,
				'n8n-nodes-ad-cabinet.adCabinetStats',
				1.2,
				{
					resource: 'statistic',
					operation: 'getAll',
					period: 'lastNDays',
					lastDays: SYNC_DAYS,
					includeToday: true,
					periodGroupingUnit: 'day',
					grouping: ['ad'],
					currency: 'EUR',
					returnAll: true,
					simplify: true,
					filters: {},
					options: {},
				},
				{ credentials },
			),
			keepFields('Key and figures', 'ad_id', false),
			node(
				'Insert or update by row_key',
				'n8n-nodes-base.postgres',
				2.6,
				{
					operation: 'upsert',
					schema: { __rl: true, mode: 'list', value: 'public' },
					table: { __rl: true, mode: 'name', value: SYNC_TABLE },
					columns: {
						mappingMode: 'autoMapInputData',
						value: {},
						matchingColumns: ['row_key'],
						schema: [],
					},
					options: {},
				},
				{ credentials: { postgres: { ...MONTH_POSTGRES } } },
			),
		],
		connections: chain(
			'Every hour',
			`Last ${SYNC_DAYS} days by ad`,
			'Key and figures',
			'Insert or update by row_key',
		),
	});
}

/** The balance-alert example as it is, daily at 08:05, its last node replaced by a POST to the sink. */
export function balanceFlow(sink: string): Example {
	const workflow = readWorkflow('balance-alert.json');
	const schedule = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.scheduleTrigger');
	const send = workflow.nodes.find((n) => n.name.startsWith('Send alert'));
	if (!schedule || !send)
		throw new Error('balance-alert.json: schedule or Send alert node missing');
	schedule.parameters = scheduled(schedule.name, String(BALANCE_HOUR)).parameters;
	const sent = post(send.name, `${sink}/alerts`);
	Object.assign(send, {
		type: sent.type,
		typeVersion: sent.typeVersion,
		parameters: sent.parameters,
	});
	return example('balance', { ...workflow, name: 'Month: balance alert' });
}

export function adsFlow(campaignNames: string[], sink: string): Example {
	return example('ads', {
		name: 'Month: every ad, per campaign',
		nodes: [
			scheduled('Every 6 hours', `*/${ADS_EVERY_HOURS}`),
			node('One item per campaign', 'n8n-nodes-base.set', 3.4, {
				mode: 'raw',
				jsonOutput: JSON.stringify({
					campaigns: campaignNames.map((name) => ({ campaign: name })),
				}),
				options: {},
			}),
			node('Split campaigns', 'n8n-nodes-base.splitOut', 1, {
				fieldToSplitOut: 'campaigns',
				options: {},
			}),
			node(
				'Ads of the campaign',
				'n8n-nodes-ad-cabinet.adCabinetAds',
				1.2,
				{
					resource: 'ad',
					operation: 'getAll',
					returnAll: true,
					filters: { campaignNames: '={{ $json.campaign }}' },
				},
				{ credentials },
			),
			node('Count', 'n8n-nodes-base.summarize', 1.1, {
				fieldsToSummarize: { values: [{ aggregation: 'count', field: 'id' }] },
				options: {},
			}),
			post('Report the count', `${sink}/ads`),
		],
		connections: chain(
			'Every 6 hours',
			'One item per campaign',
			'Split campaigns',
			'Ads of the campaign',
			'Count',
			'Report the count',
		),
	});
}
