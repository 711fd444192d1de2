import { defineResource, type Resource } from '../../../shared/operation';
import { balanceGet } from './get';

export const balanceResource: Resource = defineResource({
	resource: 'balance',
	displayName: 'Balance',
	defaultOperation: 'get',
	operations: [balanceGet],
});
