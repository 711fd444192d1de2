import { convertMinor, currencyIndex, type Currency } from '../data/currencies';
import type { Ad } from '../data/model';
import {
	ACTIONS,
	CLICKS,
	METRIC_COUNT,
	MetricSource,
	OPENS,
	SPEND,
	VIEWS,
} from '../metrics/metricSource';
import {
	SLOT_MS,
	UTC_ZONE,
	zonedPeriodEnd,
	zonedPeriodStart,
	type BucketZone,
	type PeriodUnit,
} from '../metrics/time';

/** Local bindings: global lookups are slow inside vm contexts (jest), and these run per slot. */
const { ceil, floor, max, min } = Math;

export interface Bucket {
	periodStart: number;
	/** The first ad that fell into the bucket: its cabinet/campaign/object/ad describe the group. */
	ad: Ad;
	/** Position of the bucket's group in the caller's group order (for sorting within a period). */
	rank: number;
	views: number;
	clicks: number;
	actions: number;
	opens: number;
	/** Spend in hundredths of the cabinet currency; meaningful when currencyMask has one bit. */
	original: number;
	/** Spend in hundredths of the target currency, unrounded. */
	exchanged: number;
	/** Bit per CURRENCIES index of the cabinets that contributed. */
	currencyMask: number;
}

interface AggregateSpec {
	unit: PeriodUnit;
	/** Inclusive start and end of the requested window, and the clock instant; only complete slots count. */
	fromMs: number;
	toMs: number;
	asOfMs: number;
	ads: readonly Ad[];
	currencyOf: (ad: Ad) => Currency;
	/** Currency spend is converted to (the body's currency_code). */
	target: Currency;
	groupKey: (ad: Ad) => string;
	/** Orders two groups by their first ads; buckets are sorted by period, then by this. */
	compareGroups: (a: Ad, b: Ad) => number;
	descending: boolean;
	/** The zone periods start by (local midnight for days); UTC by default. */
	zone?: BucketZone;
}

/** First 5-minute slot index at or after `runUntil`: the ad delivers in slots below it. */
export function slotsUntil(runUntil: number | null): number {
	return runUntil === null ? Number.POSITIVE_INFINITY : floor(runUntil / SLOT_MS);
}

interface Group {
	ad: Ad;
	buckets: Bucket[];
	byPeriod: Map<number, Bucket>;
}

/**
 * Sums the underlying slots of every ad into (period, group) buckets, sorted by period and then by
 * group. A slot counts when it starts inside [fromMs, toMs], lies inside the ad's delivery window
 * and ended at or before asOfMs. Buckets with no views are dropped.
 */
export function aggregate(metrics: MetricSource, spec: AggregateSpec): Bucket[] {
	const fromSlot = floor(spec.fromMs / SLOT_MS);
	const toSlot = min(floor(spec.toMs / SLOT_MS) + 1, floor(spec.asOfMs / SLOT_MS));
	const groups = new Map<string, Group>();
	const acc = new Float64Array(METRIC_COUNT);
	const zone = spec.zone ?? UTC_ZONE;
	for (const ad of spec.ads) {
		const lo = max(fromSlot, ceil(ad.runFrom / SLOT_MS));
		const hi = min(toSlot, slotsUntil(ad.runUntil));
		if (lo >= hi) continue;
		const key = spec.groupKey(ad);
		let group = groups.get(key);
		const adCurrency = spec.currencyOf(ad);
		const currency = currencyIndex(adCurrency);
		const rate = convertMinor(1, adCurrency, spec.target);
		let start = zonedPeriodStart(spec.unit, lo * SLOT_MS, zone);
		while (start < hi * SLOT_MS) {
			const end = zonedPeriodEnd(spec.unit, start, zone);
			acc.fill(0);
			metrics.addRange(
				ad.profile,
				max(lo, start / SLOT_MS),
				min(hi, end / SLOT_MS),
				acc,
				spec.asOfMs,
			);
			if (acc[VIEWS] > 0) {
				if (!group) {
					group = { ad, buckets: [], byPeriod: new Map() };
					groups.set(key, group);
				}
				const bucket = group.byPeriod.get(start);
				if (bucket) {
					bucket.views += acc[VIEWS];
					bucket.clicks += acc[CLICKS];
					bucket.actions += acc[ACTIONS];
					bucket.opens += acc[OPENS];
					bucket.original += acc[SPEND];
					bucket.exchanged += acc[SPEND] * rate;
					bucket.currencyMask |= 1 << currency;
				} else {
					// Fields start from the first contribution (not 0) so they never change representation.
					const created: Bucket = {
						periodStart: start,
						ad: group.ad,
						rank: 0,
						views: acc[VIEWS],
						clicks: acc[CLICKS],
						actions: acc[ACTIONS],
						opens: acc[OPENS],
						original: acc[SPEND],
						exchanged: acc[SPEND] * rate,
						currencyMask: 1 << currency,
					};
					group.byPeriod.set(start, created);
					group.buckets.push(created);
				}
			}
			start = end;
		}
	}
	const ordered = [...groups.values()].sort((a, b) => spec.compareGroups(a.ad, b.ad));
	const buckets: Bucket[] = [];
	ordered.forEach((group, rank) => {
		for (const bucket of group.buckets) {
			bucket.rank = rank;
			buckets.push(bucket);
		}
	});
	const direction = spec.descending ? -1 : 1;
	return buckets.sort((a, b) => (a.periodStart - b.periodStart) * direction || a.rank - b.rank);
}
