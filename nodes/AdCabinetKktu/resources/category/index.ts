import type { INodeProperties } from 'n8n-workflow';
import { categoryGetAllDescription, categoryGetAllOperation } from './getAll';
import { categoryGetTreeDescription, categoryGetTreeOperation } from './getTree';

export const categoryDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['category'] } },
		default: 'getAll',
		options: [categoryGetAllOperation, categoryGetTreeOperation],
	},
	...categoryGetTreeDescription,
	...categoryGetAllDescription,
];
