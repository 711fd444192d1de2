import type { IDataObject } from 'n8n-workflow';
import type { RequestContext } from '../transport/request';
import { BucketClock } from './buckets';
import { checkStatsQuery, type StatsQuery } from './query';
import { FINE_UNIT_MAX_SPAN_DAYS, FINE_UNITS, type PeriodUnit } from './apiValues';
import { fetchStats, type StatsFetch } from './fetch';

const DAY_MS = 86_400_000;

interface StatsWindow {
	fromMs: number;
	toMs: number;
	/** The clock the window is checked against (rules on how far back fine units reach). */
	now: Date;
}

/**
 * All rows of [fromMs, toMs) for one query, however long the window: a unit that may span at most
 * two days per request (the fine units: docs/api-rules.md#statistics) is fetched in pieces, each checked like a query of its
 * own. Each piece ends where one of the API's own periods starts (learned from the first piece's
 * period_date values), so no period is split between two pieces. Used by the trigger.
 */
export async function fetchStatsWindow(
	this: RequestContext,
	base: StatsQuery,
	window: StatsWindow,
	options: Omit<StatsFetch, 'onRows' | 'maxRows'> = {},
): Promise<IDataObject[]> {
	const node = this.getNode();
	const unit = base.period_grouping_unit as PeriodUnit;
	const { toMs } = window;
	const rows: IDataObject[] = [];
	const step = FINE_UNITS.has(unit) ? FINE_UNIT_MAX_SPAN_DAYS * DAY_MS : Infinity;
	let clock: BucketClock | undefined;
	for (let from = window.fromMs; from < toMs;) {
		let to = Math.min(toMs, from + step);
		if (to < toMs && clock && clock.floor(to) > from) to = clock.floor(to);
		const query: StatsQuery = {
			...base,
			period_from: new Date(from).toISOString(),
			// A piece ends just before the next one starts.
			period_to: new Date(to < toMs ? to - 1 : to).toISOString(),
		};
		checkStatsQuery(
			node,
			query,
			{ fromMs: from, toMs: to, now: window.now },
			options.itemIndex ?? 0,
		);
		const piece: IDataObject[] = [];
		await fetchStats.call(this, query, {
			...options,
			onRows: (page) => {
				for (const row of page) piece.push(row);
			},
		});
		if (to < toMs && !clock) {
			clock = BucketClock.learn(unit, new Set(piece.map((row) => row.period_date)));
			const cut = clock?.floor(to);
			if (cut !== undefined && cut > from && cut < to) {
				// The period holding the piece's end goes whole into the next piece.
				for (const row of piece) if (Date.parse(String(row.period_date)) < cut) rows.push(row);
				from = cut;
				continue;
			}
		}
		for (const row of piece) rows.push(row);
		from = to;
	}
	return rows;
}
