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
	PIXEL_CABINET_TYPED_IN,
	PIXEL_SAFE_WRITES_SINCE,
} from './fields';
import { recordToItem, routed } from '../../../shared/transport/routing';
import { pixelEventHint } from './hints';
import { dryRunGuard, writeOptionsProperty } from '../../../shared/writes';

const show = { resource: ['pixelEvent'], operation: ['delete'] };

const fields: INodeProperties[] = [
	...cabinetIdFields(show, PIXEL_CABINET_TYPED_IN),
	eventField(show),
	// Dry Run: from version 1.2, so older saved workflows write as before.
	writeOptionsProperty(show, [1, 1.1]),
];

/** DELETE /api/pixel_events/{account_id}/events/{event_id}. */
async function preparePixelEventDelete(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
): Promise<void> {
	const accountId = cabinetOf(this);
	const eventId = eventOf(this);
	options.url = PATHS.pixelEventDelete(accountId, eventId);
	delete options.body;
}

export const pixelEventDelete: Operation = {
	option: {
		name: 'Delete',
		value: 'delete',
		action: 'Delete a pixel event',
		description: 'Remove a tag event from a cabinet',
	},
	fields,
	routing: {
		// The path names the cabinet and the event: preparePixelEventDelete writes it.
		request: { method: 'DELETE' },
		...routed({
			idempotent: false,
			prepare: preparePixelEventDelete,
			hint: pixelEventHint('delete'),
			guardWrite: dryRunGuard(PIXEL_SAFE_WRITES_SINCE),
		}),
		output: { postReceive: [recordToItem(eventSucceeded)] },
	},
};
