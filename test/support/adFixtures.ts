import type { INodeParameters } from 'n8n-workflow';
import { PLATFORM } from '../../nodes/shared/platform';

export const EVENT = `${PLATFORM}_event_id`;
export const AD_PATH = `/api/advertisement/${PLATFORM}/`;

/** Every body field of spec 4.6, written out from the spec table. */
export const SPEC_CREATE_FIELDS = [
	'campaign_id',
	'title',
	'text',
	'promote_url',
	'ad_object',
	'cpm',
	'budget',
	'langs',
	'topics',
	'topics_verbose',
	'channels',
	'channels_verbose',
	'exclude_topics',
	'exclude_topics_verbose',
	'exclude_channels',
	'exclude_channels_verbose',
	'media_token',
	'other_info',
	'split_by',
	'ad_source',
	'ad_type',
	'countries',
	'locations',
	'locations_verbose',
	'audiences',
	'exclude_audiences',
	'website_name',
	'views_per_user',
	'show_picture',
	'promote_url_picture_id',
	'exclude_politic',
	'all_topics_interested_users',
	'device',
	'target_user_channels',
	'target_user_channels_verbose',
	'exclude_target_user_channels',
	'exclude_target_user_channels_verbose',
	'button_type',
	'daily_budget',
	'after_moderation_status',
	'start_date',
	'end_date',
	'schedule',
	'use_selected_timezone',
	'schedule_timezone',
	'promote_url_type',
	'currency_code',
	'use_account_currency',
	'only_crypto',
	'exclude_crypto',
	'kktu_ids',
	'target_search',
	'target_bots',
	EVENT,
];

/** A small valid create in Berlin Growth GmbH (no automatic labelling, so no KKTU needed). */
export function minimalCreate(extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'ad',
		operation: 'create',
		campaignId: 2201,
		title: 'Autumn launch',
		text: 'Meet the new collection',
		promoteUrl: 'https://t.me/berlin_startups',
		cpm: 2.5,
		budget: 150,
		adType: 'target_channels',
		kktu: { __rl: true, mode: 'list', value: '' },
		...extra,
	};
}

export const locator = (value: string, mode = 'id') => ({ __rl: true, mode, value });
