import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { listToItems, routed } from '../../../shared/transport/routing';
import { audienceCreateDescription } from './create';
import { audienceGetAllDescription, audienceGetAllHint, prepareAudienceGetAll } from './getAll';

const operations: INodePropertyOptions[] = [
	{
		name: 'Create',
		value: 'create',
		action: 'Create an audience',
		description:
			'Upload phone numbers (or their SHA-256 hashes) as a new audience, from a file or from a field of the input items',
	},
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many audiences',
		description: "List a cabinet's phone-number audiences",
		routing: {
			// The path names the cabinet: prepareAudienceGetAll writes it.
			request: { method: 'GET' },
			...routed({ prepare: prepareAudienceGetAll, hint: audienceGetAllHint }),
			output: { postReceive: [listToItems(['items', 'data', 'results'])] },
		},
	},
];

/**
 * Version 1 opened on Create. From 1.1 a new node opens on Get Many, a read; a saved version 1 node
 * (which stores no value for a default) keeps its Create.
 */
function operationProperty(version: 'first' | 'later', defaultOperation: string): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions:
			version === 'first'
				? { show: { resource: ['audience'], '@version': [1] } }
				: { show: { resource: ['audience'] }, hide: { '@version': [1] } },
		default: defaultOperation,
		options: operations,
	};
}

export const audienceDescription: INodeProperties[] = [
	operationProperty('first', 'create'),
	operationProperty('later', 'getAll'),
	...audienceCreateDescription,
	...audienceGetAllDescription,
];
