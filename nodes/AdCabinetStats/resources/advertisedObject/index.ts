import type { INodeProperties } from 'n8n-workflow';
import { advertisedObjectGetAllDescription, advertisedObjectGetAllOperation } from './getAll';

export const advertisedObjectDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['advertisedObject'] } },
		default: 'getAll',
		options: [advertisedObjectGetAllOperation],
	},
	...advertisedObjectGetAllDescription,
];
