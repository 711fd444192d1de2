import { defineResource } from '../../../shared/operation';
import { campaignGetAll } from './getAll';

export const campaignResource = defineResource({
	resource: 'campaign',
	displayName: 'Campaign',
	defaultOperation: 'getAll',
	operations: [campaignGetAll],
});
