import { defineResource, type Resource } from '../../../shared/operation';
import { advertisedObjectGetAll } from './getAll';

export const advertisedObjectResource: Resource = defineResource({
	resource: 'advertisedObject',
	displayName: 'Advertised Object',
	defaultOperation: 'getAll',
	operations: [advertisedObjectGetAll],
});
