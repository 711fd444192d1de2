import { defineResource, type Resource } from '../../../shared/operation';
import { campaignGetAll } from './getAll';

export const campaignResource: Resource = defineResource({
	resource: 'campaign',
	displayName: 'Campaign',
	defaultOperation: 'getAll',
	operations: [campaignGetAll],
});
