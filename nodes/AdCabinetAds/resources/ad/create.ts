import type {
	DeclarativeRestApiSettings,
	IExecuteSingleFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import type { PlatformNames } from '../../../shared/platform';
import { buildCreateBody } from './values/adBody';
import { completeAdBody } from './values/adKktu';
import { createCollections, createCoreProperties } from './fields/adProperties';
import { cabinetForDropdownsFields } from './fields/cabinetForDropdowns';
import { routed } from '../../../shared/transport/routing';
import { adHint } from './hints';
import { adRecordOrNothing } from './answer';

const show = { resource: ['ad'], operation: ['create'] };

export const adCreateDescription: INodeProperties[] = [
	...createCoreProperties(show),
	...cabinetForDropdownsFields(show),
	...createCollections(show),
];

/** POST /api/advertisement/{platform}/ with every field set; refused before sending if a rule fails. */
export async function prepareAdCreate(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
	names: PlatformNames,
): Promise<void> {
	options.url = names.paths.adCreate;
	options.body = await completeAdBody.call(this, buildCreateBody(this, names));
}

export const adCreateOperation: INodePropertyOptions = {
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
};
