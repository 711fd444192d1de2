import { isoWithOffset } from '../data/format';
import { ApiError, fieldError, FieldErrors } from '../errors';
import { json, jsonObjectBody, NO_CONTENT, queryValue, type Handler } from './context';
import { accessibleCabinet } from './pixelAccess';

function requireStrings(
	body: Record<string, unknown>,
	fields: string[],
	errors: FieldErrors,
): void {
	for (const key of Object.keys(body)) {
		if (!fields.includes(key))
			errors.add(key, `unknown field; allowed fields: ${fields.join(', ')}`);
	}
	for (const field of fields) {
		const value = body[field];
		if (value === undefined || value === null) errors.add(field, 'is required');
		else if (typeof value !== 'string')
			errors.add(field, `must be a string, got ${Array.isArray(value) ? 'array' : typeof value}`);
		else if (value.trim() === '') errors.add(field, 'must not be empty');
	}
}

/** GET {client_api_url}/api/pixel_events/?account_id=: `{ items }`, the cabinet's events. */
export const pixelEventList: Handler = ({ req, data }) => {
	const accountId = queryValue(req.query, 'account_id');
	if (!accountId) throw fieldError('account_id', 'query parameter is required');
	accessibleCabinet(data, accountId);
	return json({ items: data.pixelEventsOf(accountId).map((e) => data.pixelEventView(e)) });
};

/** POST {client_api_url}/api/pixel_events/: 201 with the event; an unknown type is a 422. */
export const pixelEventCreate: Handler = ({ req, data }) => {
	const body = jsonObjectBody(req);
	const errors = new FieldErrors();
	requireStrings(body, ['account_id', 'title', 'type'], errors);
	errors.throwIfAny();
	const accountId = body.account_id as string;
	accessibleCabinet(data, accountId);
	const types = data.pixelEventTypes.map((t) => t.type);
	if (!types.includes(body.type as string)) {
		throw new ApiError(
			422,
			`Unsupported event type "${String(body.type)}". Valid types: ${types.join(', ')}.`,
			{
				type: [`must be one of ${types.join(', ')}`],
			},
		);
	}
	const event = data.createPixelEvent(
		accountId,
		body.title as string,
		body.type as string,
		isoWithOffset(data.nowMs()),
	);
	return json(data.pixelEventView(event), 201);
};

/** GET {client_api_url}/api/pixel_events/{account_id}/code_snippet: the base pixel code. */
export const pixelBaseCode: Handler = ({ req, data }) => {
	accessibleCabinet(data, req.params.account_id);
	return json(data.pixelCode(req.params.account_id));
};

/** GET {client_api_url}/api/pixel_events/types: `{ items }` of type and label. */
export const pixelEventTypes: Handler = ({ data }) => json({ items: data.pixelEventTypes });

/** PATCH {client_api_url}/api/pixel_events/{event_id}: 204 without a body. */
export const pixelEventRename: Handler = ({ req, data }) => {
	const body = jsonObjectBody(req);
	const errors = new FieldErrors();
	requireStrings(body, ['account_id', 'title'], errors);
	errors.throwIfAny();
	const accountId = body.account_id as string;
	accessibleCabinet(data, accountId);
	const event = data.pixelEventsOf(accountId).find((e) => e.id === req.params.event_id);
	if (!event)
		throw new ApiError(
			404,
			`Pixel event ${req.params.event_id} not found in account ${accountId}.`,
		);
	event.title = body.title as string;
	return NO_CONTENT;
};

/** DELETE {client_api_url}/api/pixel_events/{account_id}/events/{event_id}: 204 without a body. */
export const pixelEventDelete: Handler = ({ req, data }) => {
	const { account_id: accountId, event_id: eventId } = req.params;
	accessibleCabinet(data, accountId, 404);
	const event = data.pixelEventsOf(accountId).find((e) => e.id === eventId);
	if (!event) throw new ApiError(404, `Pixel event ${eventId} not found in account ${accountId}.`);
	data.deletePixelEvent(event);
	for (const ad of data.ads) {
		if (ad.accountId === accountId && ad.fields.eventId === data.eventIdOf(event))
			ad.fields.eventId = null;
	}
	return NO_CONTENT;
};
