import { PLATFORM_NAMES, type Platform } from '../platform';

type FieldType =
	| 'string'
	| 'number'
	| 'integer'
	| 'boolean'
	| 'string[]'
	| 'number[]'
	| 'iso-date'
	| 'schedule'
	| 'target-bots';

interface FieldRule {
	type: FieldType;
	nullable?: boolean;
}

/** The pixel event field of create and edit: ext_event_id or tg_event_id. */
function eventField(platform: Platform): string {
	return PLATFORM_NAMES[platform].fields.eventId;
}

const rule = (type: FieldType, nullable = false): FieldRule => ({ type, nullable });

/** Every field ad create accepts and its type, but the pixel event's (named per form). */
const COMMON_CREATE_FIELDS: Readonly<Record<string, FieldRule>> = {
	campaign_id: rule('integer'),
	title: rule('string'),
	text: rule('string'),
	promote_url: rule('string'),
	ad_object: rule('string'),
	cpm: rule('number'),
	budget: rule('number'),
	langs: rule('string[]'),
	topics: rule('number[]'),
	topics_verbose: rule('string[]'),
	channels: rule('number[]'),
	channels_verbose: rule('string[]'),
	exclude_topics: rule('number[]'),
	exclude_topics_verbose: rule('string[]'),
	exclude_channels: rule('number[]'),
	exclude_channels_verbose: rule('string[]'),
	media_token: rule('string'),
	other_info: rule('string', true),
	split_by: rule('string[]'),
	ad_source: rule('string'),
	ad_type: rule('string'),
	countries: rule('string[]'),
	locations: rule('string[]'),
	locations_verbose: rule('string[]'),
	audiences: rule('number[]'),
	exclude_audiences: rule('number[]'),
	website_name: rule('string'),
	views_per_user: rule('integer'),
	show_picture: rule('boolean'),
	promote_url_picture_id: rule('string', true),
	exclude_politic: rule('boolean'),
	all_topics_interested_users: rule('boolean'),
	device: rule('string'),
	target_user_channels: rule('string[]'),
	target_user_channels_verbose: rule('string[]'),
	exclude_target_user_channels: rule('string[]'),
	exclude_target_user_channels_verbose: rule('string[]'),
	button_type: rule('string', true),
	daily_budget: rule('number'),
	after_moderation_status: rule('string'),
	start_date: rule('iso-date', true),
	end_date: rule('iso-date', true),
	schedule: rule('schedule'),
	use_selected_timezone: rule('boolean'),
	schedule_timezone: rule('number'),
	promote_url_type: rule('string'),
	currency_code: rule('string'),
	use_account_currency: rule('boolean'),
	only_crypto: rule('boolean'),
	exclude_crypto: rule('boolean'),
	kktu_ids: rule('string[]'),
	target_search: rule('string[]', true),
	target_bots: rule('target-bots', true),
};

const CREATE_FIELDS = COMMON_CREATE_FIELDS;

/** The only fields an edit may carry; typed as on create unless the edit gives another type. */
const COMMON_EDIT_FIELDS: Readonly<Record<string, FieldRule>> = {
	title: CREATE_FIELDS.title,
	text: CREATE_FIELDS.text,
	promote_url: CREATE_FIELDS.promote_url,
	cpm: CREATE_FIELDS.cpm,
	other_info: CREATE_FIELDS.other_info,
	media_token: rule('string', true),
	website_name: CREATE_FIELDS.website_name,
	views_per_user: CREATE_FIELDS.views_per_user,
	show_picture: CREATE_FIELDS.show_picture,
	promote_url_picture_id: CREATE_FIELDS.promote_url_picture_id,
	button_type: CREATE_FIELDS.button_type,
	daily_budget: CREATE_FIELDS.daily_budget,
	after_moderation_status: CREATE_FIELDS.after_moderation_status,
	start_date: CREATE_FIELDS.start_date,
	end_date: CREATE_FIELDS.end_date,
	schedule: rule('schedule', true),
	use_selected_timezone: CREATE_FIELDS.use_selected_timezone,
	schedule_timezone: rule('number', true),
	kktu_ids: CREATE_FIELDS.kktu_ids,
};

const EVENT_RULE = rule('string', true);

function withEventField(
	fields: Readonly<Record<string, FieldRule>>,
): Readonly<Record<Platform, Readonly<Record<string, FieldRule>>>> {
	return {
		telegram: { ...fields, [eventField('telegram')]: EVENT_RULE },
		ext: { ...fields, [eventField('ext')]: EVENT_RULE },
	};
}

/** Every create field and its type, in each form. */
export const CREATE_FIELDS_BY_PLATFORM = withEventField(COMMON_CREATE_FIELDS);

/** Every edit field and its type, in each form. */
export const EDIT_FIELDS_BY_PLATFORM = withEventField(COMMON_EDIT_FIELDS);

/** Requiredness is not in the spec; these are what any ad needs. */
export const CREATE_REQUIRED = ['campaign_id', 'title', 'text', 'promote_url', 'cpm', 'budget'];

export const ENUMS: Readonly<Record<string, readonly string[]>> = {
	ad_source: ['web_api'],
	ad_type: ['target_channels', 'target_users', 'target_search', 'target_bots'],
	button_type: ['open_website', 'learn_more'],
	after_moderation_status: ['on hold', 'active'],
	promote_url_type: ['website', 'channel'],
	currency_code: ['EUR', 'TON', 'USD', 'RUB', 'USDT', 'STAR'],
};

function describe(r: FieldRule): string {
	const base: Record<FieldType, string> = {
		string: 'a string',
		number: 'a number',
		integer: 'an integer',
		boolean: 'a boolean',
		'string[]': 'an array of strings',
		'number[]': 'an array of numbers',
		'iso-date': 'an ISO 8601 date string',
		schedule: 'an object with keys mon..sun',
		'target-bots': 'an array of { id, url } objects',
	};
	return base[r.type] + (r.nullable ? ' or null' : '');
}

export function typeName(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'array';
	return typeof value;
}

/** The rule a value breaks, or null when its JSON type fits. */
export function typeViolation(r: FieldRule, value: unknown): string | null {
	const bad = `must be ${describe(r)}, got ${typeName(value)}`;
	if (value === null) return r.nullable ? null : bad;
	switch (r.type) {
		case 'string':
		case 'iso-date':
			return typeof value === 'string' ? null : bad;
		case 'number':
			return typeof value === 'number' && Number.isFinite(value) ? null : bad;
		case 'integer':
			return Number.isInteger(value) ? null : bad;
		case 'boolean':
			return typeof value === 'boolean' ? null : bad;
		case 'string[]':
			return Array.isArray(value) && value.every((v) => typeof v === 'string') ? null : bad;
		case 'number[]':
			return Array.isArray(value) && value.every((v) => typeof v === 'number' && Number.isFinite(v))
				? null
				: bad;
		case 'schedule':
			return typeof value === 'object' && !Array.isArray(value) ? null : bad;
		case 'target-bots':
			return Array.isArray(value) &&
				value.every((v) => typeof v === 'object' && v !== null && !Array.isArray(v))
				? null
				: bad;
	}
}
