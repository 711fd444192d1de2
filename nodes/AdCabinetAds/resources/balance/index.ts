import type { INodeProperties } from 'n8n-workflow';
import { balanceGetOperation, executeBalanceGet } from './get';

export const balanceDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['balance'] } },
		default: 'get',
		options: [balanceGetOperation],
	},
];

/** Custom operations: the balance is read by the request of the credential's form. */
export const balanceOperations = { get: executeBalanceGet };
