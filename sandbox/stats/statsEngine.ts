import type { Ad } from '../data/model';
import type { SandboxReader } from '../data/reader';
import { SLOT_MS } from '../metrics/time';
import { aggregate, type Bucket } from './aggregate';
import { rowKeys, STATS_COLUMNS_JSON, type Grouping } from './statsColumns';
import { queryWindow, type StatsQuery } from './statsQuery';
import { StatsRowWriter } from './statsRow';

/**
 * A whole result, encoded once: every row's JSON in one buffer, separated by commas, so a page is
 * a zero-copy slice between two offsets.
 */
interface StatsResult {
	count: number;
	bytes: Buffer;
	/** Byte offset of each row's start; offsets[count] is the end of the buffer plus one separator. */
	offsets: Float64Array;
}

/** Results kept for paging (a pull cut into periods pages through one per period); bounded by count and by size, the newest always kept. */
const CACHE_ENTRIES = 64;
const CACHE_BYTES = 300_000_000;

function groupKeyOf(grouping: readonly Grouping[]): (ad: Ad) => string {
	const parts = grouping.map((g): ((ad: Ad) => string | number) => {
		switch (g) {
			case 'cabinet':
				return (ad) => ad.accountId;
			case 'campaign':
				return (ad) => ad.campaignId;
			case 'ad_object':
				return (ad) => ad.adObject;
			case 'ad':
				return (ad) => ad.id;
		}
	});
	return (ad) => parts.map((part) => part(ad)).join('\u0000');
}

function compareText(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

/** Rows within a period are ordered by the grouping keys: cabinet, campaign, ad object, ad. */
function compareGroupsBy(grouping: readonly Grouping[]): (a: Ad, b: Ad) => number {
	return (a, b) => {
		for (const g of grouping) {
			const diff =
				g === 'cabinet'
					? compareText(a.accountId, b.accountId)
					: g === 'campaign'
						? a.campaignId - b.campaignId
						: g === 'ad_object'
							? compareText(a.adObject, b.adObject)
							: a.id - b.id;
			if (diff !== 0) return diff;
		}
		return 0;
	};
}

/** The ordered buckets of a query at an instant, and the writer that turns them into rows. */
function statsBuckets(
	data: SandboxReader,
	query: StatsQuery,
	asOfMs: number,
): { buckets: Bucket[]; writer: StatsRowWriter } {
	const { fromMs, toMs } = queryWindow(query);
	const cabinets = query.platform_cabinet_ids ? new Set(query.platform_cabinet_ids) : null;
	const objects = query.ad_objects ? new Set(query.ad_objects) : null;
	const ads = data.ads.filter(
		(ad) =>
			data.cabinet(ad.accountId)?.permitted === true &&
			(!cabinets || cabinets.has(ad.accountId)) &&
			(!objects || objects.has(ad.adObject)),
	);
	const buckets = aggregate(data.metrics, {
		unit: query.period_grouping_unit,
		fromMs,
		toMs,
		asOfMs,
		ads,
		currencyOf: (ad) => data.cabinet(ad.accountId)?.currency ?? 'EUR',
		target: query.currency_code,
		groupKey: groupKeyOf(query.grouping),
		compareGroups: compareGroupsBy(query.grouping),
		descending: query.order_by === '-period',
		zone: data.bucketZone,
	});
	return {
		buckets,
		writer: new StatsRowWriter(data, rowKeys(query.grouping), query.currency_code, data.bucketZone),
	};
}

/** Ground truth: every row of a query at an instant, as objects. */
export function computeStatsRows(
	data: SandboxReader,
	query: StatsQuery,
	asOfMs: number,
): Record<string, unknown>[] {
	const { buckets, writer } = statsBuckets(data, query, asOfMs);
	const { bytes } = writer.encode(buckets);
	const rows = bytes.length === 0 ? '' : bytes.toString('utf8', 0, bytes.length - 1);
	return JSON.parse(`[${rows}]`) as Record<string, unknown>[];
}

const PAGE_HEAD = Buffer.from(`{"columns":${STATS_COLUMNS_JSON},"rows":[`);
const EMPTY = Buffer.alloc(0);

/** Caches whole results by (query, completed 5-minute slot, data version); pages are slices. */
export class StatsEngine {
	private readonly cache = new Map<string, StatsResult>();

	constructor(private readonly data: SandboxReader) {}

	result(query: StatsQuery, asOfMs: number): StatsResult {
		const key = `${JSON.stringify({ ...query, limit: 0 })}|${Math.floor(asOfMs / SLOT_MS)}|${this.data.version}|${this.data.bucketZone.name}`;
		const cached = this.cache.get(key);
		if (cached) {
			this.cache.delete(key);
			this.cache.set(key, cached);
			return cached;
		}
		const { buckets, writer } = statsBuckets(this.data, query, asOfMs);
		const result: StatsResult = { count: buckets.length, ...writer.encode(buckets) };
		this.cache.set(key, result);
		this.evict();
		return result;
	}

	private evict(): void {
		let bytes = 0;
		for (const entry of this.cache.values()) bytes += entry.bytes.length;
		while (this.cache.size > 1 && (this.cache.size > CACHE_ENTRIES || bytes > CACHE_BYTES)) {
			const oldest = this.cache.keys().next().value as string;
			bytes -= (this.cache.get(oldest) as StatsResult).bytes.length;
			this.cache.delete(oldest);
		}
	}

	/** One page of the statistics response (columns, rows, count, cursor), as buffers in order. */
	pageChunks(result: StatsResult, offset: number, limit: number, cursor: string | null): Buffer[] {
		const first = Math.min(offset, result.count);
		const last = Math.min(result.count, offset + limit);
		// The slice ends before the separator that follows its last row.
		const rows =
			last > first ? result.bytes.subarray(result.offsets[first], result.offsets[last] - 1) : EMPTY;
		return [
			PAGE_HEAD,
			rows,
			Buffer.from(`],"count":${result.count},"cursor":${JSON.stringify(cursor)}}`),
		];
	}
}
