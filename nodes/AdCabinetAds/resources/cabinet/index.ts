import { defineResource } from '../../../shared/operation';
import { cabinetGet } from './get';
import { cabinetGetAll } from './getAll';

export const cabinetResource = defineResource({
	resource: 'cabinet',
	displayName: 'Cabinet',
	defaultOperation: 'getAll',
	operations: [cabinetGetAll, cabinetGet],
});
