/**
 * The API's fixed values, each written once: its value, the name a user sees, and what the nodes
 * need to know about it. Dropdowns, checks before sending, tool descriptions and the trigger are
 * all derived from these lists, so adding a value here is the only product edit it takes.
 */

/** One value the API takes, as the editor shows it. */
export interface Term {
	value: string;
	/** Shown in the dropdown. */
	name: string;
	/** Shown under the dropdown entry. */
	description?: string;
}

export interface PeriodUnitTerm extends Term {
	/** The canvas subtitle's adjective: "Daily rows", "5-minute rows". */
	adjective: string;
	/** The API holds only the last 5 days of it, and takes at most 2 days per request. */
	fine: boolean;
	/** Complete periods arrive at most once a day (the trigger suggests polling hourly). */
	daily: boolean;
	/** How `row_key` writes the unit (the value itself when absent). */
	keyCode?: string;
}

export interface GroupingTerm extends Term {
	/** How a tool description names a row split this way: "per campaign". */
	noun: string;
	/** The fields that identify a row of this grouping within a period. */
	keys: string[];
	/** How `row_key` marks this grouping's ids (the value itself when absent). */
	keyCode?: string;
}

/**
 * `period_grouping_unit`, shortest to longest, as people think of time (the editor keeps
 * this order; n8n's lint rule only checks arrays written in place in a node's description).
 */
export const PERIOD_UNIT_TERMS: PeriodUnitTerm[] = [
	{
		value: '5_minutes',
		name: '5 Minutes',
		adjective: '5-minute',
		fine: true,
		daily: false,
		keyCode: '5m',
	},
	{
		value: '30_minutes',
		name: '30 Minutes',
		adjective: '30-minute',
		fine: true,
		daily: false,
		keyCode: '30m',
	},
	{ value: 'hour', name: 'Hour', adjective: 'Hourly', fine: true, daily: false, keyCode: 'h' },
	{ value: 'day', name: 'Day', adjective: 'Daily', fine: false, daily: true, keyCode: 'd' },
	{ value: 'week', name: 'Week', adjective: 'Weekly', fine: false, daily: true, keyCode: 'w' },
	{ value: 'month', name: 'Month', adjective: 'Monthly', fine: false, daily: true, keyCode: 'mo' },
	{ value: 'year', name: 'Year', adjective: 'Yearly', fine: false, daily: true, keyCode: 'y' },
];

/** `grouping` values, alphabetical by name as the editor lists them. */
export const GROUPING_TERMS: GroupingTerm[] = [
	{
		value: 'ad',
		name: 'Ad',
		description: "Adds the ad's title, text, status, budget and targeting",
		noun: 'ad',
		keys: ['ad_id'],
		keyCode: 'a',
	},
	{
		value: 'ad_object',
		name: 'Ad Object',
		description: 'Adds the advertised object',
		noun: 'advertised object',
		keys: ['ad_object'],
		keyCode: 'o',
	},
	{
		value: 'cabinet',
		name: 'Cabinet',
		description: 'Adds the cabinet ID and name',
		noun: 'cabinet',
		keys: ['platform_cabinet_id'],
		keyCode: 'k',
	},
	{
		value: 'campaign',
		name: 'Campaign',
		description: 'Adds the campaign ID and name and the cabinet name',
		noun: 'campaign',
		keys: ['campaign_id'],
		keyCode: 'c',
	},
];

/** Currency codes of statistics and of an ad's money; EUR is the API's default. */
export const CURRENCY_CODES: string[] = ['EUR', 'TON', 'USD', 'RUB', 'USDT', 'STAR'];
export const DEFAULT_CURRENCY = 'EUR';

/** `order_by` of statistics. */
export const STATS_ORDER_TERMS: Term[] = [
	{ value: 'period', name: 'Oldest First' },
	{ value: '-period', name: 'Newest First' },
];
export const NEWEST_FIRST = '-period';

/** `ad_type` of an ad. */
export const AD_TYPE_TERMS: Term[] = [
	{
		value: 'target_channels',
		name: 'Channels',
		description: 'Show the ad in chosen channels or topics',
	},
	{
		value: 'target_users',
		name: 'Users',
		description: 'Show the ad to users by interests, places and audiences',
	},
	{
		value: 'target_bots',
		name: 'Bots',
		description: 'Show the ad in chosen bots (see Validate Bots)',
	},
	{
		value: 'target_search',
		name: 'Search',
		description:
			'Show the ad for search queries (needs Targeting → Search Queries). Existing ads use this type, though the API documentation does not list it for new ads.',
	},
];

/** The button types seen on ads' details: `learn_more` and `open_website`. */
export const BUTTON_TYPE_TERMS: Term[] = [
	{ value: 'learn_more', name: 'Learn More' },
	{ value: 'open_website', name: 'Open Website' },
];

/** The values of a list of terms, e.g. for a check before sending. */
export function valuesOf(terms: readonly Term[]): string[] {
	return terms.map((term) => term.value);
}

/** "a, b or c": how a message or a description names several values. */
export function inWords(words: readonly string[], conjunction = 'or'): string {
	if (words.length <= 1) return words.join('');
	return `${words.slice(0, -1).join(', ')} ${conjunction} ${words[words.length - 1]}`;
}
