import {
	CURRENCY_CODES,
	GROUPING_TERMS,
	PERIOD_UNIT_TERMS,
	STATS_ORDER_TERMS,
	valuesOf,
} from '../vocabulary';

/**
 * Values of `period_grouping_unit` (from the vocabulary). The type stays a closed list:
 * each unit's length is arithmetic in the bucket clock, so a new unit needs code there too.
 */
export type PeriodUnit = 'day' | 'week' | 'month' | 'year' | 'hour' | '30_minutes' | '5_minutes';
export const PERIOD_UNITS = valuesOf(PERIOD_UNIT_TERMS) as PeriodUnit[];

/** Units whose data covers only the last 5 days, at most 2 days per request (docs/api-rules.md#statistics). */
export const FINE_UNITS: ReadonlySet<string> = new Set(
	PERIOD_UNIT_TERMS.filter((term) => term.fine).map((term) => term.value),
);
export const FINE_UNIT_HISTORY_DAYS = 5;
export const FINE_UNIT_MAX_SPAN_DAYS = 2;

/** Values of `grouping`. */
export const GROUPINGS = valuesOf(GROUPING_TERMS);
export type Grouping = string;

/** Values of `currency_code`. */
export const CURRENCIES = CURRENCY_CODES;

/** Values of `order_by`. */
export const ORDERS = valuesOf(STATS_ORDER_TERMS);

/** The fields that identify a row within a period, per grouping value (docs/api-rules.md#statistics). */
export const GROUPING_KEYS: Record<Grouping, string[]> = Object.fromEntries(
	GROUPING_TERMS.map((term) => [term.value, term.keys]),
);

/** Money and ratio fields the API sends as decimal strings, so that no precision is lost. */
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

/** Metric fields of every grouping, compared by the trigger's "every change" mode. */
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
