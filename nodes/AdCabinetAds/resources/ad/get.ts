import type {
	DeclarativeRestApiSettings,
	IExecuteSingleFunctions,
	INodeProperties,
} from 'n8n-workflow';
import type { PlatformNames } from '../../../shared/platform';
import { adIdField, readAdId } from './fields/adId';

const show = { resource: ['ad'], operation: ['get'] };

export const adGetDescription: INodeProperties[] = [adIdField(show)];

/** spec 4.7: GET /api/advertisement/{platform}/{ad_id} */
export async function prepareAdGet(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
	names: PlatformNames,
): Promise<void> {
	options.url = names.paths.ad(readAdId(this));
}
