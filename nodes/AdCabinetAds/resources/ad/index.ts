import type {
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { MAX_PAGE_SIZE, PATHS } from '../../../shared/constants';
import { listToItems, recordToItem, routed } from '../../../shared/transport/routing';
import { readAdId } from './fields/adId';
import { adCreateDescription, prepareAdCreate } from './create';
import { adGetDescription, prepareAdGet } from './get';
import { adGetAllDescription, prepareAdGetAll, simplifyAds } from './getAll';
import { adHint } from './hints';
import { adUpdateDescription, prepareAdUpdate } from './update';
import {
	adValidateBotsDescription,
	prepareValidateBots,
	validatedBotsToItems,
} from './validateBots';

/**
 * The answers of create and edit are not in the spec (4.6, 4.8). An object answer is output as it
 * is; an empty one yields no item here, and the routed operation outputs what it sent instead.
 */
async function adRecordOrNothing(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const body = response.body as unknown;
	if (body === undefined || body === null || body === '') return [];
	return await recordToItem().call(this, items, response);
}

export const adDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['ad'] } },
		default: 'getAll',
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create an ad',
				description: 'Launch a new ad in a campaign',
				routing: {
					// The path names the platform: prepareAdCreate writes it.
					request: { method: 'POST' },
					...routed({
						prepare: prepareAdCreate,
						hint: adHint('create'),
						onEmptyAnswer: (sent) => ({ ...sent, success: true }),
					}),
					output: { postReceive: [adRecordOrNothing] },
				},
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get an ad',
				description: 'Get the full settings of one ad',
				routing: {
					request: { method: 'GET' },
					...routed({ prepare: prepareAdGet, hint: adHint('get') }),
					output: { postReceive: [recordToItem()] },
				},
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many ads',
				description: 'List ads with their figures',
				routing: {
					request: { method: 'GET', url: PATHS.adList },
					...routed({
						prepare: prepareAdGetAll,
						offsetPages: {
							pageSize: MAX_PAGE_SIZE,
							offsetParameter: 'offset',
							limitParameter: 'limit',
						},
					}),
					output: { postReceive: [listToItems(['data']), simplifyAds] },
				},
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update an ad',
				description: 'Change some settings of an ad; the others stay as they are',
				routing: {
					request: { method: 'PUT' },
					...routed({
						prepare: prepareAdUpdate,
						hint: adHint('update'),
						onEmptyAnswer(sent) {
							return { ad_id: readAdId(this), ...sent, success: true };
						},
					}),
					output: { postReceive: [adRecordOrNothing] },
				},
			},
			{
				name: 'Validate Bots',
				value: 'validateBots',
				action: 'Validate target bots',
				description: 'Check bots before targeting them; each needs 1,000 or more daily users',
				routing: {
					request: { method: 'GET', url: PATHS.botValidation },
					...routed({ prepare: prepareValidateBots }),
					output: { postReceive: [validatedBotsToItems] },
				},
			},
		],
	},
	...adGetAllDescription,
	...adGetDescription,
	...adCreateDescription,
	...adUpdateDescription,
	...adValidateBotsDescription,
];
