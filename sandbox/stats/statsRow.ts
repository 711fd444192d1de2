import { CURRENCIES, type Currency } from '../data/currencies';
import { formatMinor } from '../data/format';
import { UTC_ZONE, zonedIso, type BucketZone } from '../metrics/time';
import type { Ad } from '../data/model';
import type { SandboxReader } from '../data/reader';
import type { Bucket } from './aggregate';
import { ascii, ByteWriter } from './byteWriter';

/** Local bindings: global lookups are slow inside vm contexts (jest), and these run per slot. */
const { log2, round } = Math;

/** A row's platform_id: the platform's number, the same one the legacy report sends as `platform: [10]`. */
const PLATFORM_NUMBER = 10;

/** The metric fields every row starts with, whatever the grouping, in column order. */
const METRIC_KEYS: readonly string[] = [
	'period_date',
	'original_spent',
	'original_currency',
	'exchanged_spent',
	'exchange_currency',
	'views',
	'clicks',
	'actions',
	'video_opens',
	'ctr',
	'cpc',
	'cpm',
	'cpa',
	'cvr',
];

const TEXT = {
	periodDate: ascii('{"period_date":"'),
	originalSpent: ascii('","original_spent":"'),
	originalCurrency: ascii('","original_currency":"'),
	exchangedSpent: ascii('","exchanged_spent":"'),
	exchangeCurrency: ascii('","exchange_currency":"'),
	views: ascii('","views":'),
	clicks: ascii(',"clicks":'),
	actions: ascii(',"actions":'),
	opens: ascii(',"video_opens":'),
	ctr: ascii(',"ctr":"'),
	cpc: ascii('","cpc":"'),
	cpm: ascii('","cpm":"'),
	cpa: ascii('","cpa":"'),
	cvr: ascii('","cvr":"'),
	groupStart: ascii('",'),
};

const CURRENCY_TEXT = CURRENCIES.map((c) => ascii(c));

/** Longest metric part of a row in bytes, for sizing the buffer up front. */
const METRIC_PART_MAX = 480;

/** `numerator / denominator * scale` with two decimals (ratios are decimal strings); "0" for a zero denominator. */
function writeRatio(w: ByteWriter, numerator: number, denominator: number, scale: number): void {
	if (denominator === 0) w.byte(48);
	else w.hundredths((numerator / denominator) * scale * 100);
}

/** Values of the non-metric row fields that describe the bucket's group (its groupings' fields). */
function groupValues(
	data: SandboxReader,
	ad: Ad,
	keys: readonly string[],
): Record<string, unknown> {
	const f = ad.fields;
	const row: Record<string, unknown> = {};
	for (const key of keys) {
		switch (key) {
			case 'campaign_id':
				row[key] = ad.campaignId;
				break;
			case 'platform_id':
				row[key] = PLATFORM_NUMBER;
				break;
			case 'ad_object':
				row[key] = ad.adObject;
				break;
			case 'ad_id':
				row[key] = ad.id;
				break;
			case 'platform_ad_id':
				row[key] = ad.extId;
				break;
			case 'platform_cabinet_id':
				row[key] = ad.accountId;
				break;
			case 'ad_title':
				row[key] = f.title;
				break;
			case 'ad_text':
				row[key] = f.text;
				break;
			case 'ad_status':
				row[key] = ad.status;
				break;
			case 'ad_cpm':
				row[key] = formatMinor(f.cpm * 100);
				break;
			case 'ad_budget':
				row[key] = formatMinor(f.budget * 100);
				break;
			case 'promote_url':
				row[key] = f.promote_url;
				break;
			case 'target_type':
				row[key] = f.ad_type;
				break;
			case 'website_name':
				row[key] = f.website_name === '' ? null : f.website_name;
				break;
			case 'media_type':
				row[key] = f.media?.type ?? null;
				break;
			case 'views_limit_per_user':
				row[key] = f.views_per_user;
				break;
			case 'website_button_type':
				row[key] = f.button_type;
				break;
			case 'action_type':
				row[key] = ad.actionType;
				break;
			case 'exclude_crypto':
				row[key] = f.exclude_crypto;
				break;
			case 'only_crypto':
				row[key] = f.only_crypto;
				break;
			case 'target_langs':
				row[key] = [...f.langs];
				break;
			case 'additional_information':
				row[key] = f.other_info === '' ? null : f.other_info;
				break;
			case 'target_countries':
				row[key] = [...f.countries];
				break;
			case 'target_locations':
				row[key] = [...f.user_locations];
				break;
			case 'target_channels':
				row[key] = [...f.channels];
				break;
			case 'target_user_channels':
				row[key] = [...f.target_user_channels];
				break;
			case 'target_topics':
				row[key] = [...f.topics];
				break;
			case 'target_search':
				row[key] = f.target_search ? [...f.target_search] : null;
				break;
			case 'target_bots':
				row[key] = f.target_bots ? f.target_bots.map((b) => b.url) : null;
				break;
			case 'platform_cabinet_name':
				row[key] = data.cabinet(ad.accountId)?.name ?? null;
				break;
			case 'campaign_name':
				row[key] = data.campaign(ad.campaignId)?.name ?? null;
				break;
			default:
				throw new Error(`No value for statistics column ${key}`);
		}
	}
	return row;
}

/**
 * Serializes rows of one query. The group part of a row (the fields its groupings add) depends
 * only on its group, so it is encoded once per group and copied into every period's row. A row
 * that mixes cabinets of different currencies has no single original currency: original_* then
 * repeat the exchanged values.
 */
export class StatsRowWriter {
	private readonly groupKeys: string[];
	private readonly fragments: Buffer[] = [];
	private readonly periodDates = new Map<number, Uint8Array>();
	private readonly currencyText: Uint8Array;

	constructor(
		private readonly data: SandboxReader,
		keys: readonly string[],
		currency: Currency,
		private readonly zone: BucketZone = UTC_ZONE,
	) {
		this.groupKeys = keys.filter((key) => !METRIC_KEYS.includes(key));
		this.currencyText = ascii(currency);
	}

	/**
	 * Every row encoded into one buffer, each followed by a comma, and the byte offset where each
	 * row starts (plus a final offset one past the last comma).
	 */
	encode(buckets: readonly Bucket[]): { bytes: Buffer; offsets: Float64Array } {
		let capacity = 0;
		for (const bucket of buckets) capacity += this.fragment(bucket).length + METRIC_PART_MAX;
		const w = new ByteWriter(capacity);
		const offsets = new Float64Array(buckets.length + 1);
		for (let i = 0; i < buckets.length; i++) {
			offsets[i] = w.length;
			this.writeRow(w, buckets[i]);
			w.byte(0x2c);
		}
		offsets[buckets.length] = w.length;
		return { bytes: w.result(), offsets };
	}

	private writeRow(w: ByteWriter, bucket: Bucket): void {
		const exchanged = round(bucket.exchanged);
		const mask = bucket.currencyMask;
		const single = (mask & (mask - 1)) === 0;
		const { views, clicks, actions } = bucket;
		w.constant(TEXT.periodDate);
		w.constant(this.periodDate(bucket.periodStart));
		w.constant(TEXT.originalSpent);
		w.hundredths(single ? bucket.original : exchanged);
		w.constant(TEXT.originalCurrency);
		w.constant(single ? CURRENCY_TEXT[log2(mask)] : this.currencyText);
		w.constant(TEXT.exchangedSpent);
		w.hundredths(exchanged);
		w.constant(TEXT.exchangeCurrency);
		w.constant(this.currencyText);
		w.constant(TEXT.views);
		w.unsigned(views);
		w.constant(TEXT.clicks);
		w.unsigned(clicks);
		w.constant(TEXT.actions);
		w.unsigned(actions);
		w.constant(TEXT.opens);
		w.unsigned(bucket.opens);
		w.constant(TEXT.ctr);
		writeRatio(w, clicks, views, 100);
		w.constant(TEXT.cpc);
		writeRatio(w, exchanged / 100, clicks, 1);
		w.constant(TEXT.cpm);
		writeRatio(w, exchanged / 100, views, 1000);
		w.constant(TEXT.cpa);
		writeRatio(w, exchanged / 100, actions, 1);
		w.constant(TEXT.cvr);
		writeRatio(w, actions, clicks, 100);
		w.constant(TEXT.groupStart);
		w.chunk(this.fragment(bucket));
	}

	private periodDate(start: number): Uint8Array {
		let text = this.periodDates.get(start);
		if (text === undefined) {
			text = ascii(zonedIso(start, this.zone));
			this.periodDates.set(start, text);
		}
		return text;
	}

	/** The group's fields as JSON without the opening brace (platform_id is always among them). */
	private fragment(bucket: Bucket): Buffer {
		let fragment = this.fragments[bucket.rank];
		if (fragment === undefined) {
			fragment = Buffer.from(
				JSON.stringify(groupValues(this.data, bucket.ad, this.groupKeys)).slice(1),
			);
			this.fragments[bucket.rank] = fragment;
		}
		return fragment;
	}
}
