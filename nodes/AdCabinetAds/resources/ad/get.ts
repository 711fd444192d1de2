import type {
	DeclarativeRestApiSettings,
	IExecuteSingleFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import type { PlatformNames } from '../../../shared/platform';
import { adIdField, readAdId } from './fields/adId';
import { recordToItem, routed } from '../../../shared/transport/routing';
import { adHint } from './hints';

const show = { resource: ['ad'], operation: ['get'] };

export const adGetDescription: INodeProperties[] = [adIdField(show)];

/** GET /api/advertisement/{platform}/{ad_id} */
export async function prepareAdGet(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
	names: PlatformNames,
): Promise<void> {
	options.url = names.paths.ad(readAdId(this));
}

export const adGetOperation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get an ad',
	description: 'Get the full settings of one ad',
	routing: {
		request: { method: 'GET' },
		...routed({ prepare: prepareAdGet, hint: adHint('get') }),
		output: { postReceive: [recordToItem()] },
	},
};
