import { defineResource } from '../../../shared/operation';
import { statisticGetAll } from './getAll';

export const statisticResource = defineResource({
	resource: 'statistic',
	displayName: 'Statistic',
	defaultOperation: 'getAll',
	operations: [statisticGetAll],
});
