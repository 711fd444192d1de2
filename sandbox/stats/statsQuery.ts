import { CURRENCIES, isCurrency, type Currency } from '../data/currencies';
import { fieldError, FieldErrors, isPlainObject } from '../errors';
import {
	DAY_MS,
	isPeriodUnit,
	PERIOD_UNITS,
	SUB_DAY_UNITS,
	type PeriodUnit,
} from '../metrics/time';
import { GROUPINGS, type Grouping } from './statsColumns';
import { parseIsoDate } from './isoDate';

/** The statistics endpoint's maximum `limit`; also our default for it. */
const STATS_MAX_LIMIT = 500;
const STATS_DEFAULT_LIMIT = 500;

/** A validated statistics request body with defaults filled in. */
export interface StatsQuery {
	period_from: string;
	period_to: string;
	period_grouping_unit: PeriodUnit;
	grouping: Grouping[];
	platform_cabinet_ids: string[] | null;
	ad_objects: string[] | null;
	currency_code: Currency;
	order_by: 'period' | '-period';
	limit: number;
}

export const STATS_BODY_FIELDS = [
	'period_from',
	'period_to',
	'period_grouping_unit',
	'grouping',
	'platform_cabinet_ids',
	'ad_objects',
	'currency_code',
	'order_by',
	'limit',
	'cursor',
] as const;

type QueryField = Exclude<(typeof STATS_BODY_FIELDS)[number], 'cursor'>;

/** Inclusive time window of a query: a date-only period_to stands for that whole day. */
export function queryWindow(query: StatsQuery): { fromMs: number; toMs: number } {
	const from = parseIsoDate(query.period_from);
	const to = parseIsoDate(query.period_to);
	if (!from || !to) throw new Error('queryWindow called with an unvalidated query');
	return { fromMs: from.ms, toMs: to.dateOnly ? to.ms + DAY_MS - 1 : to.ms };
}

function stringArray(field: string, value: unknown, errors: FieldErrors): string[] | null {
	if (value === undefined || value === null) return null;
	if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
		errors.add(field, 'must be an array of strings');
		return null;
	}
	return [...new Set(value as string[])].sort();
}

/** Normalizes one optional field; `undefined` when invalid (the error is recorded). */
function normalizeField(field: QueryField, value: unknown, errors: FieldErrors): unknown {
	switch (field) {
		case 'period_from':
		case 'period_to':
			if (typeof value !== 'string' || !parseIsoDate(value)) {
				errors.add(
					field,
					`must be an ISO 8601 date or date-time (e.g. 2026-03-01 or 2026-03-01T00:00:00Z), got ${JSON.stringify(value)}`,
				);
				return undefined;
			}
			return value;
		case 'period_grouping_unit':
			if (!isPeriodUnit(value)) {
				errors.add(
					field,
					`must be one of ${PERIOD_UNITS.join(', ')}, got ${JSON.stringify(value)}`,
				);
				return undefined;
			}
			return value;
		case 'grouping': {
			if (value === null) return [];
			if (!Array.isArray(value)) {
				errors.add(field, `must be an array of values from ${GROUPINGS.join(', ')}`);
				return undefined;
			}
			const unknown = value.filter((v) => !(GROUPINGS as readonly unknown[]).includes(v));
			if (unknown.length > 0) {
				errors.add(
					field,
					`unknown value ${unknown.map((v) => JSON.stringify(v)).join(', ')}; allowed: ${GROUPINGS.join(', ')}`,
				);
				return undefined;
			}
			return GROUPINGS.filter((g) => value.includes(g));
		}
		case 'platform_cabinet_ids':
		case 'ad_objects':
			return stringArray(field, value, errors);
		case 'currency_code':
			if (value === null) return 'EUR';
			if (!isCurrency(value)) {
				errors.add(field, `must be one of ${CURRENCIES.join(', ')}, got ${JSON.stringify(value)}`);
				return undefined;
			}
			return value;
		case 'order_by':
			if (value === null) return 'period';
			if (value !== 'period' && value !== '-period') {
				errors.add(
					field,
					`must be "period" (ascending) or "-period" (descending), got ${JSON.stringify(value)}`,
				);
				return undefined;
			}
			return value;
		case 'limit':
			if (value === null) return STATS_DEFAULT_LIMIT;
			if (
				typeof value !== 'number' ||
				!Number.isInteger(value) ||
				value < 1 ||
				value > STATS_MAX_LIMIT
			) {
				errors.add(
					field,
					`must be an integer from 1 to ${STATS_MAX_LIMIT}, got ${JSON.stringify(value)}`,
				);
				return undefined;
			}
			return value;
	}
}

/** Flags body keys the statistics endpoint does not define. */
export function checkUnknownFields(body: Record<string, unknown>, errors: FieldErrors): void {
	for (const key of Object.keys(body)) {
		if (!(STATS_BODY_FIELDS as readonly string[]).includes(key)) {
			errors.add(key, `unknown field; allowed fields: ${STATS_BODY_FIELDS.join(', ')}`);
		}
	}
}

/** Validates a full statistics body (without cursor) against the clock instant `nowMs`. */
export function validateStatsQuery(
	body: unknown,
	nowMs: number,
	options: { periodRules: boolean } = { periodRules: true },
): StatsQuery {
	if (!isPlainObject(body)) throw fieldError('body', 'must be a JSON object');
	const errors = new FieldErrors();
	checkUnknownFields(body, errors);
	const required: readonly QueryField[] = ['period_from', 'period_to', 'period_grouping_unit'];
	for (const field of required) {
		if (body[field] === undefined || body[field] === null) errors.add(field, 'is required');
	}
	const out: Record<string, unknown> = {};
	const defaults: Record<QueryField, unknown> = {
		period_from: undefined,
		period_to: undefined,
		period_grouping_unit: undefined,
		grouping: [],
		platform_cabinet_ids: null,
		ad_objects: null,
		currency_code: 'EUR',
		order_by: 'period',
		limit: STATS_DEFAULT_LIMIT,
	};
	for (const field of Object.keys(defaults) as QueryField[]) {
		const value = body[field];
		const absent = value === undefined || (value === null && required.includes(field));
		out[field] = absent ? defaults[field] : normalizeField(field, value, errors);
	}
	errors.throwIfAny();
	const query = out as unknown as StatsQuery;
	checkPeriodRules(query, nowMs, errors, options.periodRules);
	errors.throwIfAny();
	return query;
}

function checkPeriodRules(
	query: StatsQuery,
	nowMs: number,
	errors: FieldErrors,
	subDayRules: boolean,
): void {
	const from = parseIsoDate(query.period_from);
	const to = parseIsoDate(query.period_to);
	if (!from || !to) return;
	if (from.ms > to.ms) {
		errors.add(
			'period_from',
			`must not be after period_to (${query.period_from} > ${query.period_to})`,
		);
		return;
	}
	const unit = query.period_grouping_unit;
	if (!subDayRules || !SUB_DAY_UNITS.includes(unit)) return;
	// Sub-day units: data only for the last 5 days, and at most 2 days from period_from to period_to.
	const earliest = nowMs - 5 * DAY_MS;
	if (from.ms < earliest) {
		errors.add(
			'period_from',
			`with period_grouping_unit "${unit}" data exists only for the last 5 days: period_from must not be earlier than ${new Date(earliest).toISOString()}`,
		);
	}
	if (to.ms - from.ms > 2 * DAY_MS) {
		errors.add(
			'period_to',
			`with period_grouping_unit "${unit}" the span between period_from and period_to may not exceed 2 days`,
		);
	}
}

/** Compares a parameter sent alongside a cursor (which may come alone) with the cursor's query. */
export function sameAsCursorQuery(
	field: QueryField,
	value: unknown,
	query: StatsQuery,
	errors: FieldErrors,
): boolean {
	const normalized = normalizeField(field, value, errors);
	if (normalized === undefined && errors.has(field)) return true;
	const expected = query[field];
	if (field === 'period_from' || field === 'period_to') {
		const a = parseIsoDate(normalized);
		const b = parseIsoDate(expected);
		return a?.ms === b?.ms && a?.dateOnly === b?.dateOnly;
	}
	return JSON.stringify(normalized) === JSON.stringify(expected);
}
