import type { INodeParameters } from 'n8n-workflow';
import type { Platform } from '../../sandbox';

/** The pixel event field of ad create, edit and the event list, as each form names it (from the API's docs). */
export const EVENT_FIELD: Record<Platform, string> = {
	telegram: 'tg_event_id',
	ext: 'ext_event_id',
};

/** The path of ad create; an ad's own path adds its id. */
export const AD_PATH: Record<Platform, string> = {
	telegram: '/api/advertisement/telegram/',
	ext: '/api/advertisement/ext/',
};

/** Every body field of ad create, written out from the spec's table, the pixel event under its name in each form. */
export const specCreateFields = (platform: Platform): string[] => [
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
	EVENT_FIELD[platform],
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
