import { ACTIONS, CLICKS, SPEND, VIEWS } from '../metrics/metricSource';
import { SLOT_MS } from '../metrics/time';
import { convertMinor } from './currencies';
import { ratioNumber, round2 } from './format';
import type { Ad, Cabinet, Campaign } from './model';
import type { SandboxData } from './sandboxData';

/**
 * The real service's cabinet list, campaigns and balances, worked out from the same ads and
 * statistics as everything else.
 *
 * Money of a cabinet, in hundredths of its currency:
 * - spent: everything its ads delivered up to now;
 * - active: what its running ads may still spend (budget less spend, per ad), at most the total;
 * - total: the deposit less what was spent;
 * - available: total less active, the free balance.
 * The deposit is chosen so that at the initial clock instant `available` is the cabinet's
 * `availableAtStart`; later spend lowers total and active (and available too, once an ad has spent
 * its whole budget), and a new ad's budget moves from available to active.
 */
interface CabinetMoney {
	spent: number;
	active: number;
	available: number;
	total: number;
}

function isRunning(ad: Ad, ms: number): boolean {
	return ad.status === 'active' && (ad.runUntil === null || ad.runUntil > ms);
}

function spentUntil(data: SandboxData, ad: Ad, ms: number): number {
	return data.metricsBetween(ad, Number.NEGATIVE_INFINITY, ms, ms)[SPEND];
}

function remaining(data: SandboxData, ad: Ad, ms: number): number {
	return Math.max(0, ad.fields.budget * 100 - spentUntil(data, ad, ms));
}

/** Caches, dropped when ads change (version) or the clock enters another 5-minute slot. */
const deposits = new WeakMap<SandboxData, Map<Cabinet, number>>();
const moneyCache = new WeakMap<
	SandboxData,
	{ key: string; byCabinet: Map<Cabinet, CabinetMoney> }
>();

function deposit(data: SandboxData, cabinet: Cabinet): number {
	let known = deposits.get(data);
	if (!known) deposits.set(data, (known = new Map()));
	const cached = known.get(cabinet);
	if (cached !== undefined) return cached;
	const anchor = data.anchorMs;
	let total = Math.round(cabinet.availableAtStart * 100);
	for (const ad of data.ads.slice(0, data.seededAdCount)) {
		if (ad.accountId !== cabinet.account_id) continue;
		total += spentUntil(data, ad, anchor);
		if (isRunning(ad, anchor)) total += remaining(data, ad, anchor);
	}
	known.set(cabinet, total);
	return total;
}

/** A cabinet's money now, in hundredths of its currency. */
export function cabinetMoney(data: SandboxData, cabinet: Cabinet): CabinetMoney {
	const now = data.nowMs();
	const key = `${data.version}|${Math.floor(now / SLOT_MS)}`;
	let cache = moneyCache.get(data);
	if (!cache || cache.key !== key) {
		cache = { key, byCabinet: new Map() };
		moneyCache.set(data, cache);
	}
	const cached = cache.byCabinet.get(cabinet);
	if (cached) return cached;
	let spent = 0;
	let reserved = 0;
	for (const ad of data.ads) {
		if (ad.accountId !== cabinet.account_id) continue;
		spent += spentUntil(data, ad, now);
		if (isRunning(ad, now)) reserved += remaining(data, ad, now);
	}
	const total = Math.max(0, deposit(data, cabinet) - spent);
	const active = Math.min(total, reserved);
	const money = { spent, active, available: total - active, total };
	cache.byCabinet.set(cabinet, money);
	return money;
}

/** The cabinets the user may see: the token's own (the cabinet without rights is not listed). */
export function visibleCabinets(data: SandboxData): Cabinet[] {
	return data.cabinets
		.filter((c) => c.permitted)
		.sort((a, b) => (a.account_id < b.account_id ? -1 : 1));
}

function adsOf(data: SandboxData, accountId: string): Ad[] {
	return data.ads.filter((ad) => ad.accountId === accountId && ad.createdAt <= data.nowMs());
}

/** Cabinet names (and one cabinet): `{account_uid, name, balance, mode, is_audience_allowed}`. */
export function cabinetName(data: SandboxData, cabinet: Cabinet): Record<string, unknown> {
	return {
		account_uid: cabinet.account_id,
		name: cabinet.name,
		// The free balance: what the cabinet can still put into ads.
		balance: round2(cabinetMoney(data, cabinet).available / 100),
		mode: 'standard',
		is_audience_allowed: cabinet.geolocation === 'UZ',
	};
}

/** An item of the detailed cabinet list. */
export function cabinetListItem(data: SandboxData, cabinet: Cabinet): Record<string, unknown> {
	const money = cabinetMoney(data, cabinet);
	const ads = adsOf(data, cabinet.account_id);
	return {
		account_id: cabinet.account_id,
		account_name: cabinet.name,
		status: ads.some((ad) => isRunning(ad, data.nowMs())) ? 'active' : 'inactive',
		balance_total: round2(money.total / 100),
		balance_available: round2(money.available / 100),
		balance_active: round2(money.active / 100),
		balance_spent: round2(money.spent / 100),
		objects: [
			...new Set(ads.filter((ad) => ad.status !== 'deleted').map((ad) => ad.adObject)),
		].sort(),
		legal_name: cabinet.legalName,
		category_key: cabinet.categoryKey,
		category_name: cabinet.categoryName,
	};
}

/** A campaign with its figures over [fromMs, toMs), money in its cabinet's currency. */
export function campaignItem(
	data: SandboxData,
	campaign: Campaign,
	fromMs: number,
	toMs: number,
): Record<string, unknown> {
	const ads = adsOf(data, campaign.account_id).filter(
		(ad) => ad.campaignId === campaign.id && ad.status !== 'deleted',
	);
	const deliveredBy = data.ads.filter((ad) => ad.campaignId === campaign.id);
	const totals = [0, 0, 0, 0, 0];
	for (const ad of deliveredBy) {
		const m = data.metricsBetween(ad, fromMs, toMs);
		for (let i = 0; i < totals.length; i++) totals[i] += m[i];
	}
	const spent = round2(totals[SPEND] / 100);
	return {
		id: campaign.id,
		name: campaign.name,
		description: campaign.description,
		account_id: campaign.account_id,
		account_name: data.cabinet(campaign.account_id)?.name ?? '',
		status: ads.some((ad) => isRunning(ad, data.nowMs())) ? 'active' : 'not_active',
		number_of_advertisements: ads.length,
		goals: totals[ACTIONS],
		impressions: totals[VIEWS],
		budget: round2(ads.reduce((sum, ad) => sum + ad.fields.budget, 0)),
		cps: ratioNumber(spent, totals[ACTIONS]),
		cpm: ratioNumber(spent, totals[VIEWS], 1000),
		ctr: ratioNumber(totals[CLICKS], totals[VIEWS], 100),
		cpc: ratioNumber(spent, totals[CLICKS]),
		clicks: totals[CLICKS],
		spent,
	};
}

/** The dashboard: every visible cabinet's money, in EUR. */
export function dashboardBalances(data: SandboxData): Record<string, unknown> {
	const sums = { active: 0, available: 0 };
	for (const cabinet of visibleCabinets(data)) {
		const money = cabinetMoney(data, cabinet);
		for (const key of ['active', 'available'] as const)
			sums[key] += convertMinor(money[key], cabinet.currency, 'EUR');
	}
	const active = round2(sums.active / 100);
	const available = round2(sums.available / 100);
	return {
		active: { amount: active, currency: 'EUR' },
		available: { amount: available, currency: 'EUR' },
		total: { amount: round2(active + available), currency: 'EUR' },
	};
}
