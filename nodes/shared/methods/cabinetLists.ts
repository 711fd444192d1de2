import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { PATHS } from '../constants';
import { platformNamesOf } from '../platform';
import { apiRequest } from '../transport/request';

/**
 * Dropdowns fed by one cabinet's records. They read the cabinet from the node's `accountId`
 * parameter (the API's `account_id`), so the list follows the cabinet chosen in the same node.
 */
export function chosenCabinet(ctx: ILoadOptionsFunctions): string {
	const value = ctx.getCurrentNodeParameter('accountId', { extractValue: true }) as unknown;
	return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
}

/** The cabinet's pixel tag events, by the platform's event id (what an ad links to). */
export async function getPixelEvents(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const accountId = chosenCabinet(this);
	if (!accountId) return [];
	const { eventId } = (await platformNamesOf(this)).fields;
	const body = (await apiRequest.call(this, {
		api: 'client',
		method: 'GET',
		path: PATHS.pixelEvents,
		qs: { account_id: accountId },
	})) as { items?: IDataObject[] } | undefined;
	// An event without the form's id cannot be linked to an ad: it is not offered.
	return (body?.items ?? [])
		.filter((event) => typeof event[eventId] === 'string' || typeof event[eventId] === 'number')
		.map((event) => ({
			name: `${String(event.title)} (${String(event[eventId])})`,
			value: String(event[eventId]),
			description: `${String(event.type)}, ${String(event.status)}`,
		}));
}

/** The pixel event types (`page_view`, `purchase`, `custom`, …). */
export async function getPixelEventTypes(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const body = (await apiRequest.call(this, {
		api: 'client',
		method: 'GET',
		path: PATHS.pixelEventTypes,
	})) as { items?: IDataObject[] } | undefined;
	return (body?.items ?? []).map((type) => ({
		name: String(type.label ?? type.type),
		value: String(type.type),
	}));
}

/** The cabinet's phone-number audiences, by the platform's audience id. */
export async function getAudiences(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const accountId = chosenCabinet(this);
	if (!accountId) return [];
	const names = await platformNamesOf(this);
	const body = (await apiRequest.call(this, {
		api: 'client',
		method: 'GET',
		path: names.paths.audiencesList(accountId),
	})) as IDataObject[] | undefined;
	const { audienceId } = names.fields;
	// An audience without a numeric id cannot be targeted: it is not offered.
	return (Array.isArray(body) ? body : [])
		.filter((audience) => Number.isFinite(Number(audience[audienceId] ?? NaN)))
		.map((audience) => ({
			name: String(audience.title),
			value: Number(audience[audienceId]),
		}));
}
