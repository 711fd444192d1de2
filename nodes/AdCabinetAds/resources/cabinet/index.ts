import type { INodeProperties } from 'n8n-workflow';
import { cabinetGetDescription, cabinetGetOperation, executeCabinetGet } from './get';
import { cabinetGetAllDescription, cabinetGetAllOperation, executeCabinetGetAll } from './getAll';

export const cabinetDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['cabinet'] } },
		default: 'getAll',
		options: [cabinetGetOperation, cabinetGetAllOperation],
	},
	...cabinetGetAllDescription,
	...cabinetGetDescription,
];

/** Custom operations: the cabinet list pages by offset until the API's count. */
export const cabinetOperations = { getAll: executeCabinetGetAll, get: executeCabinetGet };
