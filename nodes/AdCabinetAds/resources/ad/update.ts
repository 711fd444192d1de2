import type {
	DeclarativeRestApiSettings,
	IExecuteSingleFunctions,
	INodeProperties,
} from 'n8n-workflow';
import type { Operation } from '../../../shared/operation';
import type { PlatformNames } from '../../../shared/platform';
import { buildUpdateBody } from './values/adBody';
import { completeAdBody } from './values/adKktu';
import { updateProperties } from './fields/adProperties';
import { adIdField, readAdId } from './fields/adId';
import { cabinetForDropdownsFields } from './fields/cabinetForDropdowns';
import { routed } from '../../../shared/transport/routing';
import { adHint } from './hints';
import { adRecordOrNothing } from './answer';
import { writeOptionsProperty } from '../../../shared/writes';
import { guardAdUpdate } from './safeWrites';

const show = { resource: ['ad'], operation: ['update'] };

const fields: INodeProperties[] = [
	adIdField(show),
	...cabinetForDropdownsFields(show),
	...updateProperties(show),
	// Dry Run, Skip Unchanged and the money bounds: from version 1.3, so older saved workflows write as before.
	writeOptionsProperty(show, [1, 1.1, 1.2], { skipUnchanged: true, money: true, perDay: true }),
];

/** PUT /api/advertisement/{platform}/{ad_id} with only the fields under Update Fields. */
async function prepareAdUpdate(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
	names: PlatformNames,
): Promise<void> {
	const adId = readAdId(this);
	const body = buildUpdateBody(this, names);
	options.url = names.paths.ad(adId);
	options.body = await completeAdBody.call(this, body);
}

export const adUpdate: Operation = {
	option: {
		name: 'Update',
		value: 'update',
		action: 'Update an ad',
		description: 'Change some settings of an ad; the others stay as they are',
	},
	fields,
	routing: {
		request: { method: 'PUT' },
		...routed({
			prepare: prepareAdUpdate,
			guardWrite: guardAdUpdate,
			hint: adHint('update'),
			onEmptyAnswer(sent) {
				return { ad_id: readAdId(this), ...sent, success: true };
			},
		}),
		output: { postReceive: [adRecordOrNothing] },
	},
};
