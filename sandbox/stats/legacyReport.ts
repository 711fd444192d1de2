import { isoDate, ratioNumber, round2 } from '../data/format';
import type { Ad } from '../data/model';
import type { SandboxReader } from '../data/reader';
import { FieldErrors, fieldError, isPlainObject } from '../errors';
import { ACTIONS, CLICKS, OPENS, VIEWS } from '../metrics/metricSource';
import { DAY_MS, type PeriodUnit } from '../metrics/time';
import { aggregate, type Bucket } from './aggregate';
import type { Platform } from '../platform';
import { parseIsoDate, type ParsedDate } from './isoDate';

const BODY_FIELDS = [
	'date',
	'platform',
	'partner',
	'campaign',
	'group_time',
	'groupings',
	'object',
	'sub_client',
	'type_cab',
	'currency',
	'account_uids',
];

/** The legacy body's group_time: 1 day, 2 month, 3 week, 4 year. */
const GROUP_TIME_UNITS: Record<number, PeriodUnit> = { 1: 'day', 2: 'month', 3: 'week', 4: 'year' };
const GROUPING_NAMES = [
	'date',
	'object',
	'campaign',
	'account',
	'partner',
	'platform',
	'sub_client',
];

interface LegacyQuery {
	fromMs: number;
	toMs: number;
	groupTime: number;
	byAd: boolean;
	byObject: boolean;
	byAccount: boolean;
	campaigns: Set<number> | null;
	objects: Set<string> | null;
	accounts: Set<string> | null;
}

function compareText(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

function sameArray(value: unknown, expected: number[]): boolean {
	return (
		Array.isArray(value) &&
		value.length === expected.length &&
		value.every((v, i) => v === expected[i])
	);
}

function idArray(
	field: string,
	value: unknown,
	errors: FieldErrors,
	numeric: boolean,
): unknown[] | null {
	if (value === undefined || value === null) return null;
	const ok =
		Array.isArray(value) &&
		value.every((v) =>
			numeric
				? Number.isInteger(typeof v === 'string' ? Number(v) : v) && v !== ''
				: typeof v === 'string' || typeof v === 'number',
		);
	if (!ok) {
		errors.add(
			field,
			numeric ? 'must be an array of campaign ids (numbers)' : 'must be an array of strings',
		);
		return null;
	}
	return value.length === 0 ? null : value;
}

/**
 * The first millisecond of the day a date_from / date_to stands for.
 * - Spec form ("strings in ISO 8601"): a date or a date-time; the UTC day of the instant.
 * - Real form: a date-time only (its docs send `2024-06-07T00:00:00.000Z`); the day is the calendar
 *   date written in it, whatever its time and offset, as a server taking the date of the parsed
 *   date-time would read it. `2024-06-07T00:00:00+03:00` is 7 June.
 */
function reportDay(
	platform: Platform,
	field: string,
	value: unknown,
	errors: FieldErrors,
): number | null {
	const parsed: ParsedDate | null = parseIsoDate(value);
	if (platform === 'ext') {
		if (!parsed) {
			errors.add(field, 'is required and must be an ISO 8601 date');
			return null;
		}
		return Math.floor(parsed.ms / DAY_MS) * DAY_MS;
	}
	if (!parsed || parsed.dateOnly) {
		errors.add(
			field,
			`is required and must be an ISO 8601 date-time such as 2024-06-07T00:00:00.000Z, got ${JSON.stringify(value)}`,
		);
		return null;
	}
	const [year, month, day] = (value as string).trim().slice(0, 10).split('-').map(Number);
	return Date.UTC(year, month - 1, day);
}

function validateLegacyBody(body: unknown, platform: Platform): LegacyQuery {
	if (!isPlainObject(body)) throw fieldError('body', 'must be a JSON object');
	const errors = new FieldErrors();
	for (const key of Object.keys(body)) {
		if (!BODY_FIELDS.includes(key))
			errors.add(key, `unknown field; allowed fields: ${BODY_FIELDS.join(', ')}`);
	}
	let fromMs = 0;
	let toMs = 0;
	const date = body.date;
	if (!isPlainObject(date)) {
		errors.add('date', 'is required: an object with date_from and date_to (ISO 8601)');
	} else {
		const from = reportDay(platform, 'date.date_from', date.date_from, errors);
		const to = reportDay(platform, 'date.date_to', date.date_to, errors);
		if (from !== null && to !== null) {
			fromMs = from;
			toMs = to + DAY_MS - 1;
			const fromInstant = parseIsoDate(date.date_from)?.ms ?? from;
			const toInstant = parseIsoDate(date.date_to)?.ms ?? to;
			if (from > to || fromInstant > toInstant)
				errors.add('date.date_from', 'must not be after date.date_to');
		}
	}
	if (!sameArray(body.platform, [10])) errors.add('platform', 'is required and must be [10]');
	if (!sameArray(body.partner, [2])) errors.add('partner', 'is required and must be [2]');
	if (body.currency !== 'RUB') errors.add('currency', 'is required and must be "RUB"');
	if (body.type_cab !== undefined && body.type_cab !== null) errors.add('type_cab', 'must be null');
	const groupTime = body.group_time ?? 1;
	if (typeof groupTime !== 'number' || !(groupTime in GROUP_TIME_UNITS)) {
		errors.add('group_time', 'must be 1 (day), 2 (month), 3 (week) or 4 (year)');
	}
	const names = new Set<string>();
	if (body.groupings !== undefined && body.groupings !== null) {
		if (!Array.isArray(body.groupings))
			errors.add('groupings', 'must be an array of { name, type? } objects');
		else
			body.groupings.forEach((g, i) => {
				if (!isPlainObject(g) || typeof g.name !== 'string' || !GROUPING_NAMES.includes(g.name)) {
					errors.add(`groupings[${i}].name`, `must be one of ${GROUPING_NAMES.join(', ')}`);
				} else if (g.type !== undefined && g.type !== null && typeof g.type !== 'number') {
					errors.add(`groupings[${i}].type`, 'must be a number');
				} else names.add(g.name);
			});
	}
	const campaigns = idArray('campaign', body.campaign, errors, true);
	const objects = idArray('object', body.object, errors, false);
	const accounts = idArray('account_uids', body.account_uids, errors, false);
	if (
		body.sub_client !== undefined &&
		body.sub_client !== null &&
		!Array.isArray(body.sub_client)
	) {
		errors.add('sub_client', 'must be an array');
	}
	errors.throwIfAny();
	return {
		fromMs,
		toMs,
		groupTime: groupTime as number,
		byAd: names.has('campaign'),
		byObject: names.has('object'),
		byAccount: names.has('account'),
		campaigns: campaigns ? new Set(campaigns.map(Number)) : null,
		objects: objects ? new Set(objects.map(String)) : null,
		accounts: accounts ? new Set(accounts.map(String)) : null,
	};
}

function shapeLegacyRow(
	data: SandboxReader,
	bucket: Bucket,
	q: LegacyQuery,
): Record<string, unknown> {
	const ad = bucket.ad;
	const f = ad.fields;
	const m = [bucket.views, bucket.clicks, bucket.actions, bucket.opens];
	const spent = round2(Math.round(bucket.exchanged) / 100);
	const account = q.byAccount || q.byAd;
	const object = q.byObject || q.byAd;
	const adLevel = q.byAd;
	return {
		account_name: account ? (data.cabinet(ad.accountId)?.name ?? '') : '',
		account_uid: account ? ad.accountId : '',
		action_type: adLevel ? ad.actionType : null,
		ad_id: adLevel ? ad.id : 0,
		ad_text: adLevel ? f.text : '',
		ad_type: adLevel ? f.ad_type : '',
		button_type: adLevel ? f.button_type : null,
		campaign_plat: adLevel ? f.title : '',
		clicks: m[CLICKS],
		cpc: ratioNumber(spent, m[CLICKS]),
		cpm: ratioNumber(spent, m[VIEWS], 1000),
		ctr: ratioNumber(m[CLICKS], m[VIEWS], 100),
		cvr: ratioNumber(m[ACTIONS], m[CLICKS], 100),
		date: isoDate(bucket.periodStart),
		goals: m[ACTIONS],
		impressions: m[VIEWS],
		object: object ? ad.adObject : '',
		opened: adLevel && f.media?.type !== 'video' ? null : m[OPENS],
		price_target: ratioNumber(spent, m[ACTIONS]),
		promote_url: adLevel ? f.promote_url : '',
		spent,
		target_bots: adLevel ? (f.target_bots ?? []).map((b) => b.url) : [],
		target_channels: adLevel ? [...f.channels] : [],
		target_countries: adLevel ? [...f.countries] : [],
		target_langs: adLevel ? [...f.langs] : [],
		target_search: adLevel ? [...(f.target_search ?? [])] : [],
		target_topics: adLevel ? [...f.topics] : [],
		target_user_channels: adLevel ? [...f.target_user_channels] : [],
		target_user_locations: adLevel ? [...f.user_locations] : [],
		unit: q.groupTime,
		website_name: adLevel ? f.website_name : '',
	};
}

/** Legacy report rows for a legacy report body, from the same data as the statistics endpoint. */
export function legacyReportRows(
	data: SandboxReader,
	body: unknown,
	nowMs: number,
): Record<string, unknown>[] {
	const q = validateLegacyBody(body, data.platform);
	const ads = data.ads.filter(
		(ad) =>
			data.cabinet(ad.accountId)?.permitted === true &&
			(!q.campaigns || q.campaigns.has(ad.campaignId)) &&
			(!q.objects || q.objects.has(ad.adObject)) &&
			(!q.accounts || q.accounts.has(ad.accountId)),
	);
	const keyOf = (ad: Ad) =>
		[q.byAccount ? ad.accountId : '', q.byObject ? ad.adObject : '', q.byAd ? ad.id : ''].join(
			'\u0000',
		);
	const buckets = aggregate(data.metrics, {
		unit: GROUP_TIME_UNITS[q.groupTime],
		fromMs: q.fromMs,
		toMs: q.toMs,
		asOfMs: nowMs,
		ads,
		currencyOf: (ad) => data.cabinet(ad.accountId)?.currency ?? 'EUR',
		target: 'RUB',
		groupKey: keyOf,
		compareGroups: (a, b) =>
			(q.byAccount ? compareText(a.accountId, b.accountId) : 0) ||
			(q.byObject ? compareText(a.adObject, b.adObject) : 0) ||
			(q.byAd ? a.id - b.id : 0),
		descending: false,
	});
	return buckets.map((bucket) => shapeLegacyRow(data, bucket, q));
}
