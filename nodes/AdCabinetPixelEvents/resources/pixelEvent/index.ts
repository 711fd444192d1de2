import type { INodeProperties } from 'n8n-workflow';
import { pixelEventCreateDescription, pixelEventCreateOperation } from './create';
import { pixelEventDeleteDescription, pixelEventDeleteOperation } from './delete';
import { pixelEventGetAllDescription, pixelEventGetAllOperation } from './getAll';
import { pixelEventGetBaseCodeDescription, pixelEventGetBaseCodeOperation } from './getBaseCode';
import { pixelEventGetTypesOperation } from './getTypes';
import { pixelEventRenameDescription, pixelEventRenameOperation } from './rename';

export const pixelEventDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['pixelEvent'] } },
		default: 'getAll',
		options: [
			pixelEventCreateOperation,
			pixelEventDeleteOperation,
			pixelEventGetBaseCodeOperation,
			pixelEventGetAllOperation,
			pixelEventGetTypesOperation,
			pixelEventRenameOperation,
		],
	},
	...pixelEventGetAllDescription,
	...pixelEventCreateDescription,
	...pixelEventRenameDescription,
	...pixelEventDeleteDescription,
	...pixelEventGetBaseCodeDescription,
];
