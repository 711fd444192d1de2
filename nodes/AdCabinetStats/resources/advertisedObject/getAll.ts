import type { INodeProperties } from 'n8n-workflow';

const show = { resource: ['advertisedObject'], operation: ['getAll'] };

export const advertisedObjectGetAllDescription: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: true,
		displayOptions: { show },
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		default: 50,
		typeOptions: { minValue: 1 },
		displayOptions: { show: { ...show, returnAll: [false] } },
		description: 'Max number of results to return',
		routing: { output: { maxResults: '={{$value}}' } },
	},
];
