import { defineResource, type Resource } from '../../../shared/operation';
import { statisticGetAll } from './getAll';

export const statisticResource: Resource = defineResource({
	resource: 'statistic',
	displayName: 'Statistic',
	defaultOperation: 'getAll',
	operations: [statisticGetAll],
});
