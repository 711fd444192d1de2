/** spec 4.1: values of `period_grouping_unit`. */
export const PERIOD_UNITS = ['day', 'week', 'month', 'year', 'hour', '30_minutes', '5_minutes'] as const;
export type PeriodUnit = (typeof PERIOD_UNITS)[number];

/** spec 4.1 rule 1: units whose data covers only the last 5 days, at most 2 days per request. */
export const FINE_UNITS: ReadonlySet<string> = new Set(['hour', '30_minutes', '5_minutes']);
export const FINE_UNIT_HISTORY_DAYS = 5;
export const FINE_UNIT_MAX_SPAN_DAYS = 2;

/** spec 4.1: values of `grouping`. */
export const GROUPINGS = ['cabinet', 'campaign', 'ad_object', 'ad'] as const;
export type Grouping = (typeof GROUPINGS)[number];

/** spec 4.1: values of `currency_code`; EUR is the API's default. */
export const CURRENCIES = ['EUR', 'TON', 'USD', 'RUB', 'USDT', 'STAR'] as const;

/** spec 2.2: the fields that identify a row within a period, per grouping value. */
export const GROUPING_KEYS: Record<Grouping, string[]> = {
	cabinet: ['platform_cabinet_id'],
	campaign: ['campaign_id'],
	ad_object: ['ad_object'],
	ad: ['ad_id'],
};

/** spec 2.1: money and ratio fields the API sends as decimal strings. */
export const DECIMAL_FIELDS = [
	'original_spent',
	'exchanged_spent',
	'ad_cpm',
	'ad_budget',
	'ctr',
	'cpc',
	'cpm',
	'cpa',
	'cvr',
] as const;

/** spec 2.1 and 2.2: metric fields, compared by the trigger's "every change" mode. */
export const METRIC_FIELDS = [
	'original_spent',
	'exchanged_spent',
	'views',
	'clicks',
	'actions',
	'video_opens',
	'ctr',
	'cpc',
	'cpm',
	'cpa',
	'cvr',
] as const;
