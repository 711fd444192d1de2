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
import { writeOptionsProperty, type WriteGuard } from '../../../shared/writes';
import { credentialViewOf } from '../../../shared/auth';
import { guardAdUpdate } from './safeWrites';
import { forgetAdRead } from './recentReads';

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

/**
 * The Update guard; then, when the PUT is to be sent, the ad's recent read is dropped at once and
 * again when the write has ended, whatever came of it: a read after a write always asks the API.
 */
async function guardThenForget(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
	names: PlatformNames,
): Promise<WriteGuard | undefined> {
	const guard = await guardAdUpdate.call(this, options, names);
	if (guard && 'output' in guard) return guard;
	const node = this.getNode();
	const credentials = await credentialViewOf(this);
	const forget = () => forgetAdRead(node, credentials, String(options.url));
	forget();
	return {
		settle: (items) => {
			forget();
			return guard?.settle?.(items);
		},
	};
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
			guardWrite: guardThenForget,
			hint: adHint('update'),
			onEmptyAnswer(sent) {
				return { ad_id: readAdId(this), ...sent, success: true };
			},
		}),
		output: { postReceive: [adRecordOrNothing] },
	},
};
