import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import type { Operation } from '../../../shared/operation';
import { credentialViewOf } from '../../../shared/auth';
import { MAX_PAGE_SIZE } from '../../../shared/constants';
import { paceLimitOf } from '../../../shared/transport/pacing';
import { lastDaysRange, presetRange, readDate, type PeriodPreset } from '../../../shared/dates';
import {
	currencyField,
	groupingField,
	numericValuesField,
	optionsOf,
	periodUnitField,
	statsFiltersFields,
} from '../../../shared/stats/fields';
import { readCabinetIdList } from '../../../shared/cabinetId';
import { STATS_ORDER_TERMS } from '../../../shared/vocabulary';
import {
	DEFAULT_PARALLEL_REQUESTS,
	fetchStats,
	MAX_PARALLEL_REQUESTS,
} from '../../../shared/stats/fetch';
import { connectionOptions } from '../../../shared/transport/request';
import { checkStatsQuery, readStatsQuery, STATS_FIELD_NAMES } from '../../../shared/stats/query';
import { numericRow, rowKeyMaker } from '../../../shared/stats/rows';
import { eachItem } from '../../../shared/perItem';
import { invalidInput } from '../../../shared/validation';
import { readLimit, returnAllFields } from '../../../shared/returnAll';
import { pick, simplifyFields } from '../../../shared/simplify';
import { limitHint, pacingHint, type LastPage } from '../../../shared/stats/hints';

/** What Simplify keeps of a row: the period, who it is about (with Grouping), and the figures. */
const SIMPLE_STATS_FIELDS = [
	'period_date',
	'platform_cabinet_id',
	'platform_cabinet_name',
	'campaign_id',
	'campaign_name',
	'ad_id',
	'ad_title',
	'ad_status',
	'ad_object',
	'exchanged_spent',
	'exchange_currency',
	'views',
	'clicks',
	'actions',
	'ctr',
	'cpc',
	'cpm',
	'cpa',
	'cvr',
] as const;

const SIMPLE_STATS_FIELDS_WITH_KEY = [...SIMPLE_STATS_FIELDS, 'row_key'] as const;

const show = { resource: ['statistic'], operation: ['getAll'] };

/** "Last N Days" reaches back at most ten years. */
const MAX_LAST_DAYS = 3660;

/** From this version every row carries `row_key`. */
const ROW_KEY_VERSION = 1.2;

/** Versions whose Cabinet IDs filter is typed text; later ones choose the cabinets from a list. */
const CABINET_IDS_TYPED_IN = [1, 1.1];

const fields: INodeProperties[] = [
	{
		displayName: 'Period',
		name: 'period',
		type: 'options',
		default: 'last7Days',
		displayOptions: { show },
		description: "Time range of the statistics, in the workflow's timezone",
		options: [
			{ name: 'Custom', value: 'custom', description: 'Set Period From and Period To' },
			{ name: 'Last 30 Days', value: 'last30Days', description: 'Today and the 29 days before' },
			{ name: 'Last 7 Days', value: 'last7Days', description: 'Today and the 6 days before' },
			{ name: 'Last Month', value: 'lastMonth' },
			{
				name: 'Last N Days',
				value: 'lastNDays',
				description: 'A rolling window of whole days: set Days and Include Today',
			},
			{ name: 'This Month', value: 'thisMonth' },
			{ name: 'Today', value: 'today' },
			{ name: 'Yesterday', value: 'yesterday' },
		],
	},
	{
		displayName: 'Days',
		name: 'lastDays',
		type: 'number',
		default: 3,
		typeOptions: { minValue: 1, maxValue: MAX_LAST_DAYS },
		displayOptions: { show: { ...show, period: ['lastNDays'] } },
		description:
			"How many whole days, in the workflow's timezone. Re-reading the last few days on every run picks up figures the platform corrects after the day has ended.",
	},
	{
		displayName: 'Include Today',
		name: 'includeToday',
		type: 'boolean',
		default: true,
		displayOptions: { show: { ...show, period: ['lastNDays'] } },
		description: 'Whether the days end with today (its figures still growing) or with yesterday',
	},
	{
		displayName: 'Period From',
		name: 'periodFrom',
		type: 'dateTime',
		required: true,
		default: '',
		displayOptions: { show: { ...show, period: ['custom'] } },
		description: 'Start of the period, e.g. {{ $today.minus({ days: 7 }) }}',
	},
	{
		displayName: 'Period To',
		name: 'periodTo',
		type: 'dateTime',
		required: true,
		default: '',
		displayOptions: { show: { ...show, period: ['custom'] } },
		description: 'End of the period, e.g. {{ $now }}',
	},
	{ ...periodUnitField, displayOptions: { show } },
	{ ...groupingField, displayOptions: { show } },
	{ ...currencyField, displayOptions: { show } },
	...returnAllFields(show),
	...simplifyFields(
		show,
		'the period, the cabinet, campaign, ad and object a row is about (with Grouping), spend in the chosen currency, views, clicks, actions, the ratios, and row_key (the column to match on when writing the rows to a sheet or table; nodes saved before version 1.2 have none)',
	),
	...statsFiltersFields(show, CABINET_IDS_TYPED_IN),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Include Column Metadata',
				name: 'includeColumns',
				type: 'boolean',
				default: false,
				description:
					'Whether to add the API\'s column list (key and type of every field) to the first item, under "columns"',
			},
			numericValuesField,
			{
				displayName: 'Order',
				name: 'order',
				type: 'options',
				default: 'period',
				options: optionsOf(STATS_ORDER_TERMS),
			},
			{
				displayName: 'Page Size',
				name: 'pageSize',
				type: 'number',
				default: MAX_PAGE_SIZE,
				typeOptions: { minValue: 1, maxValue: MAX_PAGE_SIZE },
				description:
					"Rows per request, at most 500 (the API's maximum). Smaller pages only help with slow connections.",
			},
			{
				displayName: 'Requests at Once',
				name: 'parallelRequests',
				type: 'number',
				default: DEFAULT_PARALLEL_REQUESTS,
				typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_REQUESTS },
				description:
					"Applies only when the credential's Rate Limit Requests is 0 (pacing off): how many pages Return All may fetch at the same time, where more is faster over a slow network. With pacing on (the default) pages are always fetched one after another, since parallel parts would only spend more of the rate limit. The rows and their order are the same either way.",
			},
		],
	},
];

function isWholeNumberIn(value: unknown, min: number, max: number): boolean {
	return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/** Reads and checks the Statistics parameters of one item into a statistics query. */
function readQuery(ctx: IExecuteFunctions, i: number, now: Date) {
	const node = ctx.getNode();
	const timeZone = ctx.getTimezone();
	const period = ctx.getNodeParameter('period', i) as PeriodPreset | 'custom' | 'lastNDays';
	let from: string;
	let to: string;
	if (period === 'lastNDays') {
		const days = ctx.getNodeParameter('lastDays', i, 3) as unknown;
		if (!isWholeNumberIn(days, 1, MAX_LAST_DAYS)) {
			throw invalidInput(
				node,
				'Days',
				`must be a whole number of days from 1 to ${MAX_LAST_DAYS}`,
				i,
				days,
			);
		}
		const includeToday = ctx.getNodeParameter('includeToday', i, true) !== false;
		({ from, to } = lastDaysRange(days as number, includeToday, now, timeZone));
	} else if (period === 'custom') {
		const rawFrom = ctx.getNodeParameter('periodFrom', i) as unknown;
		const rawTo = ctx.getNodeParameter('periodTo', i) as unknown;
		const parsedFrom = readDate(rawFrom, timeZone);
		const parsedTo = readDate(rawTo, timeZone);
		if (!parsedFrom) {
			throw invalidInput(
				node,
				STATS_FIELD_NAMES.from,
				rawFrom === '' ? 'is required' : 'must be a date such as 2026-11-01 or 2026-11-01T00:00:00',
				i,
				rawFrom === '' ? undefined : rawFrom,
			);
		}
		if (!parsedTo) {
			throw invalidInput(
				node,
				STATS_FIELD_NAMES.to,
				rawTo === '' ? 'is required' : 'must be a date such as 2026-11-30 or 2026-11-30T23:59:59',
				i,
				rawTo === '' ? undefined : rawTo,
			);
		}
		from = parsedFrom.iso;
		to = parsedTo.iso;
	} else {
		({ from, to } = presetRange(period, now, timeZone));
	}
	const options = ctx.getNodeParameter('options', i, {}) as IDataObject;
	const query = readStatsQuery(
		(name, fallback) => ctx.getNodeParameter(name, i, fallback),
		{ from, to },
		(options.order as string | undefined) ?? 'period',
		CABINET_IDS_TYPED_IN.includes(node.typeVersion)
			? undefined
			: (raw) => readCabinetIdList(node, raw, i),
	);
	checkStatsQuery(node, query, { fromMs: Date.parse(from), toMs: Date.parse(to), now }, i);

	const limit = readLimit(node, i, (name) => ctx.getNodeParameter(name, i));
	const pageSize = (options.pageSize as number | undefined) ?? MAX_PAGE_SIZE;
	if (!isWholeNumberIn(pageSize, 1, MAX_PAGE_SIZE)) {
		throw invalidInput(
			node,
			'Page Size',
			`must be a whole number from 1 to ${MAX_PAGE_SIZE}`,
			i,
			pageSize,
		);
	}
	const parallel = (options.parallelRequests as number | undefined) ?? DEFAULT_PARALLEL_REQUESTS;
	if (!isWholeNumberIn(parallel, 1, MAX_PARALLEL_REQUESTS)) {
		throw invalidInput(
			node,
			'Requests at Once',
			`must be a whole number from 1 to ${MAX_PARALLEL_REQUESTS}`,
			i,
			parallel,
		);
	}
	return {
		query,
		limit,
		pageSize,
		parallel,
		numeric: options.numericValues !== false,
		includeColumns: options.includeColumns === true,
		simplify: ctx.getNodeParameter('simplify', i, false) === true,
		rowKey: ctx.getNode().typeVersion >= ROW_KEY_VERSION,
	};
}

/**
 * Statistics → Get Many runs as a custom operation rather than through declarative routing: a
 * Return All can bring hundreds of thousands of rows, and RoutingNode spreads a whole result into
 * one push() call, which overflows the stack past roughly 120,000 items.
 */
async function executeStatisticGetAll(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const now = new Date();
	return [
		await eachItem(this, async (_item, i) => {
			const { query, limit, pageSize, parallel, numeric, includeColumns, simplify, rowKey } =
				readQuery(this, i, now);
			const keyOf = rowKey
				? rowKeyMaker(query.period_grouping_unit, query.currency_code, query.grouping ?? [])
				: undefined;
			const simpleFields = rowKey ? SIMPLE_STATS_FIELDS_WITH_KEY : SIMPLE_STATS_FIELDS;
			const rows: INodeExecutionData[] = [];
			let lastPage: LastPage | undefined;
			const started = Date.now();
			const result = await fetchStats.call(this, query, {
				pageSize,
				maxRows: limit,
				parallel,
				itemIndex: i,
				connection: connectionOptions(this, i),
				onRows: (page, answer) => {
					lastPage = {
						delivered: page.length,
						received: answer.rows.length,
						cursor: answer.cursor,
					};
					for (const row of page) {
						const json = numeric ? numericRow(row) : row;
						if (keyOf) json.row_key = keyOf(json);
						rows.push({ json: simplify ? pick(json, simpleFields) : json });
					}
				},
			});
			if (includeColumns && rows.length && result.columns) {
				rows[0].json = { ...rows[0].json, columns: result.columns };
			}
			const hint = limitHint(
				limit,
				rows.length,
				result.count,
				lastPage,
				i,
				this.getInputData().length,
			);
			if (hint && typeof this.addExecutionHints === 'function') this.addExecutionHints(hint);
			const paced = pacingHint(
				result,
				Date.now() - started,
				paceLimitOf(await credentialViewOf(this)),
			);
			if (paced && typeof this.addExecutionHints === 'function') this.addExecutionHints(paced);
			return rows;
		}),
	];
}

export const statisticGetAll: Operation = {
	option: {
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many statistics rows',
		description: 'One item per statistics row: spend, views, clicks, actions and ratios per period',
	},
	fields,
	execute: executeStatisticGetAll,
};
