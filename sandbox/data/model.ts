import type { Currency } from './currencies';
import type { MetricProfile } from '../metrics/metricProfile';
import type { Schedule } from './schedule';

export interface Cabinet {
	account_id: string;
	/** Same value as account_id (the platform cabinet id of statistics rows). */
	id: string;
	name: string;
	currency: Currency;
	/** ISO country code of the cabinet's geolocation; audiences exist only for 'UZ'. */
	geolocation: string;
	/** Cabinets with automatic labelling cannot create ads without a KKTU id. */
	automaticLabelling: boolean;
	/** False: the token has no rights on this cabinet (pixel and audience endpoints answer 403). */
	permitted: boolean;
	extAccountType: number;
	/** The cabinet list's legal_name, category_key and category_name (real form only). */
	legalName: string;
	categoryKey: string;
	categoryName: string;
	/**
	 * The free balance at the sandbox's initial clock instant, in the cabinet's currency: the deposit
	 * is worked out from it, so later spend moves the balances (see data/accounts.ts).
	 */
	availableAtStart: number;
}

export interface Campaign {
	id: number;
	name: string;
	account_id: string;
	description: string;
}

export type AdType = 'target_channels' | 'target_users' | 'target_search' | 'target_bots';
/**
 * The ad statuses the real service uses (its status edit lists them): the seed makes active,
 * stopped and deleted ads; the others are set by POST /__sandbox/ads/{ad_id}/status.
 */
export const AD_STATUSES = [
	'active',
	'stopped',
	'in_review',
	'on_hold',
	'declined',
	'deleted',
] as const;
export type AdStatus = (typeof AD_STATUSES)[number];

export interface AdMedia {
	token: string;
	url: string;
	type: string;
}

export interface TargetBot {
	url: string;
	title: string;
	photo_url: string;
}

/** The stored, editable part of an ad, named as in the ad detail. */
export interface AdFields {
	title: string;
	text: string;
	promote_url: string;
	promote_url_title: string;
	promote_url_photo: string;
	media: AdMedia | null;
	cpm: number;
	budget: number;
	langs: string[];
	topics: string[];
	channels: string[];
	exclude_topics: string[];
	exclude_channels: string[];
	other_info: string | null;
	decline_reason: Record<string, unknown>[];
	cannot_edit_fields: string[];
	ad_type: AdType;
	countries: string[];
	user_locations: string[];
	audiences: number[];
	exclude_audiences: number[];
	website_name: string;
	is_website: boolean;
	views_per_user: number;
	show_picture: boolean;
	exclude_politic: boolean | null;
	promote_url_picture_id: string | null;
	all_topics_interested_users: boolean | null;
	device: string | null;
	target_user_channels: string[];
	exclude_target_user_channels: string[];
	button_type: string | null;
	daily_budget: number;
	after_moderation_status: string;
	start_date: string | null;
	end_date: string | null;
	schedule: Schedule | null;
	use_selected_timezone: boolean;
	schedule_timezone: number | null;
	website_photo_url: string;
	only_crypto: boolean;
	exclude_crypto: boolean;
	kktu_ids: string[];
	target_search: string[] | null;
	target_bots: TargetBot[] | null;
	/** The linked pixel event's platform id (detail `event`, create `{platform}_event_id`). */
	eventId: string | null;
}

export interface Ad {
	id: number;
	extId: number;
	accountId: string;
	campaignId: number;
	status: AdStatus;
	createdAt: number;
	statusUpdatedAt: number;
	/** Delivery window: statistics exist only inside it. */
	runFrom: number;
	runUntil: number | null;
	adObject: string;
	actionType: string | null;
	profile: MetricProfile;
	fields: AdFields;
}

export interface KktuNode {
	id: string;
	tree_id: number;
	code: string;
	name: string;
	children: KktuNode[];
}

/**
 * A pixel event's stored fields (ads_count and code_snippet are derived when served), plus the
 * cabinet. The event's id on the platform is stored under the current form's name (`ext_event_id`
 * or `tg_event_id`, see platform.ts), so records read the way the API serves them.
 */
export interface PixelEvent {
	id: string;
	account_id: string;
	pixel_id: string;
	title: string;
	type: string;
	status: 'active' | 'inactive';
	created_at: string;
	last_triggered_at: string | null;
	[platformEventIdField: string]: string | null;
}

/** The base pixel code, exactly as served (`{ id, ext_pixel_id | tg_pixel_id, code_snippet }`). */
export type PixelCode = Record<string, string>;

export interface PixelEventType {
	type: string;
	label: string;
}

/**
 * An audience (served without account_id). Its platform id is stored under the current
 * form's name (`ext_id` or `tg_id`).
 */
export interface Audience {
	account_id: string;
	title: string;
	[platformIdField: string]: string | number;
}

export interface AudienceUpload {
	accountId: string;
	title: string;
	entries: string[];
}

export interface MediaUpload {
	media_token: string;
	accountId: string;
	content_type: string;
	filename: string;
	size: number;
	sha256: string;
}

export interface KnownBot {
	id: number;
	username: string;
	title: string;
	dailyUsers: number;
}
