import type {
	DeclarativeRestApiSettings,
	IExecuteSingleFunctions,
	INodeProperties,
} from 'n8n-workflow';
import type { Operation } from '../../../shared/operation';
import type { PlatformNames } from '../../../shared/platform';
import { adIdField, readAdId } from './fields/adId';
import { recordToItem, routed } from '../../../shared/transport/routing';
import { adHint } from './hints';

const show = { resource: ['ad'], operation: ['get'] };

const fields: INodeProperties[] = [adIdField(show)];

/** GET /api/advertisement/{platform}/{ad_id} */
async function prepareAdGet(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
	names: PlatformNames,
): Promise<void> {
	options.url = names.paths.ad(readAdId(this));
}

export const adGet: Operation = {
	option: {
		name: 'Get',
		value: 'get',
		action: 'Get an ad',
		description: 'Get the full settings of one ad',
	},
	fields,
	routing: {
		request: { method: 'GET' },
		...routed({ prepare: prepareAdGet, hint: adHint('get') }),
		output: { postReceive: [recordToItem()] },
	},
};
