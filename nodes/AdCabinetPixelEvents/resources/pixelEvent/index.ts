import { defineResource, type Resource } from '../../../shared/operation';
import { pixelEventCreate } from './create';
import { pixelEventDelete } from './delete';
import { pixelEventGetAll } from './getAll';
import { pixelEventGetBaseCode } from './getBaseCode';
import { pixelEventGetTypes } from './getTypes';
import { pixelEventRename } from './rename';

export const pixelEventResource: Resource = defineResource({
	resource: 'pixelEvent',
	displayName: 'Pixel Event',
	defaultOperation: 'getAll',
	operations: [
		pixelEventGetAll,
		pixelEventCreate,
		pixelEventRename,
		pixelEventDelete,
		pixelEventGetBaseCode,
		pixelEventGetTypes,
	],
});
