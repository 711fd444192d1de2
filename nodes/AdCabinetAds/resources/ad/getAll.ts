import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecuteSingleFunctions,
	INodeProperties,
} from 'n8n-workflow';
import type { Operation } from '../../../shared/operation';
import { invalidInput } from '../../../shared/validation';
import { readLimit, returnAllFields } from '../../../shared/returnAll';
import { simplifyFields, simplifyItems } from '../../../shared/simplify';
import { MAX_PAGE_SIZE, PATHS } from '../../../shared/constants';
import { listToItems, routed } from '../../../shared/transport/routing';
import { filtersCollection } from '../../../shared/filters';

/** What Simplify keeps of an ad in the list. */
const SIMPLE_AD_FIELDS = [
	'id',
	'advertisement_title',
	'status',
	'ad_type',
	'campaign_id',
	'campaign_name',
	'object',
	'cpm',
	'balance',
	'spent',
	'impressions',
	'clicks',
	'ctr',
	'goals',
] as const;

/** postReceive step: with Simplify on, each ad keeps only SIMPLE_AD_FIELDS. */
const simplifyAds = simplifyItems(SIMPLE_AD_FIELDS);

const show = { resource: ['ad'], operation: ['getAll'] };

/** `period` filters by when an ad was created, not by when it ran. */
const PERIODS = [
	{ name: 'All', value: 'all' },
	{
		name: 'Start of Month',
		value: 'starts_month',
		description: 'Created since the first day of this month',
	},
	{ name: 'Today', value: 'today' },
	{ name: 'Yesterday', value: 'yesterday' },
];

const fields: INodeProperties[] = [
	...returnAllFields(show),
	...simplifyFields(
		show,
		'ID, title, status, type, campaign, promoted object, CPM, balance, spend, impressions, clicks, CTR and goals',
	),
	filtersCollection({ show }, [
		{
			displayName: 'Advertisement Titles',
			name: 'advertisementTitles',
			type: 'string',
			typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Title' },
			default: [],
			description: 'Only ads with one of these exact titles',
		},
		{
			displayName: 'Campaign Names',
			name: 'campaignNames',
			type: 'string',
			typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Campaign Name' },
			default: [],
			description: 'Only ads of the campaigns with one of these exact names',
		},
		{
			displayName: 'Period',
			name: 'period',
			type: 'options',
			default: 'all',
			description: 'Only ads created in this period',
			options: PERIODS,
		},
		{
			displayName: 'Show Deleted',
			name: 'showDeleted',
			type: 'boolean',
			default: false,
			description: 'Whether to include deleted ads',
		},
	]),
];

/** Titles and names may contain commas, so text from an expression is split on new lines only. */
function names(value: unknown): string[] {
	const parts = Array.isArray(value) ? value : typeof value === 'string' ? value.split('\n') : [];
	return parts.map((part) => String(part).trim()).filter((part) => part !== '');
}

/** The filters as query parameters (lists as repeated keys); offset and limit come from paging. */
async function prepareAdGetAll(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
): Promise<void> {
	const node = this.getNode();
	const itemIndex = this.getItemIndex();
	readLimit(node, itemIndex, (name) =>
		this.getNodeParameter(name, name === 'returnAll' ? false : 50),
	);
	const filters = this.getNodeParameter('filters', {}) as IDataObject;
	const qs: IDataObject = {};
	if (filters.period !== undefined) {
		if (!PERIODS.some((period) => period.value === filters.period)) {
			throw invalidInput(
				node,
				'Period',
				`must be one of ${PERIODS.map((p) => p.value).join(', ')}`,
				itemIndex,
				filters.period,
			);
		}
		qs.period = filters.period;
	}
	if (filters.showDeleted !== undefined) qs.show_deleted = filters.showDeleted === true;
	const titles = names(filters.advertisementTitles);
	if (titles.length) qs.advertisement_titles = titles;
	const campaigns = names(filters.campaignNames);
	if (campaigns.length) qs.campaign_names = campaigns;
	options.qs = { ...(options.qs ?? {}), ...qs };
	options.arrayFormat = 'repeat';
}

export const adGetAll: Operation = {
	option: {
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many ads',
		description: 'List ads with their figures',
	},
	fields,
	routing: {
		request: { method: 'GET', url: PATHS.adList },
		...routed({
			prepare: prepareAdGetAll,
			offsetPages: {
				pageSize: MAX_PAGE_SIZE,
				offsetParameter: 'offset',
				limitParameter: 'limit',
			},
		}),
		output: { postReceive: [listToItems(['data']), simplifyAds] },
	},
};
