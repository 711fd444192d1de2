import { avalanche, fraction, hash32 } from '../random';
import type { MetricProfile } from './metricProfile';
import { SLOTS_PER_DAY, SLOTS_PER_HOUR } from './time';

/** Which ad-days are restated as of an instant (see restatements.ts). */
interface RestatementSource {
	readonly active: boolean;
	/** 1 for figures as first served; otherwise the factor every hour of that UTC day is scaled by. */
	factor(adId: number, day: number, asOfMs: number): number;
}

/** Local bindings: global lookups are slow inside vm contexts (jest), and these run per slot. */
const { ceil, floor, min, round } = Math;

/** Positions inside a metric vector. Spend is in hundredths of the ad's cabinet currency. */
export const VIEWS = 0;
export const CLICKS = 1;
export const ACTIONS = 2;
export const OPENS = 3;
export const SPEND = 4;
export const METRIC_COUNT = 5;

/** Relative delivery by UTC hour of day (mean about 1). */
const DIURNAL = [
	0.3, 0.2, 0.2, 0.2, 0.3, 0.5, 0.8, 1, 1.2, 1.3, 1.3, 1.3, 1.3, 1.3, 1.2, 1.2, 1.2, 1.3, 1.4, 1.5,
	1.4, 1.1, 0.8, 0.5,
];

function positiveModulo(value: number, modulus: number): number {
	return ((value % modulus) + modulus) % modulus;
}

/**
 * Underlying statistics at 5-minute resolution, computed on demand: each hour from a hash of
 * (seed, ad, hour), each hour split into twelve slots by integer shares so the slots sum exactly
 * to the hour. Whole days are cached per ad, since they depend on nothing that can change.
 */
export class MetricSource {
	private readonly dayCache = new Map<number, number[]>();
	private readonly hourVector = new Float64Array(METRIC_COUNT);
	private readonly slotVectors = new Float64Array(SLOTS_PER_HOUR * METRIC_COUNT);
	private readonly weights = new Float64Array(SLOTS_PER_HOUR);
	private slotsAdId = -1;
	private slotsHour = -1;
	private slotsFactor = 1;
	/** Restatements, when the sandbox has any; null keeps every figure as first served. */
	restatements: RestatementSource | null = null;

	constructor(private readonly seed: number) {}

	/**
	 * Adds slots [lo, hi) (absolute 5-minute indices) of the ad to `acc`, as they stood at `asOfMs`
	 * (restatements made later are not seen); callers clip to window and now.
	 */
	addRange(
		profile: MetricProfile,
		lo: number,
		hi: number,
		acc: Float64Array,
		asOfMs = Number.POSITIVE_INFINITY,
	): void {
		const restatements = this.restatements?.active ? this.restatements : null;
		let slot = lo;
		while (slot < hi) {
			if (restatements) {
				const day = floor(slot / SLOTS_PER_DAY);
				const factor = restatements.factor(profile.adId, day, asOfMs);
				if (factor !== 1) {
					const end = min(hi, (day + 1) * SLOTS_PER_DAY);
					this.addRestated(profile, slot, end, factor, acc);
					slot = end;
					continue;
				}
			}
			if (slot % SLOTS_PER_DAY === 0 && slot + SLOTS_PER_DAY <= hi) {
				addInto(acc, this.day(profile, slot / SLOTS_PER_DAY));
				slot += SLOTS_PER_DAY;
			} else if (slot % SLOTS_PER_HOUR === 0 && slot + SLOTS_PER_HOUR <= hi) {
				this.hour(profile, slot / SLOTS_PER_HOUR, this.hourVector);
				addInto(acc, this.hourVector);
				slot += SLOTS_PER_HOUR;
			} else {
				const hour = floor(slot / SLOTS_PER_HOUR);
				const end = min(hi, (hour + 1) * SLOTS_PER_HOUR);
				const slots = this.slots(profile, hour);
				for (let k = slot - hour * SLOTS_PER_HOUR; k < end - hour * SLOTS_PER_HOUR; k++) {
					for (let m = 0; m < METRIC_COUNT; m++) acc[m] += slots[k * METRIC_COUNT + m];
				}
				slot = end;
			}
		}
	}

	/** Slots [lo, hi) of one UTC day whose hours are scaled by a restatement's factor. */
	private addRestated(
		profile: MetricProfile,
		lo: number,
		hi: number,
		factor: number,
		acc: Float64Array,
	): void {
		let slot = lo;
		while (slot < hi) {
			const hour = floor(slot / SLOTS_PER_HOUR);
			const end = min(hi, (hour + 1) * SLOTS_PER_HOUR);
			if (slot === hour * SLOTS_PER_HOUR && end === (hour + 1) * SLOTS_PER_HOUR) {
				this.hour(profile, hour, this.hourVector);
				scale(this.hourVector, factor);
				addInto(acc, this.hourVector);
			} else {
				const slots = this.slots(profile, hour, factor);
				for (let k = slot - hour * SLOTS_PER_HOUR; k < end - hour * SLOTS_PER_HOUR; k++) {
					for (let m = 0; m < METRIC_COUNT; m++) acc[m] += slots[k * METRIC_COUNT + m];
				}
			}
			slot = end;
		}
	}

	private day(profile: MetricProfile, day: number): number[] {
		const key = profile.adId * 65536 + day;
		let sums = this.dayCache.get(key);
		if (!sums) {
			sums = [0, 0, 0, 0, 0];
			for (let h = 0; h < 24; h++) {
				this.hour(profile, day * 24 + h, this.hourVector);
				addInto(sums, this.hourVector);
			}
			this.dayCache.set(key, sums);
		}
		return sums;
	}

	private hour(profile: MetricProfile, hourIndex: number, out: Float64Array): void {
		out.fill(0);
		if (profile.scheduleMask) {
			const local = hourIndex + profile.tzOffsetHours;
			// Day 0 of the epoch was a Thursday: index 3 when Monday is 0.
			const weekday = positiveModulo(floor(local / 24) + 3, 7);
			if (!profile.scheduleMask[weekday * 24 + positiveModulo(local, 24)]) return;
		}
		const h1 = hash32(this.seed, profile.adId, hourIndex, 1);
		if (h1 % 25 === 0) return;
		const h2 = avalanche(h1 ^ 0x2545f491);
		const h3 = avalanche(h2 ^ 0x2545f491);
		const low = (h: number) => (h & 0xffff) / 65536;
		const high = (h: number) => (h >>> 16) / 65536;
		const views = floor(
			profile.viewsPerHour * DIURNAL[positiveModulo(hourIndex, 24)] * (0.5 + fraction(h1)),
		);
		const clicks = floor(views * profile.ctr * (0.6 + 0.8 * low(h2)));
		out[VIEWS] = views;
		out[CLICKS] = clicks;
		out[ACTIONS] = floor(clicks * profile.cvr * (0.5 + high(h2)));
		out[OPENS] = floor(views * profile.videoRate * (0.7 + 0.6 * low(h3)));
		out[SPEND] = round((views * profile.cpmMinor * (0.85 + 0.15 * high(h3))) / 1000);
	}

	/**
	 * The hour's twelve slots; clicks follow views, actions follow clicks, so no slot has more clicks
	 * than views. The last hour is memoized: sub-hour periods walk one hour slot by slot.
	 */
	private slots(profile: MetricProfile, hourIndex: number, factor = 1): Float64Array {
		const out = this.slotVectors;
		if (
			this.slotsAdId === profile.adId &&
			this.slotsHour === hourIndex &&
			this.slotsFactor === factor
		)
			return out;
		this.slotsAdId = profile.adId;
		this.slotsHour = hourIndex;
		this.slotsFactor = factor;
		out.fill(0);
		this.hour(profile, hourIndex, this.hourVector);
		if (factor !== 1) scale(this.hourVector, factor);
		const views = this.hourVector[VIEWS];
		if (views === 0) return out;
		const clicks = this.hourVector[CLICKS];
		const actions = this.hourVector[ACTIONS];
		const opens = this.hourVector[OPENS];
		const spend = this.hourVector[SPEND];
		const wa = hash32(this.seed, profile.adId, hourIndex, 4);
		const wb = avalanche(wa ^ 0x2545f491);
		let total = 0;
		for (let k = 0; k < SLOTS_PER_HOUR; k++) {
			const bits = k < 8 ? wa >>> (k * 4) : wb >>> ((k - 8) * 4);
			this.weights[k] = 1 + (bits & 15);
			total += this.weights[k];
		}
		let cumWeight = 0;
		let pv = 0;
		let pc = 0;
		let pa = 0;
		let po = 0;
		let ps = 0;
		for (let k = 0; k < SLOTS_PER_HOUR; k++) {
			cumWeight += this.weights[k];
			const v = floor((views * cumWeight) / total);
			const c = floor((clicks * v) / views);
			const a = clicks === 0 ? 0 : floor((actions * c) / clicks);
			const o = floor((opens * v) / views);
			const s = floor((spend * v) / views);
			const at = k * METRIC_COUNT;
			out[at + VIEWS] = v - pv;
			out[at + CLICKS] = c - pc;
			out[at + ACTIONS] = a - pa;
			out[at + OPENS] = o - po;
			out[at + SPEND] = s - ps;
			pv = v;
			pc = c;
			pa = a;
			po = o;
			ps = s;
		}
		return out;
	}
}

/**
 * A restated hour: every figure scaled, rounded away from the original (down when the factor
 * lowers it, up when it raises it), so every figure that was not 0 changes and clicks never exceed
 * views.
 */
function scale(vector: Float64Array, factor: number): void {
	const round = factor < 1 ? floor : ceil;
	for (let m = 0; m < METRIC_COUNT; m++) vector[m] = round(vector[m] * factor);
}

function addInto(acc: Float64Array | number[], add: Float64Array | number[]): void {
	for (let m = 0; m < METRIC_COUNT; m++) acc[m] += add[m];
}
