import { avalanche, fraction, hash32 } from '../random';
import { DAY_MS, SLOT_MS, SLOTS_PER_DAY } from './time';

/**
 * Restatements: ad platforms keep correcting recent figures for days after the fact (late clicks,
 * refunds, fraud filtering). The unit of a restatement is one ad's figures of one UTC day; every
 * row that sums that ad-day (any grouping, any period unit) changes with it.
 *
 * - By default a share of campaign-days (`percent`) is restated once, at a moment drawn between
 *   the day's end and `withinDays` after it: every ad of that campaign, that day. Drawn from the
 *   seed, so the same seed restates the same campaign-days at the same moments.
 * - Only restatements that fall after the sandbox's initial clock instant take effect: what was
 *   served at the start stays as it was, and a later look shows the change.
 * - A forced restatement (`force`) takes effect at the clock's now, for a campaign's or one ad's day;
 *   forcing the same day again restates it again.
 *
 * A restated ad-day has every hour scaled by a factor drawn from the seed (between 0.85 and 0.98
 * or 1.02 and 1.08, a different one for each restatement of it) and rounded away from the original,
 * so every figure that was not 0 changes, clicks never exceed views, and hours, slots and days
 * still add up.
 */
export interface RestatementSettings {
	/** Share of campaign-days restated, in per cent; 0 turns the default restatements off. */
	percent: number;
	/** How long after a day ends its restatement may come, in days. */
	withinDays: number;
}

export const DEFAULT_RESTATEMENTS: RestatementSettings = { percent: 3, withinDays: 3 };
export const NO_RESTATEMENTS: RestatementSettings = { percent: 0, withinDays: 3 };

export interface RestatementEvent {
	day: string;
	atMs: number;
	campaignId?: number;
	adId?: number;
	source: 'default' | 'forced';
}

const USAGE =
	'must be "off" or "<percent>%/<days>d" such as "3%/3d" (a share of campaign-days from 0 to 100, restated within that many days after the day ends)';

/** `"3%/3d"`, `"off"`, `{percent, withinDays}` or null (off). Throws with the rule otherwise. */
export function parseRestatements(value: unknown): RestatementSettings {
	if (value === null || value === 'off') return { ...NO_RESTATEMENTS };
	let percent: number;
	let withinDays: number;
	if (typeof value === 'string') {
		const match = /^\s*(\d+(?:\.\d+)?)\s*%\s*\/\s*(\d+(?:\.\d+)?)\s*d\s*$/.exec(value);
		if (!match) throw new Error(`restatements ${USAGE}, got ${JSON.stringify(value)}`);
		percent = Number(match[1]);
		withinDays = Number(match[2]);
	} else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
		percent = (value as Record<string, unknown>).percent as number;
		withinDays = (value as Record<string, unknown>).withinDays as number;
	} else {
		throw new Error(`restatements ${USAGE}, got ${JSON.stringify(value)}`);
	}
	if (
		typeof percent !== 'number' ||
		!(percent >= 0 && percent <= 100) ||
		typeof withinDays !== 'number' ||
		!(withinDays > 0) ||
		!Number.isFinite(withinDays)
	)
		throw new Error(`restatements ${USAGE}, got ${JSON.stringify(value)}`);
	return { percent, withinDays };
}

export function formatRestatements(settings: RestatementSettings): string {
	return settings.percent > 0 ? `${settings.percent}%/${settings.withinDays}d` : 'off';
}

function dayName(day: number): string {
	return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

function addTime(map: Map<string, number[]>, key: string, atMs: number): void {
	const times = map.get(key);
	if (times) times.push(atMs);
	else map.set(key, [atMs]);
}

function countUpTo(times: number[] | undefined, asOfMs: number): number {
	if (!times) return 0;
	let n = 0;
	for (const t of times) if (t <= asOfMs) n += 1;
	return n;
}

export class Restatements {
	private settingsValue: RestatementSettings;
	private readonly forcedByCampaign = new Map<string, number[]>();
	private readonly forcedByAd = new Map<string, number[]>();
	private readonly forcedEvents: RestatementEvent[] = [];

	constructor(
		private readonly seed: number,
		/** Restatements drawn for moments up to this instant count as already made. */
		private readonly anchorMs: number,
		private readonly campaignOf: (adId: number) => number | undefined,
		settings: RestatementSettings,
	) {
		this.settingsValue = { ...settings };
	}

	get settings(): RestatementSettings {
		return { ...this.settingsValue };
	}

	set(settings: RestatementSettings): void {
		this.settingsValue = { ...settings };
	}

	/** False when nothing can be restated: the metric source then skips every lookup. */
	get active(): boolean {
		return this.settingsValue.percent > 0 || this.forcedEvents.length > 0;
	}

	/** When a campaign-day is restated by default, or null when it is not. */
	defaultMoment(campaignId: number, day: number): number | null {
		const { percent, withinDays } = this.settingsValue;
		if (percent <= 0) return null;
		const h = hash32(this.seed, campaignId, day, 0x7e57a7e);
		if (fraction(h) * 100 >= percent) return null;
		// Strictly after the day's end and at most withinDays later, on a 5-minute boundary (the
		// statistics endpoint caches a result for the 5-minute slot of its clock).
		const slots = Math.ceil((1 - fraction(avalanche(h))) * withinDays * SLOTS_PER_DAY);
		const delayMs = Math.max(1, slots) * SLOT_MS;
		return (day + 1) * DAY_MS + delayMs;
	}

	/** Restates a campaign's or one ad's figures of a UTC day, effective from `atMs`. */
	force(target: { day: number; campaignId?: number; adId?: number }, atMs: number): void {
		if (target.adId !== undefined) addTime(this.forcedByAd, `${target.adId}:${target.day}`, atMs);
		else if (target.campaignId !== undefined)
			addTime(this.forcedByCampaign, `${target.campaignId}:${target.day}`, atMs);
		else throw new Error('a restatement needs a campaign or an ad');
		this.forcedEvents.push({
			day: dayName(target.day),
			atMs,
			campaignId: target.campaignId,
			adId: target.adId,
			source: 'forced',
		});
	}

	/** 1 when the ad's figures of that UTC day are as first served, as of `asOfMs`; else their factor. */
	factor(adId: number, day: number, asOfMs: number): number {
		const campaignId = this.campaignOf(adId);
		let version = 0;
		if (campaignId !== undefined) {
			const moment = this.defaultMoment(campaignId, day);
			if (moment !== null && moment > this.anchorMs && moment <= asOfMs) version += 1;
			if (this.forcedByCampaign.size > 0)
				version += countUpTo(this.forcedByCampaign.get(`${campaignId}:${day}`), asOfMs);
		}
		if (this.forcedByAd.size > 0)
			version += countUpTo(this.forcedByAd.get(`${adId}:${day}`), asOfMs);
		if (version === 0) return 1;
		const u = fraction(hash32(this.seed, adId, day, 0x5ca1e + version));
		return u < 0.5 ? 0.85 + 0.26 * u : 1.02 + 0.12 * (u - 0.5);
	}

	/**
	 * The restatements that took effect after the initial clock instant and up to `asOfMs`, for
	 * the given campaigns, oldest first.
	 */
	events(campaignIds: readonly number[], asOfMs: number): RestatementEvent[] {
		const out: RestatementEvent[] = [];
		const firstDay =
			Math.floor(this.anchorMs / DAY_MS) - Math.ceil(this.settingsValue.withinDays) - 1;
		const lastDay = Math.floor(asOfMs / DAY_MS);
		for (let day = firstDay; day <= lastDay; day++) {
			for (const campaignId of campaignIds) {
				const moment = this.defaultMoment(campaignId, day);
				if (moment !== null && moment > this.anchorMs && moment <= asOfMs)
					out.push({ day: dayName(day), atMs: moment, campaignId, source: 'default' });
			}
		}
		for (const event of this.forcedEvents) if (event.atMs <= asOfMs) out.push({ ...event });
		return out.sort((a, b) => a.atMs - b.atMs);
	}
}
