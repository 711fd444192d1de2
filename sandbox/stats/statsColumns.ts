export type Grouping = 'cabinet' | 'campaign' | 'ad_object' | 'ad';

/** Canonical order, also the order rows are sorted by within a period. */
export const GROUPINGS: readonly Grouping[] = ['cabinet', 'campaign', 'ad_object', 'ad'];

type ColumnType = 'string' | 'number' | 'money' | 'date' | 'datetime' | 'boolean' | 'array';

const column = (type: ColumnType, ...keys: string[]) => keys.map((key) => ({ key, type }));

/** Column metadata: every column, in the spec's order, whatever the grouping. */
const STATS_COLUMNS: readonly { key: string; type: ColumnType }[] = [
	...column('datetime', 'period_date'),
	...column('money', 'original_spent'),
	...column('string', 'original_currency'),
	...column('money', 'exchanged_spent'),
	...column('string', 'exchange_currency'),
	...column(
		'number',
		'views',
		'clicks',
		'actions',
		'video_opens',
		'ctr',
		'cpc',
		'cpm',
		'cpa',
		'cvr',
	),
	...column('number', 'campaign_id', 'platform_id'),
	...column('string', 'ad_object'),
	...column('number', 'ad_id', 'platform_ad_id'),
	...column('string', 'platform_cabinet_id', 'ad_title', 'ad_text', 'ad_status'),
	...column('money', 'ad_cpm', 'ad_budget'),
	...column('string', 'promote_url', 'target_type', 'website_name', 'media_type'),
	...column('number', 'views_limit_per_user'),
	...column('string', 'website_button_type', 'action_type'),
	...column('boolean', 'exclude_crypto', 'only_crypto'),
	...column('array', 'target_langs'),
	...column('string', 'additional_information'),
	...column(
		'array',
		'target_countries',
		'target_locations',
		'target_channels',
		'target_user_channels',
		'target_topics',
		'target_search',
		'target_bots',
	),
	...column('string', 'platform_cabinet_name', 'campaign_name'),
];

export const STATS_COLUMNS_JSON = JSON.stringify(STATS_COLUMNS);

/** Present in every row, with any grouping or none. */
const COMMON_FIELDS: readonly string[] = [
	'period_date',
	'original_spent',
	'original_currency',
	'exchanged_spent',
	'exchange_currency',
	'views',
	'clicks',
	'video_opens',
	'actions',
	'ctr',
	'cvr',
	'cpm',
	'cpc',
	'cpa',
	'platform_id',
];

/** The fields each grouping value adds to a row. */
const GROUPING_FIELDS: Readonly<Record<Grouping, readonly string[]>> = {
	cabinet: ['platform_cabinet_name', 'platform_cabinet_id'],
	campaign: ['platform_cabinet_name', 'campaign_name', 'campaign_id'],
	ad_object: ['ad_object'],
	ad: [
		'ad_title',
		'ad_text',
		'promote_url',
		'website_name',
		'media_type',
		'target_type',
		'target_topics',
		'views_limit_per_user',
		'website_button_type',
		'action_type',
		'ad_id',
		'platform_ad_id',
		'ad_status',
		'ad_cpm',
		'ad_budget',
		'exclude_crypto',
		'only_crypto',
		'additional_information',
		'target_langs',
		'target_countries',
		'target_locations',
		'target_channels',
		'target_user_channels',
		'target_search',
		'target_bots',
	],
};

/** Several groupings merge: the union of the chosen groupings' fields, in column order. */
export function rowKeys(groupings: readonly Grouping[]): string[] {
	const wanted = new Set<string>(COMMON_FIELDS);
	for (const g of groupings) for (const key of GROUPING_FIELDS[g]) wanted.add(key);
	return STATS_COLUMNS.map((c) => c.key).filter((key) => wanted.has(key));
}
