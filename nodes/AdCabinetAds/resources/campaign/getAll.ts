import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { eachItem } from '../../../shared/perItem';
import { readLimit, returnAllFields } from '../../../shared/returnAll';
import { pick, simplifyFields } from '../../../shared/simplify';
import { offsetList, realServiceCredentials } from '../../../shared/realService';
import { filtersCollection } from '../../../shared/filters';

/** What Simplify keeps of a campaign: who it is, where, and its money and reach. */
export const SIMPLE_CAMPAIGN_FIELDS = [
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

export const campaignGetAllOperation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many campaigns',
	description: 'The campaigns of the account with their budget, spend and reach',
};

export const campaignGetAllDescription: INodeProperties[] = [
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
export async function executeCampaignGetAll(
	this: IExecuteFunctions,
): Promise<INodeExecutionData[][]> {
	return [
		await eachItem(this, async (_item, i) => {
			const { credentials, paths } = await realServiceCredentials(this, i, 'Campaign lists');
			const limit = readLimit(this.getNode(), i, (name) =>
				this.getNodeParameter(name, i, name === 'limit' ? 50 : false),
			);
			const period = this.getNodeParameter('period', i, 'all') as string;
			const filters = this.getNodeParameter('filters', i, {}) as IDataObject;
			const qs: IDataObject = { period: PERIODS.includes(period) ? period : 'all' };
			if (typeof filters.campaignName === 'string' && filters.campaignName.trim())
				qs.campaign_name = filters.campaignName.trim();
			if (filters.active === 'active') qs.is_active = true;
			if (filters.active === 'inactive') qs.is_active = false;
			const campaigns = await offsetList(this, i, {
				path: paths.campaignList,
				qs,
				limit,
				credentials,
			});
			const simplify = this.getNodeParameter('simplify', i, true) as boolean;
			return campaigns.map((campaign) => ({
				json: simplify ? pick(campaign, SIMPLE_CAMPAIGN_FIELDS) : campaign,
			}));
		}),
	];
}
