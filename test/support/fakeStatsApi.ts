/**
 * A small statistics API in memory for the unit tests of the statistics pull (fetchStats) and the
 * trigger's window (fetchStatsWindow): periods of a unit in an offset, cursor paging, quirks.
 */
import type { IDataObject } from 'n8n-workflow';
import { fetchStats, type StatsFetch, type StatsPage } from '../../nodes/shared/stats/fetch';
import type { StatsQuery } from '../../nodes/shared/stats/query';
import { fakeContext, fullResponse, httpError } from './fakeContext';

export const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export interface Dataset {
	unit: 'hour' | 'day';
	/** The offset the API's periods start in and its period_date values are written in. */
	offsetMinutes: number;
	campaigns: number[];
	/** Data exists in slots of this length from fromMs (inclusive) to toMs (exclusive). */
	slotMs: number;
	fromMs: number;
	toMs: number;
}

interface Quirks {
	/** A server that reads period_from as a date only (so a part comes back with rows before it). */
	fromAsDate?: boolean;
	/** A count that differs from the rows the query really has. */
	countOffBy?: number;
	/** An answer without `count`. */
	noCount?: boolean;
	/** period_date written without an offset. */
	noOffset?: boolean;
	/** Refuses the first request of a query for which this is true. */
	refuse?: (body: IDataObject) => boolean;
}

const mod = (a: number, b: number) => ((a % b) + b) % b;

function formatIn(ms: number, offsetMinutes: number, withOffset = true): string {
	const wall = new Date(ms + offsetMinutes * MINUTE).toISOString().slice(0, 19);
	if (!withOffset) return wall;
	if (offsetMinutes === 0) return `${wall}Z`;
	const abs = Math.abs(offsetMinutes);
	const sign = offsetMinutes < 0 ? '-' : '+';
	return `${wall}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * A small statistics API: data in slots, aggregated into periods of the unit in the API's
 * offset. A period is in a query's answer when one of its slots starts in [period_from,
 * period_to], so a query that starts or ends inside a period gets only part of it (as the API
 * does). It pages by cursor and keeps the fine-unit rule of at most 2 days per request.
 */
export class FakeStatsApi {
	readonly bodies: IDataObject[] = [];
	inFlight = 0;
	mostInFlight = 0;
	private readonly cursors = new Map<
		string,
		{ rows: IDataObject[]; offset: number; limit: number }
	>();
	private cursorCount = 0;

	constructor(
		private readonly data: Dataset,
		private readonly quirks: Quirks = {},
	) {}

	/** Every row of a query, in its order, as one answer without paging. */
	rowsFor(query: IDataObject): IDataObject[] {
		const { unit, offsetMinutes, campaigns, slotMs } = this.data;
		let from = Date.parse(String(query.period_from));
		const to = Date.parse(String(query.period_to));
		if (this.quirks.fromAsDate) from = Math.floor(from / DAY) * DAY;
		const step = unit === 'hour' ? HOUR : DAY;
		const sums = new Map<number, number>();
		for (let slot = this.data.fromMs; slot < this.data.toMs; slot += slotMs) {
			if (slot < from || slot > to) continue;
			const period = slot - mod(slot + offsetMinutes * MINUTE, step);
			// Each slot weighs differently, so a period cut short has a different total.
			sums.set(period, (sums.get(period) ?? 0) + 1 + ((slot / slotMs) % 7));
		}
		const periods = [...sums.keys()].sort((a, b) => (query.order_by === '-period' ? b - a : a - b));
		return periods.flatMap((period) =>
			campaigns.map((campaign) => ({
				period_date: formatIn(period, offsetMinutes, !this.quirks.noOffset),
				campaign_id: campaign,
				views: (sums.get(period) as number) * campaign,
			})),
		);
	}

	page(body: IDataObject): StatsPage {
		this.bodies.push(body);
		let state;
		if (typeof body.cursor === 'string') {
			state = this.cursors.get(body.cursor);
			if (!state) throw httpError(400, { detail: 'unknown cursor' });
		} else {
			if (this.quirks.refuse?.(body)) throw httpError(400, { detail: 'refused for the test' });
			const span = Date.parse(String(body.period_to)) - Date.parse(String(body.period_from));
			if (this.data.unit === 'hour' && span > 2 * DAY)
				throw httpError(400, { detail: 'at most 2 days' });
			state = { rows: this.rowsFor(body), offset: 0, limit: Number(body.limit ?? 500) };
		}
		const rows = state.rows.slice(state.offset, state.offset + state.limit);
		const offset = state.offset + rows.length;
		let cursor: string | null = null;
		if (offset < state.rows.length) {
			cursor = `c${++this.cursorCount}`;
			this.cursors.set(cursor, { ...state, offset });
		}
		return {
			columns: [{ name: 'period_date' }, { name: 'campaign_id' }, { name: 'views' }],
			rows,
			...(this.quirks.noCount ? {} : { count: state.rows.length + (this.quirks.countOffBy ?? 0) }),
			cursor,
		};
	}

	/** A context whose request helper asks this API, one event-loop turn per answer. */
	context() {
		return fakeContext(async (options) => {
			const body = JSON.parse(String(options.body)) as IDataObject;
			this.inFlight++;
			this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
			try {
				await new Promise((resolve) => setImmediate(resolve));
				return fullResponse(this.page(body));
			} finally {
				this.inFlight--;
			}
		});
	}

	/** The first requests of each query (not a cursor continuation). */
	queries(): IDataObject[] {
		return this.bodies.filter((body) => body.cursor === undefined);
	}
}

/** Runs fetchStats and collects what it hands on. */
export async function pull(
	api: FakeStatsApi,
	query: StatsQuery,
	options: Omit<StatsFetch, 'onRows'> = {},
) {
	const fake = api.context();
	const rows: IDataObject[] = [];
	const pages: StatsPage[] = [];
	const result = await fetchStats.call(fake.ctx, query, {
		...options,
		onRows: (out, page) => {
			rows.push(...out);
			pages.push(page);
		},
	});
	return { rows, pages, result, fake };
}

export const NOV_1 = Date.parse('2026-11-01T00:00:00+03:00');

/** 30 days of daily periods in +03:00, three campaigns: 90 rows. */
export function monthOfDays(quirks: Quirks = {}): FakeStatsApi {
	return new FakeStatsApi(
		{
			unit: 'day',
			offsetMinutes: 180,
			campaigns: [1, 2, 3],
			slotMs: 6 * HOUR,
			fromMs: NOV_1,
			toMs: NOV_1 + 30 * DAY,
		},
		quirks,
	);
}

export const monthQuery: StatsQuery = {
	period_from: '2026-11-01T00:00:00+03:00',
	period_to: '2026-11-30T23:59:59+03:00',
	period_grouping_unit: 'day',
	grouping: ['campaign'],
	currency_code: 'EUR',
	order_by: 'period',
};
