import type { INodeProperties } from 'n8n-workflow';
import { PATHS } from '../../../shared/constants';
import { listToItems, routed } from '../../../shared/transport/routing';
import { advertisedObjectGetAllDescription, checkAdvertisedObjectGetAll } from './getAll';

export const advertisedObjectDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['advertisedObject'] } },
		default: 'getAll',
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many advertised objects',
				description: 'List the channels, bots and sites your ads promote',
				routing: {
					request: { method: 'GET', url: PATHS.reportObjects },
					...routed({ prepare: checkAdvertisedObjectGetAll }),
					output: { postReceive: [listToItems([], 'object')] },
				},
			},
		],
	},
	...advertisedObjectGetAllDescription,
];
