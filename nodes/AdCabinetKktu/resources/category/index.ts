import type { INodeProperties } from 'n8n-workflow';
import { PATHS } from '../../../shared/constants';
import { listToItems, routed } from '../../../shared/transport/routing';
import { categoryGetAllDescription, checkCategoryGetAll, flattenCategories } from './getAll';
import { categoryGetTreeDescription } from './getTree';

export const categoryDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['category'] } },
		default: 'getAll',
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many KKTU categories',
				description:
					'Flat list of categories with their level and path; by default only the third-level ones an ad accepts',
				routing: {
					request: { method: 'GET', url: PATHS.kktu },
					...routed({ prepare: checkCategoryGetAll }),
					output: { postReceive: [flattenCategories] },
				},
			},
			{
				name: 'Get Tree',
				value: 'getTree',
				action: 'Get the KKTU category tree',
				description: 'The whole classifier tree as the API returns it',
				routing: {
					request: { method: 'GET', url: PATHS.kktu },
					...routed(),
					output: { postReceive: [listToItems(['items'])] },
				},
			},
		],
	},
	...categoryGetTreeDescription,
	...categoryGetAllDescription,
];
