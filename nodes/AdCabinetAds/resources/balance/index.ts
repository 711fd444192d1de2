import { defineResource } from '../../../shared/operation';
import { balanceGet } from './get';

export const balanceResource = defineResource({
	resource: 'balance',
	displayName: 'Balance',
	defaultOperation: 'get',
	operations: [balanceGet],
});
