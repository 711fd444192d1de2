import type { IDataObject, IExecuteSingleFunctions, INodeProperties } from 'n8n-workflow';
import { readCabinetId } from '../../../shared/cabinetId';
import { invalidInput } from '../../../shared/validation';

/** Node versions whose Cabinet ID is typed in; from 1.1 it is picked from the list or typed. */
export const PIXEL_CABINET_TYPED_IN = [1];

const EVENT_LABEL = 'Event';

/** The event of Rename and Delete: picked from the cabinet's events, or typed (the event's `id`). */
export function eventField(show: Record<string, string[]>): INodeProperties {
	return {
		displayName: EVENT_LABEL,
		name: 'eventId',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		displayOptions: { show },
		description: 'The pixel tag event, from the events of the cabinet above',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select an event...',
				typeOptions: { searchListMethod: 'searchPixelEvents', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 31001',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: '^\\s*\\S+\\s*$',
							errorMessage: 'Enter the event ID (the "id" of the event, not its title)',
						},
					},
				],
			},
		],
	};
}

export function cabinetOf(ctx: IExecuteSingleFunctions): string {
	return readCabinetId(ctx.getNode(), ctx.getNodeParameter('accountId', ''), ctx.getItemIndex());
}

export function eventOf(ctx: IExecuteSingleFunctions): string {
	const raw = ctx.getNodeParameter('eventId', '', { extractValue: true }) as unknown;
	const id = typeof raw === 'string' || typeof raw === 'number' ? String(raw).trim() : '';
	if (!id) {
		throw invalidInput(
			ctx.getNode(),
			EVENT_LABEL,
			'is required: pick an event from the list or enter its ID',
			ctx.getItemIndex(),
		);
	}
	return id;
}

/** A required text the API takes as given (no trimming): refused when blank. */
export function requiredText(
	ctx: IExecuteSingleFunctions,
	parameter: string,
	label: string,
): string {
	const value = ctx.getNodeParameter(parameter, '') as unknown;
	const text = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
	if (text.trim() === '') {
		throw invalidInput(
			ctx.getNode(),
			label,
			'is required',
			ctx.getItemIndex(),
			typeof value === 'string' ? undefined : value,
		);
	}
	return text;
}

/** Rename and Delete: the API documents no answer body, so the output is the event and success. */
export function eventSucceeded(this: IExecuteSingleFunctions): IDataObject {
	return {
		id: String(this.getNodeParameter('eventId', '', { extractValue: true })).trim(),
		success: true,
	};
}

/** The node version from which Create, Rename and Delete take Dry Run. */
export const PIXEL_SAFE_WRITES_SINCE = 1.2;
