import type { INodeProperties } from 'n8n-workflow';
import { statisticGetAllDescription } from './getAll';

export const statisticDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['statistic'] } },
		default: 'getAll',
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many statistics rows',
				description: 'Spend, impressions, clicks and ratios per period, paged by cursor',
			},
		],
	},
	...statisticGetAllDescription,
];
