import { defineResource, operationParameter, type Resource } from '../../../shared/operation';
import { audienceCreate } from './create';
import { audienceGetAll } from './getAll';

const operations = [audienceCreate, audienceGetAll];

/**
 * Version 1 opened on Create. From 1.1 a new node opens on Get Many, a read; a saved version 1 node
 * (which stores no value for a default) keeps its Create.
 */
export const audienceResource: Resource = defineResource({
	resource: 'audience',
	displayName: 'Audience',
	defaultOperation: 'getAll',
	operations,
	operationParameters: [
		operationParameter('audience', operations, 'create', { show: { '@version': [1] } }),
		operationParameter('audience', operations, 'getAll', { hide: { '@version': [1] } }),
	],
});
