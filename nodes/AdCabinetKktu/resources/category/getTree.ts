import type { INodeProperties } from 'n8n-workflow';
import type { Operation } from '../../../shared/operation';
import { PATHS } from '../../../shared/constants';
import { listToItems, routed } from '../../../shared/transport/routing';

const show = { resource: ['category'], operation: ['getTree'] };

const fields: INodeProperties[] = [
	{
		displayName:
			'Returns one item per top-level category with its sub-categories nested under "children", as the API sends them. Use Get Many for a flat list.',
		name: 'getTreeNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
];

export const categoryGetTree: Operation = {
	option: {
		name: 'Get Tree',
		value: 'getTree',
		action: 'Get the KKTU category tree',
		description: 'The whole classifier tree as the API returns it',
	},
	fields,
	routing: {
		request: { method: 'GET', url: PATHS.kktu },
		...routed(),
		output: { postReceive: [listToItems(['items'])] },
	},
};
