import {
	CURRENCIES,
	DECIMAL_FIELDS,
	FINE_UNITS,
	FINE_UNIT_HISTORY_DAYS,
	FINE_UNIT_MAX_SPAN_DAYS,
	GROUPINGS,
	GROUPING_KEYS,
	METRIC_FIELDS,
	ORDERS,
	PERIOD_UNITS,
} from '../../../../nodes/shared/stats/apiValues';
import {
	CURRENCY_CODES,
	GROUPING_TERMS,
	NEWEST_FIRST,
	PERIOD_UNIT_TERMS,
	STATS_ORDER_TERMS,
} from '../../../../nodes/shared/vocabulary';

describe('the statistics API values', () => {
	test('come from the vocabulary, in its order', () => {
		expect(PERIOD_UNITS).toEqual(PERIOD_UNIT_TERMS.map((term) => term.value));
		expect(GROUPINGS).toEqual(GROUPING_TERMS.map((term) => term.value));
		expect(ORDERS).toEqual(STATS_ORDER_TERMS.map((term) => term.value));
		expect(CURRENCIES).toBe(CURRENCY_CODES);
		expect(ORDERS).toContain(NEWEST_FIRST);
	});

	test('the fine units, limited to recent days and short requests, are the units shorter than a day', () => {
		expect([...FINE_UNITS].sort()).toEqual(['30_minutes', '5_minutes', 'hour']);
		expect(FINE_UNITS.has('day')).toBe(false);
		expect(FINE_UNIT_MAX_SPAN_DAYS).toBeLessThan(FINE_UNIT_HISTORY_DAYS);
	});

	test('every grouping has the fields that identify its rows', () => {
		for (const grouping of GROUPINGS) expect(GROUPING_KEYS[grouping].length).toBeGreaterThan(0);
		expect(GROUPING_KEYS.campaign).toEqual(['campaign_id']);
		expect(GROUPING_KEYS.ad).toEqual(['ad_id']);
		expect(GROUPING_KEYS.cabinet).toEqual(['platform_cabinet_id']);
	});

	test('the money and ratio metrics are decimal fields; counts are not', () => {
		const decimals = new Set<string>(DECIMAL_FIELDS);
		for (const field of ['original_spent', 'exchanged_spent', 'ctr', 'cpc', 'cpm', 'cpa', 'cvr']) {
			expect(decimals.has(field)).toBe(true);
			expect(METRIC_FIELDS).toContain(field);
		}
		for (const count of ['views', 'clicks', 'actions', 'video_opens']) {
			expect(decimals.has(count)).toBe(false);
			expect(METRIC_FIELDS).toContain(count);
		}
	});
});
