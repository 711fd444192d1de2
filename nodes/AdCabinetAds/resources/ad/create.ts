import type {
	DeclarativeRestApiSettings,
	IExecuteSingleFunctions,
	INodeProperties,
} from 'n8n-workflow';
import { buildCreateBody } from '../../../shared/ads/adBody';
import { completeAdBody } from '../../../shared/ads/adKktu';
import { createCollections, createCoreProperties } from '../../../shared/ads/adProperties';
import { listCabinetField } from './listCabinet';

const show = { resource: ['ad'], operation: ['create'] };

export const adCreateDescription: INodeProperties[] = [
	...createCoreProperties(show),
	listCabinetField(show),
	...createCollections(show),
];

/** spec 4.6: POST /api/advertisement/{platform}/ with every field set; refused before sending if a rule fails. */
export async function prepareAdCreate(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
): Promise<void> {
	options.body = await completeAdBody.call(this, buildCreateBody(this));
}
