import type {
	DeclarativeRestApiSettings,
	IExecuteSingleFunctions,
	INodeProperties,
} from 'n8n-workflow';
import type { Operation } from '../../../shared/operation';
import { cabinetIdFields } from '../../../shared/cabinetId';
import { PATHS } from '../../../shared/constants';
import {
	cabinetOf,
	eventField,
	eventOf,
	eventSucceeded,
	requiredText,
	PIXEL_CABINET_TYPED_IN,
	PIXEL_SAFE_WRITES_SINCE,
} from './fields';
import { recordToItem, routed } from '../../../shared/transport/routing';
import { pixelEventHint } from './hints';
import { dryRunGuard, writeOptionsProperty } from '../../../shared/writes';

const show = { resource: ['pixelEvent'], operation: ['rename'] };

const fields: INodeProperties[] = [
	...cabinetIdFields(show, PIXEL_CABINET_TYPED_IN),
	eventField(show),
	{
		displayName: 'New Title',
		name: 'newTitle',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Newsletter signup (footer)',
		displayOptions: { show },
		description: 'The new name of the event',
	},
	// Dry Run: from version 1.2, so older saved workflows write as before.
	writeOptionsProperty(show, [1, 1.1]),
];

/** PATCH /api/pixel_events/{event_id} with account_id and the new title. */
async function preparePixelEventRename(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
): Promise<void> {
	const accountId = cabinetOf(this);
	const eventId = eventOf(this);
	const title = requiredText(this, 'newTitle', 'New Title');
	options.url = PATHS.pixelEvent(eventId);
	options.body = { account_id: accountId, title };
}

export const pixelEventRename: Operation = {
	option: {
		name: 'Rename',
		value: 'rename',
		action: 'Rename a pixel event',
		description: 'Give a tag event a new title',
	},
	fields,
	routing: {
		// The path names the event: preparePixelEventRename writes it.
		request: { method: 'PATCH' },
		...routed({
			idempotent: false,
			prepare: preparePixelEventRename,
			hint: pixelEventHint('rename'),
			guardWrite: dryRunGuard(PIXEL_SAFE_WRITES_SINCE),
		}),
		output: { postReceive: [recordToItem(eventSucceeded)] },
	},
};
