import type {
	DeclarativeRestApiSettings,
	IExecuteSingleFunctions,
	INodeProperties,
} from 'n8n-workflow';
import { PATHS } from '../../../shared/constants';
import { buildUpdateBody } from './values/adBody';
import { completeAdBody } from './values/adKktu';
import { updateProperties } from './fields/adProperties';
import { adIdField, readAdId } from './fields/adId';
import { cabinetForDropdownsField } from './fields/cabinetForDropdowns';

const show = { resource: ['ad'], operation: ['update'] };

export const adUpdateDescription: INodeProperties[] = [
	adIdField(show),
	cabinetForDropdownsField(show),
	...updateProperties(show),
];

/** spec 4.8: PUT /api/advertisement/{platform}/{ad_id} with only the fields under Update Fields. */
export async function prepareAdUpdate(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
): Promise<void> {
	const adId = readAdId(this);
	const body = buildUpdateBody(this);
	options.url = PATHS.ad(adId);
	options.body = await completeAdBody.call(this, body);
}
