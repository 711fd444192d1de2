import type {
	DeclarativeRestApiSettings,
	IExecuteSingleFunctions,
	INodeProperties,
} from 'n8n-workflow';
import type { Operation } from '../../../shared/operation';
import type { PlatformNames } from '../../../shared/platform';
import { buildCreateBody } from './values/adBody';
import { completeAdBody } from './values/adKktu';
import { createCollections, createCoreProperties } from './fields/adProperties';
import { cabinetForDropdownsFields } from './fields/cabinetForDropdowns';
import { routed } from '../../../shared/transport/routing';
import { adHint } from './hints';
import { adRecordOrNothing } from './answer';
import { writeOptionsProperty } from '../../../shared/writes';
import { guardAdCreate } from './safeWrites';

const show = { resource: ['ad'], operation: ['create'] };

const fields: INodeProperties[] = [
	...createCoreProperties(show),
	...cabinetForDropdownsFields(show),
	...createCollections(show),
	// Dry Run, Skip Identical and the money bounds: from version 1.3, so older saved workflows write as before.
	writeOptionsProperty(show, [1, 1.1, 1.2], { skipIdentical: true, money: true }),
];

/** POST /api/advertisement/{platform}/ with every field set; refused before sending if a rule fails. */
async function prepareAdCreate(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
	names: PlatformNames,
): Promise<void> {
	options.url = names.paths.adCreate;
	options.body = await completeAdBody.call(this, buildCreateBody(this, names));
}

export const adCreate: Operation = {
	option: {
		name: 'Create',
		value: 'create',
		action: 'Create an ad',
		description: 'Launch a new ad in a campaign',
	},
	fields,
	routing: {
		// The path names the platform: prepareAdCreate writes it.
		request: { method: 'POST' },
		...routed({
			prepare: prepareAdCreate,
			guardWrite: guardAdCreate,
			hint: adHint('create'),
			onEmptyAnswer: (sent) => ({ ...sent, success: true }),
		}),
		output: { postReceive: [adRecordOrNothing] },
	},
};
