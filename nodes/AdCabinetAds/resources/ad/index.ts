import { defineResource, type Resource } from '../../../shared/operation';
import { adCreate } from './create';
import { adGet } from './get';
import { adGetAll } from './getAll';
import { adUpdate } from './update';
import { adValidateBots } from './validateBots';

export const adResource: Resource = defineResource({
	resource: 'ad',
	displayName: 'Ad',
	defaultOperation: 'getAll',
	operations: [adGetAll, adGet, adCreate, adUpdate, adValidateBots],
});
