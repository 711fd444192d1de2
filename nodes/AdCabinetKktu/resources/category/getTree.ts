import type { INodeProperties } from 'n8n-workflow';

const show = { resource: ['category'], operation: ['getTree'] };

export const categoryGetTreeDescription: INodeProperties[] = [
	{
		displayName:
			'Returns one item per top-level category with its sub-categories nested under "children", as the API sends them. Use Get Many for a flat list.',
		name: 'getTreeNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
];
