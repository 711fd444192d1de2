import type { IDataObject, INode } from 'n8n-workflow';
import { invalidInput, listOf } from '../validation';
import {
	CURRENCIES,
	FINE_UNIT_HISTORY_DAYS,
	FINE_UNIT_MAX_SPAN_DAYS,
	FINE_UNITS,
	GROUPINGS,
	ORDERS,
	PERIOD_UNITS,
	type Grouping,
} from './apiValues';

const DAY_MS = 86_400_000;

/** The body of POST /api/v1/stats/page without paging fields. */
export interface StatsQuery extends IDataObject {
	period_from: string;
	period_to: string;
	period_grouping_unit: string;
	grouping?: Grouping[];
	platform_cabinet_ids?: string[];
	ad_objects?: string[];
	currency_code?: string;
	order_by?: string;
}

interface QueryBounds {
	fromMs: number;
	toMs: number;
	now: Date;
}

/** Reads one node parameter, with a fallback where the parameter may be absent. */
export type ParameterReader = (name: string, fallback?: unknown) => unknown;

/**
 * The statistics query from the parameters Stats Get Many and the Stats Trigger share: grouping
 * unit, grouping, currency and the cabinet and ad object filters. Each node supplies the period and
 * the order itself, and how its version reads the cabinet filter: by default as the typed text of
 * the versions without the cabinet list, sent as written.
 */
export function readStatsQuery(
	read: ParameterReader,
	period: { from: string; to: string },
	orderBy: string,
	readCabinets: (raw: unknown) => string[] = listOf,
): StatsQuery {
	const query: StatsQuery = {
		period_from: period.from,
		period_to: period.to,
		period_grouping_unit: read('periodGroupingUnit') as string,
		currency_code: read('currency') as string,
		order_by: orderBy,
	};
	const grouping = listOf(read('grouping', [])) as Grouping[];
	if (grouping.length) query.grouping = grouping;
	const filters = read('filters', {}) as IDataObject;
	const cabinets = readCabinets(filters.cabinetIds);
	if (cabinets.length) query.platform_cabinet_ids = cabinets;
	const objects = listOf(filters.adObjects);
	if (objects.length) query.ad_objects = objects;
	return query;
}

/** Names of the fields as the nodes show them, for error messages. */
export const STATS_FIELD_NAMES = {
	from: 'Period From',
	to: 'Period To',
	unit: 'Period Grouping Unit',
	grouping: 'Grouping',
	currency: 'Currency',
	order: 'Order',
};

/** Checks a query against the API's rules (docs/api-rules.md#statistics) before it is sent; throws NodeOperationError naming the field. */
export function checkStatsQuery(
	node: INode,
	query: StatsQuery,
	bounds: QueryBounds,
	itemIndex = 0,
): void {
	const names = STATS_FIELD_NAMES;
	if (!(PERIOD_UNITS as readonly string[]).includes(query.period_grouping_unit)) {
		throw invalidInput(
			node,
			names.unit,
			`must be one of ${PERIOD_UNITS.join(', ')}`,
			itemIndex,
			query.period_grouping_unit,
		);
	}
	for (const group of query.grouping ?? []) {
		if (!(GROUPINGS as readonly string[]).includes(group)) {
			throw invalidInput(
				node,
				names.grouping,
				`values must be from ${GROUPINGS.join(', ')}`,
				itemIndex,
				group,
			);
		}
	}
	if (query.currency_code && !(CURRENCIES as readonly string[]).includes(query.currency_code)) {
		throw invalidInput(
			node,
			names.currency,
			`must be one of ${CURRENCIES.join(', ')}`,
			itemIndex,
			query.currency_code,
		);
	}
	if (query.order_by && !ORDERS.includes(query.order_by)) {
		throw invalidInput(
			node,
			names.order,
			`must be one of ${ORDERS.map((order) => `"${order}"`).join(', ')}`,
			itemIndex,
			query.order_by,
		);
	}
	if (bounds.fromMs > bounds.toMs) {
		throw invalidInput(
			node,
			names.from,
			`must not be after ${names.to} (${query.period_to})`,
			itemIndex,
			query.period_from,
		);
	}
	// Fine units: the API holds only the last 5 days and takes at most 2 days a request.
	if (FINE_UNITS.has(query.period_grouping_unit)) {
		const span = bounds.toMs - bounds.fromMs;
		if (span > FINE_UNIT_MAX_SPAN_DAYS * DAY_MS) {
			throw invalidInput(
				node,
				names.from,
				`with the unit "${query.period_grouping_unit}" the period may span at most ${FINE_UNIT_MAX_SPAN_DAYS} days; this one spans ${(span / DAY_MS).toFixed(1)} days: shorten the period or use the unit day`,
				itemIndex,
			);
		}
		const oldest = bounds.now.getTime() - FINE_UNIT_HISTORY_DAYS * DAY_MS;
		if (bounds.fromMs < oldest) {
			throw invalidInput(
				node,
				names.from,
				`with the unit "${query.period_grouping_unit}" data exists only for the last ${FINE_UNIT_HISTORY_DAYS} days, so it must not be before ${new Date(oldest).toISOString()}`,
				itemIndex,
				query.period_from,
			);
		}
	}
}
