import type { IExecuteSingleFunctions } from 'n8n-workflow';
import type { PlatformNames } from '../../../shared/platform';
import { cabinetAccessHint } from '../../../shared/transport/nodeErrors';
import { apiErrorFields, type Failure } from '../../../shared/transport/apiFailure';

/** The event types the API documents, named when it refuses a type (422). */
const DOCUMENTED_EVENT_TYPES = ['page_view', 'purchase', 'custom'];

type PixelOperation = 'getAll' | 'create' | 'rename' | 'delete' | 'getBaseCode';

/** The node's name for each API field, so a 400 points at what to fix. */
const FIELD_LABELS: Record<string, string> = {
	account_id: 'Cabinet ID',
	title: 'Title',
	type: 'Type',
	event_id: 'Event',
};

function parameter(ctx: IExecuteSingleFunctions, name: string, extractValue = false): string {
	const value = ctx.getNodeParameter(
		name,
		'',
		extractValue ? { extractValue: true } : undefined,
	) as unknown;
	return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
}

function listFields(failure: Failure, operation: PixelOperation): string {
	const fields = apiErrorFields(failure);
	if (!fields.length) return '';
	const label = (field: string) =>
		field === 'title' && operation === 'rename' ? 'New Title' : FIELD_LABELS[field];
	return `Fix the fields it named: ${fields
		.map((field) => (label(field) ? `${field} (${label(field)})` : field))
		.join(', ')}. `;
}

/** Advice for each documented error status (docs/api-rules.md#pixel-events), naming the cabinet, event and type involved. */
export function pixelEventHint(operation: PixelOperation) {
	return function (
		this: IExecuteSingleFunctions,
		failure: Failure,
		names: PlatformNames,
	): string | undefined {
		const cabinet = parameter(this, 'accountId');
		const event =
			operation === 'rename' || operation === 'delete' ? parameter(this, 'eventId', true) : '';
		switch (failure.status) {
			case 400:
				return `${listFields(failure, operation)}Check Cabinet ID${
					operation === 'create'
						? ', Title and Type'
						: operation === 'rename'
							? ' and New Title'
							: ''
				}.`;
			case 403:
				return cabinetAccessHint(`cabinet ${cabinet}`);
			case 404:
				if (operation === 'rename') {
					return `Event ${event} was not found in cabinet ${cabinet}. Pick the event from the list, or check its ID (the event "id", not "${names.fields.eventId}").`;
				}
				if (operation === 'delete') {
					return `Event ${event} or cabinet ${cabinet} was not found. The event may already have been deleted; pick it from the list, or check both IDs.`;
				}
				return `Cabinet ${cabinet} was not found. Check the Cabinet ID.`;
			case 422:
				return `The event type "${parameter(this, 'type')}" is not supported. Valid types: ${DOCUMENTED_EVENT_TYPES.join(
					', ',
				)}; pick one from the Type list, which shows the types the API offers now.`;
			default:
				return undefined;
		}
	};
}
