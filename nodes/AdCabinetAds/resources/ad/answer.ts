import type {
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';
import { recordToItem } from '../../../shared/transport/routing';

/**
 * What Create and Update output. The API documents no answer for either: an object answer is output
 * as it is; an empty one yields no item here, and the routed operation outputs what it sent instead.
 */
export async function adRecordOrNothing(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const body = response.body as unknown;
	if (body === undefined || body === null || body === '') return [];
	return await recordToItem().call(this, items, response);
}
