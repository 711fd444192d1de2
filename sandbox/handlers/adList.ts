import { adListItem } from '../data/adViews';
import { FieldErrors } from '../errors';
import { DAY_MS } from '../metrics/time';
import type { QueryParams } from '../types';
import { json, queryValue, queryValues, type Handler } from './context';

/** The ad list's `limit`: at most 500, 50 when not sent. */
export const AD_LIST_MAX_LIMIT = 500;
export const AD_LIST_DEFAULT_LIMIT = 50;

export const PERIODS = ['today', 'yesterday', 'starts_month', 'all'];
const KNOWN_PARAMS = [
	'show_deleted',
	'period',
	'offset',
	'limit',
	'advertisement_titles',
	'campaign_names',
];

export function integerParam(
	errors: FieldErrors,
	name: string,
	raw: string | undefined,
	fallback: number,
	min: number,
	max: number,
): number {
	if (raw === undefined) return fallback;
	const value = /^-?\d+$/.test(raw) ? Number(raw) : Number.NaN;
	if (!Number.isInteger(value) || value < min || value > max) {
		errors.add(
			name,
			`must be an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`}, got ${JSON.stringify(raw)}`,
		);
		return fallback;
	}
	return value;
}

/** Repeated parameters or comma-separated values; a value matches as a whole or by its comma parts. */
function nameFilter(query: QueryParams, key: string): Set<string> | null {
	const values = queryValues(query, key).filter((v) => v !== '');
	if (values.length === 0) return null;
	const names = new Set<string>();
	for (const value of values) {
		names.add(value);
		for (const part of value.split(',')) if (part.trim() !== '') names.add(part.trim());
	}
	return names;
}

/** Start of the creation-time window of a `period` value (UTC), or null for all. */
export function periodWindow(period: string, nowMs: number): [number, number] | null {
	const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
	switch (period) {
		case 'today':
			return [today, nowMs];
		case 'yesterday':
			return [today - DAY_MS, today - 1];
		case 'starts_month': {
			const d = new Date(nowMs);
			return [Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), nowMs];
		}
		default:
			return null;
	}
}

/** GET {base_url}/api/v2/advertisement/: the ad list, `{ data: [item] }`. */
export const adList: Handler = ({ req, data }) => {
	const errors = new FieldErrors();
	for (const key of Object.keys(req.query)) {
		if (!KNOWN_PARAMS.includes(key))
			errors.add(key, `unknown query parameter; allowed: ${KNOWN_PARAMS.join(', ')}`);
	}
	const period = queryValue(req.query, 'period') ?? 'all';
	if (!PERIODS.includes(period))
		errors.add('period', `must be one of ${PERIODS.join(', ')}, got ${JSON.stringify(period)}`);
	const offset = integerParam(
		errors,
		'offset',
		queryValue(req.query, 'offset'),
		0,
		0,
		Number.MAX_SAFE_INTEGER,
	);
	const limit = integerParam(
		errors,
		'limit',
		queryValue(req.query, 'limit'),
		AD_LIST_DEFAULT_LIMIT,
		1,
		AD_LIST_MAX_LIMIT,
	);
	const showDeletedRaw = (queryValue(req.query, 'show_deleted') ?? 'false').toLowerCase();
	if (!['true', 'false', '1', '0'].includes(showDeletedRaw)) {
		errors.add(
			'show_deleted',
			`must be true, false, 1 or 0, got ${JSON.stringify(showDeletedRaw)}`,
		);
	}
	errors.throwIfAny();
	const showDeleted = showDeletedRaw === 'true' || showDeletedRaw === '1';
	const titles = nameFilter(req.query, 'advertisement_titles');
	const campaignNames = nameFilter(req.query, 'campaign_names');
	const now = data.nowMs();
	const window = periodWindow(period, now);
	const matching = data.ads
		.filter((ad) => {
			if (ad.createdAt > now) return false;
			if (data.cabinet(ad.accountId)?.permitted !== true) return false;
			if (!showDeleted && ad.status === 'deleted') return false;
			if (window && (ad.createdAt < window[0] || ad.createdAt > window[1])) return false;
			if (titles && !titles.has(ad.fields.title)) return false;
			if (campaignNames && !campaignNames.has(data.campaign(ad.campaignId)?.name ?? ''))
				return false;
			return true;
		})
		.sort((a, b) => a.id - b.id);
	return json({ data: matching.slice(offset, offset + limit).map((ad) => adListItem(data, ad)) });
};
