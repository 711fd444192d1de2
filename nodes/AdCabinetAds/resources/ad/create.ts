import type {
	DeclarativeRestApiSettings,
	IExecuteSingleFunctions,
	INodeProperties,
} from 'n8n-workflow';
import type { PlatformNames } from '../../../shared/platform';
import { buildCreateBody } from './values/adBody';
import { completeAdBody } from './values/adKktu';
import { createCollections, createCoreProperties } from './fields/adProperties';
import { cabinetForDropdownsFields } from './fields/cabinetForDropdowns';

const show = { resource: ['ad'], operation: ['create'] };

export const adCreateDescription: INodeProperties[] = [
	...createCoreProperties(show),
	...cabinetForDropdownsFields(show),
	...createCollections(show),
];

/** spec 4.6: POST /api/advertisement/{platform}/ with every field set; refused before sending if a rule fails. */
export async function prepareAdCreate(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
	names: PlatformNames,
): Promise<void> {
	options.url = names.paths.adCreate;
	options.body = await completeAdBody.call(this, buildCreateBody(this, names));
}
