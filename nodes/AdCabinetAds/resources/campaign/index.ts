import type { INodeProperties } from 'n8n-workflow';
import {
	campaignGetAllDescription,
	campaignGetAllOperation,
	executeCampaignGetAll,
} from './getAll';

export const campaignDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['campaign'] } },
		default: 'getAll',
		options: [campaignGetAllOperation],
	},
	...campaignGetAllDescription,
];

/** Custom operations: the campaign list pages by offset until the API's count. */
export const campaignOperations = { getAll: executeCampaignGetAll };
