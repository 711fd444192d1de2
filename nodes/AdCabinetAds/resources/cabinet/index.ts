import { defineResource, type Resource } from '../../../shared/operation';
import { cabinetGet } from './get';
import { cabinetGetAll } from './getAll';

export const cabinetResource: Resource = defineResource({
	resource: 'cabinet',
	displayName: 'Cabinet',
	defaultOperation: 'getAll',
	operations: [cabinetGetAll, cabinetGet],
});
