import { adDetail } from '../data/adViews';
import type { AdFields } from '../data/model';
import { ApiError } from '../errors';
import { timezoneFromRequest } from '../data/scheduleTimezone';
import { mediaFor, scheduleFrom } from './adCreate';
import { adNotFound } from './adGet';
import { validateAdBody } from './adRules';
import { json, jsonObjectBody, type Handler } from './context';

/** Edit fields stored under the same name. */
const DIRECT_FIELDS = [
	'title',
	'text',
	'promote_url',
	'cpm',
	'other_info',
	'website_name',
	'views_per_user',
	'show_picture',
	'promote_url_picture_id',
	'button_type',
	'daily_budget',
	'after_moderation_status',
	'start_date',
	'end_date',
	'use_selected_timezone',
	'kktu_ids',
] as const;

/** PUT {base_url}/api/advertisement/{platform}/{ad_id}: partial update, 200 with the detail. */
export const adEdit: Handler = ({ req, data }) => {
	const ad = data.ad(Number(req.params.ad_id));
	if (!ad || data.cabinet(ad.accountId)?.permitted !== true) throw adNotFound(req.params.ad_id);
	const body = jsonObjectBody(req);
	if (ad.status === 'deleted')
		throw new ApiError(400, `Advertisement ${ad.id} is deleted and cannot be edited.`);
	validateAdBody(body, { data, mode: 'edit', existing: ad });
	const fields = ad.fields as unknown as Record<string, unknown>;
	for (const field of DIRECT_FIELDS) {
		if (body[field] !== undefined) fields[field] = structuredClone(body[field]);
	}
	const updated: Partial<AdFields> = {};
	if (body.media_token !== undefined) {
		updated.media = body.media_token === null ? null : mediaFor(data, body.media_token as string);
	}
	if (body.schedule !== undefined) updated.schedule = scheduleFrom(body.schedule);
	if (body.schedule_timezone !== undefined)
		updated.schedule_timezone = timezoneFromRequest(
			data.platform,
			body.schedule_timezone as number | null,
		);
	const eventField = data.names.fields.eventId;
	if (body[eventField] !== undefined) updated.eventId = body[eventField] as string | null;
	Object.assign(ad.fields, updated);
	data.adChanged();
	return data.adWriteAnswer === 'empty' ? { status: 200 } : json(adDetail(data, ad));
};
