import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { audienceCreateDescription, audienceCreateOperation } from './create';
import { audienceGetAllDescription, audienceGetAllOperation } from './getAll';

const operations: INodePropertyOptions[] = [audienceCreateOperation, audienceGetAllOperation];

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
