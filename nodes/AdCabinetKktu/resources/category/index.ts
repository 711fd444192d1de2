import { defineResource, type Resource } from '../../../shared/operation';
import { categoryGetAll } from './getAll';
import { categoryGetTree } from './getTree';

export const categoryResource: Resource = defineResource({
	resource: 'category',
	displayName: 'Category',
	defaultOperation: 'getAll',
	operations: [categoryGetTree, categoryGetAll],
});
