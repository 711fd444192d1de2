import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecuteSingleFunctions,
	INodeProperties,
} from 'n8n-workflow';
import type { Operation } from '../../../shared/operation';
import { readDate, zonedIso, type Instant } from '../../../shared/dates';
import { PLATFORM_NAMES, type PlatformNames } from '../../../shared/platform';
import { invalidInput, listOf } from '../../../shared/validation';
import { listToItems, routed } from '../../../shared/transport/routing';
import { filtersCollection } from '../../../shared/filters';

const show = { resource: ['legacyReport'], operation: ['get'] };

const LEGACY_DISABLED_ON = '2026-02-28';
const LEGACY_NOTICE =
	'The legacy report is deprecated: the API switched it off on 28 February 2026, and new nodes no longer offer it. Use Statistic → Get Many instead: it has the same figures, finer periods and paging.';

/** `group_time` codes (docs/api-rules.md#legacy-report). */
const GROUP_TIME = { day: 1, month: 2, week: 3, year: 4 } as const;

const fields: INodeProperties[] = [
	{
		displayName: LEGACY_NOTICE,
		name: 'legacyNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	{
		displayName: 'Date From',
		name: 'dateFrom',
		type: 'dateTime',
		required: true,
		default: '',
		displayOptions: { show },
	},
	{
		displayName: 'Date To',
		name: 'dateTo',
		type: 'dateTime',
		required: true,
		default: '',
		displayOptions: { show },
	},
	{
		displayName: 'Group Time',
		name: 'groupTime',
		type: 'options',
		default: 'day',
		displayOptions: { show },
		options: [
			{ name: 'Day', value: 'day' },
			{ name: 'Month', value: 'month' },
			{ name: 'Week', value: 'week' },
			{ name: 'Year', value: 'year' },
		],
	},
	{
		displayName: 'Groupings',
		name: 'groupings',
		type: 'multiOptions',
		default: ['date'],
		displayOptions: { show },
		description: 'Split the report by these dimensions',
		options: [
			{ name: 'Account', value: 'account' },
			{ name: 'Ad', value: 'campaign', description: 'The API calls this grouping "campaign"' },
			{ name: 'Date', value: 'date', description: 'By the Group Time unit' },
			{ name: 'Object', value: 'object' },
			{ name: 'Partner', value: 'partner' },
			{ name: 'Platform', value: 'platform' },
			{ name: 'Sub-Client', value: 'sub_client' },
		],
	},
	filtersCollection({ show }, [
		{
			displayName: 'Account UIDs',
			name: 'accountUids',
			type: 'string',
			default: '',
			placeholder: `e.g. ${PLATFORM_NAMES.telegram.cabinetIdExample}`,
			description: 'Only these cabinets, separated by commas',
		},
		{
			displayName: 'Campaign IDs',
			name: 'campaignIds',
			type: 'string',
			default: '',
			description: 'Only these campaigns, separated by commas',
		},
		{
			displayName: 'Object Names or IDs',
			name: 'objects',
			type: 'multiOptions',
			typeOptions: { loadOptionsMethod: 'getAdObjects' },
			default: [],
			description:
				'Only these advertised objects. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
	]),
];

/**
 * `date`: the days of Date From and Date To (as written, in the workflow's time zone). The
 * documented form takes the days; the real service takes date-times, sent as each day's first and last
 * second with the time zone's offset, as every other date is sent.
 */
function reportDates(
	from: Instant,
	to: Instant,
	names: PlatformNames,
	timeZone: string,
): IDataObject {
	const dayFrom = from.iso.slice(0, 10);
	const dayTo = to.iso.slice(0, 10);
	if (names.legacyReportDates === 'date') return { date_from: dayFrom, date_to: dayTo };
	const at = (day: string, time: string) => {
		const [year, month, date] = day.split('-').map(Number);
		return zonedIso(year, month, date, timeZone, time);
	};
	return { date_from: at(dayFrom, '00:00:00'), date_to: at(dayTo, '23:59:59') };
}

/** Builds the legacy report body, with its fixed fields, from the parameters; refuses bad input first. */
async function buildLegacyReportBody(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
	names: PlatformNames,
): Promise<void> {
	const node = this.getNode();
	const itemIndex = this.getItemIndex();
	const timeZone = this.getTimezone();
	const rawFrom = this.getNodeParameter('dateFrom') as unknown;
	const rawTo = this.getNodeParameter('dateTo') as unknown;
	const from = readDate(rawFrom, timeZone);
	const to = readDate(rawTo, timeZone);
	if (!from)
		throw invalidInput(node, 'Date From', 'must be a date such as 2026-01-01', itemIndex, rawFrom);
	if (!to)
		throw invalidInput(node, 'Date To', 'must be a date such as 2026-01-31', itemIndex, rawTo);
	if (from.ms > to.ms)
		throw invalidInput(node, 'Date From', 'must not be after Date To', itemIndex, rawFrom);
	const groupTime = GROUP_TIME[this.getNodeParameter('groupTime') as keyof typeof GROUP_TIME];
	const filters = this.getNodeParameter('filters', {}) as IDataObject;
	const campaigns = listOf(filters.campaignIds).map((id) => {
		const n = Number(id);
		if (!Number.isInteger(n) || n <= 0) {
			throw invalidInput(
				node,
				'Campaign IDs',
				'must be whole numbers separated by commas',
				itemIndex,
				id,
			);
		}
		return n;
	});
	const groupings = listOf(this.getNodeParameter('groupings', [])).map((name) => {
		// The API reads the date grouping's type as group_time, and the account grouping's as 1.
		if (name === 'date') return { name, type: groupTime };
		if (name === 'account') return { name, type: 1 };
		return { name };
	});
	options.url = names.paths.legacyReport;
	options.body = {
		date: reportDates(from, to, names, timeZone),
		platform: [10],
		partner: [2],
		campaign: campaigns,
		group_time: groupTime,
		groupings,
		object: listOf(filters.objects),
		sub_client: [],
		type_cab: null,
		currency: 'RUB',
		account_uids: listOf(filters.accountUids),
	};
}

/** After the switch-off date every failure of this endpoint is explained in the notice's words. */
function legacyReportHint(): string | undefined {
	return new Date().toISOString().slice(0, 10) > LEGACY_DISABLED_ON ? LEGACY_NOTICE : undefined;
}

export const legacyReportGet: Operation = {
	option: {
		name: 'Get',
		value: 'get',
		action: 'Get the legacy report',
		description: 'Deprecated statistics report, switched off by the API on 28 February 2026',
	},
	fields,
	routing: {
		// The path names the platform: buildLegacyReportBody writes it.
		request: { method: 'POST' },
		...routed({ idempotent: true, prepare: buildLegacyReportBody, hint: legacyReportHint }),
		output: { postReceive: [listToItems(['results'])] },
	},
};
