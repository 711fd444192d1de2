import type { INodeProperties } from 'n8n-workflow';
import { adCreateDescription, adCreateOperation } from './create';
import { adGetDescription, adGetOperation } from './get';
import { adGetAllDescription, adGetAllOperation } from './getAll';
import { adUpdateDescription, adUpdateOperation } from './update';
import { adValidateBotsDescription, adValidateBotsOperation } from './validateBots';

export const adDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['ad'] } },
		default: 'getAll',
		options: [
			adCreateOperation,
			adGetOperation,
			adGetAllOperation,
			adUpdateOperation,
			adValidateBotsOperation,
		],
	},
	...adGetAllDescription,
	...adGetDescription,
	...adCreateDescription,
	...adUpdateDescription,
	...adValidateBotsDescription,
];
