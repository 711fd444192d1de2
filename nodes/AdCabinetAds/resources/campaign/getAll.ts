import type { IDataObject, INodeProperties } from 'n8n-workflow';
import type { Operation } from '../../../shared/operation';
import { returnAllFields } from '../../../shared/returnAll';
import { simplifyFields } from '../../../shared/simplify';
import { realServiceListOperation } from '../../../shared/realService';
import { filtersCollection } from '../../../shared/filters';

/** What Simplify keeps of a campaign: who it is, where, and its money and reach. */
const SIMPLE_CAMPAIGN_FIELDS = [
	'id',
	'name',
	'account_id',
	'account_name',
	'status',
	'number_of_advertisements',
	'budget',
	'spent',
	'impressions',
	'clicks',
	'ctr',
	'cpm',
];

const show = { resource: ['campaign'], operation: ['getAll'] };

const fields: INodeProperties[] = [
	{
		displayName: 'Figures For',
		name: 'period',
		type: 'options',
		default: 'all',
		displayOptions: { show },
		description:
			'Which days the spend, impressions and clicks of each campaign cover; every campaign is listed in each',
		options: [
			{ name: 'All Time', value: 'all' },
			{ name: 'Since the Start of the Month', value: 'starts_month' },
			{ name: 'Today', value: 'today' },
			{ name: 'Yesterday', value: 'yesterday' },
		],
	},
	...returnAllFields(show),
	...simplifyFields(
		show,
		'the campaign ID and name, its cabinet, status, number of ads, budget, spend, impressions, clicks, CTR and CPM',
	),
	filtersCollection({ show }, [
		{
			displayName: 'Campaign Name',
			name: 'campaignName',
			type: 'string',
			default: '',
			description: 'Only campaigns whose name contains this text (case does not matter)',
		},
		{
			displayName: 'Status',
			name: 'active',
			type: 'options',
			default: 'any',
			options: [
				{ name: 'Active or Not', value: 'any' },
				{ name: 'Active Only', value: 'active' },
				{ name: 'Not Active Only', value: 'inactive' },
			],
		},
	]),
];

const PERIODS = ['all', 'starts_month', 'today', 'yesterday'];

/** GET /api/campaigns/ with period and filters, by offset until count. */
const executeCampaignGetAll = realServiceListOperation({
	what: 'Campaign lists',
	path: (paths) => paths.campaignList,
	query(ctx, i) {
		const period = ctx.getNodeParameter('period', i, 'all') as string;
		const filters = ctx.getNodeParameter('filters', i, {}) as IDataObject;
		const qs: IDataObject = { period: PERIODS.includes(period) ? period : 'all' };
		if (typeof filters.campaignName === 'string' && filters.campaignName.trim())
			qs.campaign_name = filters.campaignName.trim();
		if (filters.active === 'active') qs.is_active = true;
		if (filters.active === 'inactive') qs.is_active = false;
		return qs;
	},
	simpleFields: SIMPLE_CAMPAIGN_FIELDS,
});

export const campaignGetAll: Operation = {
	option: {
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many campaigns',
		description: 'The campaigns of the account with their budget, spend and reach',
	},
	fields,
	execute: executeCampaignGetAll,
};
