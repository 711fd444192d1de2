import { defineResource } from '../../../shared/operation';
import { advertisedObjectGetAll } from './getAll';

export const advertisedObjectResource = defineResource({
	resource: 'advertisedObject',
	displayName: 'Advertised Object',
	defaultOperation: 'getAll',
	operations: [advertisedObjectGetAll],
});
