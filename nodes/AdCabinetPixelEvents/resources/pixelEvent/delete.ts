import type {
	DeclarativeRestApiSettings,
	IExecuteSingleFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { cabinetIdFields } from '../../../shared/cabinetId';
import { PATHS } from '../../../shared/constants';
import { cabinetOf, eventField, eventOf, eventSucceeded, PIXEL_CABINET_TYPED_IN } from './fields';
import { recordToItem, routed } from '../../../shared/transport/routing';
import { pixelEventHint } from './hints';

const show = { resource: ['pixelEvent'], operation: ['delete'] };

export const pixelEventDeleteDescription: INodeProperties[] = [
	...cabinetIdFields(show, PIXEL_CABINET_TYPED_IN),
	eventField(show),
];

/** DELETE /api/pixel_events/{account_id}/events/{event_id}. */
export async function preparePixelEventDelete(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
): Promise<void> {
	const accountId = cabinetOf(this);
	const eventId = eventOf(this);
	options.url = PATHS.pixelEventDelete(accountId, eventId);
	delete options.body;
}

export const pixelEventDeleteOperation: INodePropertyOptions = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a pixel event',
	description: 'Remove a tag event from a cabinet',
	routing: {
		// The path names the cabinet and the event: preparePixelEventDelete writes it.
		request: { method: 'DELETE' },
		...routed({
			idempotent: false,
			prepare: preparePixelEventDelete,
			hint: pixelEventHint('delete'),
		}),
		output: { postReceive: [recordToItem(eventSucceeded)] },
	},
};
