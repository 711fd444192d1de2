import { hash32, SeededRandom } from '../random';
import { buildProfile } from '../metrics/metricProfile';
import { DAY_MS, SLOT_MS } from '../metrics/time';
import { asTargetBot, KNOWN_BOTS, MIN_BOT_DAILY_USERS } from './bots';
import { CAMPAIGNS, CABINETS, OBJECTS, type ObjectTemplate } from './cabinets';
import { isoWithOffset } from './format';
import type { Ad, AdFields, AdStatus, AdType, Cabinet, PixelEvent } from './model';
import type { Schedule } from './schedule';

export const FIRST_AD_ID = 10001;
export const AD_EXT_ID_OFFSET = 700_000_000;

const TITLE_BASES = [
	'Spring sale',
	'New collection',
	'Join the channel',
	'Weekly digest',
	'Free delivery',
	'Try the bot',
	'Limited offer',
	'Learn more today',
	'Top picks',
	'Members only',
];

const TEXTS: Record<string, readonly string[]> = {
	UZ: [
		'Tashkent tech news every morning. Subscribe now!',
		'Fresh deals from local shops, delivered fast.',
		'Plan your trip to Samarkand with our tips.',
	],
	DE: [
		'Die besten Angebote der Woche, jetzt entdecken.',
		'Start-up news from Berlin, straight to your phone.',
		'Gaming, reviews and giveaways every day.',
	],
	RU: [
		'Afisha of the city: concerts, exhibitions, theatre.',
		'Finance digest: short, useful, every weekday.',
		'Order pizza in two taps with our bot.',
	],
};

const LANGS: Record<string, readonly string[]> = {
	UZ: ['uz', 'ru', 'en'],
	DE: ['de', 'en'],
	RU: ['ru', 'en'],
};
const CITIES: Record<string, readonly string[]> = {
	UZ: ['Tashkent', 'Samarkand', 'Bukhara'],
	DE: ['Berlin', 'Munich', 'Hamburg'],
	RU: ['Moscow', 'Kazan', 'Saint Petersburg'],
};
const TOPICS = [
	'Technology',
	'Food',
	'Travel',
	'Finance',
	'Games',
	'Education',
	'Shopping',
	'News',
];
const SEARCH_QUERIES = [
	'pizza delivery',
	'cheap flights',
	'new smartphone',
	'english course',
	'crypto news',
];
const CHANNELS = [
	'@daily_news_feed',
	'@tech_reviews',
	'@city_events',
	'@foodies_club',
	'@market_watch',
];
const TIMEZONES: Record<string, number> = { UZ: 5, DE: 1, RU: 3 };
const ALL_HOURS = Array.from({ length: 24 }, (_, h) => h);

export const CANNOT_EDIT_FIELDS = ['ad_type', 'campaign_id', 'budget'];

export function fullSchedule(): Schedule {
	return {
		mon: [...ALL_HOURS],
		tue: [...ALL_HOURS],
		wed: [...ALL_HOURS],
		thu: [...ALL_HOURS],
		fri: [...ALL_HOURS],
		sat: [...ALL_HOURS],
		sun: [...ALL_HOURS],
	};
}

function businessSchedule(): Schedule {
	const weekday = ALL_HOURS.filter((h) => h >= 8 && h <= 21);
	const weekend = ALL_HOURS.filter((h) => h >= 10 && h <= 18);
	return {
		mon: weekday,
		tue: [...weekday],
		wed: [...weekday],
		thu: [...weekday],
		fri: [...weekday],
		sat: weekend,
		sun: [...weekend],
	};
}

function pickAdType(rng: SeededRandom, object: ObjectTemplate): AdType {
	if (object.kind === 'bot')
		return rng.pick(['target_bots', 'target_channels', 'target_users'] as const);
	const r = rng.float();
	if (r < 0.4) return 'target_channels';
	if (r < 0.7) return 'target_users';
	if (r < 0.85) return 'target_search';
	return 'target_bots';
}

function promoteUrl(
	rng: SeededRandom,
	object: ObjectTemplate,
	adId: number,
	campaignId: number,
): string {
	switch (object.kind) {
		case 'channel':
			return rng.chance(0.5) ? object.url : `${object.url}/${rng.int(10, 999)}`;
		case 'bot':
			return `${object.url}?start=ad${adId}`;
		case 'website':
			return `${object.url}/landing?utm_source=ads&utm_campaign=${campaignId}`;
		case 'invite':
			return object.inviteLink ?? object.url;
	}
}

export function actionTypeOf(kind: ObjectTemplate['kind']): string {
	switch (kind) {
		case 'bot':
			return 'start_bot';
		case 'website':
			return 'website_visit';
		default:
			return 'subscribe';
	}
}

function money(rng: SeededRandom, min: number, max: number): number {
	return Math.round((min + rng.float() * (max - min)) * 100) / 100;
}

interface AdSeedInput {
	seed: number;
	adCount: number;
	anchorMs: number;
	kktuLeafIds: readonly string[];
	pixelEvents: readonly PixelEvent[];
	/** The field the pixel events carry their platform id in. */
	eventIdField: string;
}

/**
 * Seeded ads. Each ad draws from its own stream (seed, index), so ad N looks the same whatever
 * adCount is. Creation times are relative to the initial clock instant (`anchorMs`).
 */
export function seedAds(input: AdSeedInput): Ad[] {
	const campaigns = CAMPAIGNS.filter(
		(c) => CABINETS.find((k) => k.account_id === c.account_id)?.permitted,
	);
	const goodBots = KNOWN_BOTS.filter((b) => b.dailyUsers >= MIN_BOT_DAILY_USERS);
	const anchorDay = Math.floor(input.anchorMs / DAY_MS) * DAY_MS;
	const ads: Ad[] = [];
	for (let index = 0; index < input.adCount; index++) {
		const rng = new SeededRandom(hash32(input.seed, 0xad5eed, index));
		const id = FIRST_AD_ID + index;
		const campaign = rng.pick(campaigns);
		const cabinet = CABINETS.find((c) => c.account_id === campaign.account_id) as Cabinet;
		const geo = cabinet.geolocation;
		const object = rng.pick(OBJECTS[cabinet.account_id]);
		const adType = pickAdType(rng, object);

		const r = rng.float();
		let createdAt: number;
		if (r < 0.02) createdAt = anchorDay + Math.floor(rng.float() * (input.anchorMs - anchorDay));
		else if (r < 0.04) createdAt = anchorDay - DAY_MS + rng.int(0, 86_399) * 1000;
		else createdAt = anchorDay - rng.int(2, 540) * DAY_MS + rng.int(0, 86_399) * 1000;
		createdAt = Math.floor(createdAt / 1000) * 1000;
		const approvedAt = Math.min(createdAt + rng.int(5, 120) * 60_000, input.anchorMs);
		const runFrom = Math.ceil(approvedAt / SLOT_MS) * SLOT_MS;

		let status: AdStatus = 'active';
		let statusUpdatedAt = approvedAt;
		let runUntil: number | null = null;
		const roll = rng.float();
		if (roll < 0.22 && input.anchorMs - runFrom > DAY_MS) {
			status = roll < 0.04 ? 'deleted' : 'stopped';
			statusUpdatedAt =
				Math.floor((runFrom + rng.float() * (input.anchorMs - runFrom)) / 1000) * 1000;
			runUntil = statusUpdatedAt;
		}

		const video = rng.chance(0.3);
		const cpm = cabinet.currency === 'RUB' ? money(rng, 50, 400) : money(rng, 0.5, 5);
		const budget = Math.round(cpm * rng.int(2_000, 20_000));
		const restricted = rng.chance(0.3);
		const schedule = restricted ? businessSchedule() : fullSchedule();
		const useTimezone = restricted || rng.chance(0.5);
		const tz = TIMEZONES[geo] ?? 0;
		const cabinetEvents = input.pixelEvents.filter(
			(e) => e.account_id === cabinet.account_id && e.status === 'active',
		);
		const isWebsite = object.kind === 'website';
		const onlyCrypto = rng.chance(0.1);
		const hasEnd = runUntil !== null ? rng.chance(0.5) : rng.chance(0.2);

		const fields: AdFields = {
			title: `${rng.pick(TITLE_BASES)} ${id}`,
			text: rng.pick(TEXTS[geo]),
			promote_url: promoteUrl(rng, object, id, campaign.id),
			promote_url_title: object.title,
			promote_url_photo: `/media/objects/${object.url.replace(/^https?:\/\//, '').replace(/[^a-z0-9]+/gi, '_')}.jpg`,
			media: {
				token: `seedmedia${id}`,
				url: `https://cdn.sandbox.invalid/media/${id}.${video ? 'mp4' : 'jpg'}`,
				type: video ? 'video' : 'image',
			},
			cpm,
			budget,
			langs: rng.sample(LANGS[geo], rng.int(1, 2)),
			topics: adType === 'target_users' ? rng.sample(TOPICS, rng.int(1, 3)) : [],
			channels: adType === 'target_channels' ? rng.sample(CHANNELS, rng.int(1, 3)) : [],
			exclude_topics: rng.chance(0.2) ? rng.sample(TOPICS, 1) : [],
			exclude_channels: rng.chance(0.1) ? rng.sample(CHANNELS, 1) : [],
			other_info: cabinet.automaticLabelling
				? ''
				: `erid:${hash32(input.seed, id, 7).toString(36)}`,
			decline_reason: [],
			cannot_edit_fields: [...CANNOT_EDIT_FIELDS],
			ad_type: adType,
			countries: [geo],
			user_locations: adType === 'target_users' ? rng.sample(CITIES[geo], rng.int(0, 2)) : [],
			audiences: geo === 'UZ' && adType === 'target_users' && rng.chance(0.3) ? [55001] : [],
			exclude_audiences:
				geo === 'UZ' && adType === 'target_users' && rng.chance(0.2) ? [55002] : [],
			website_name: isWebsite ? object.title : '',
			is_website: isWebsite,
			views_per_user: rng.int(1, 4),
			show_picture: rng.chance(0.5),
			exclude_politic: rng.pick([true, false, null]),
			promote_url_picture_id: `pic_${id}`,
			all_topics_interested_users: rng.pick([true, false, null]),
			device: rng.chance(0.8) ? 'all' : null,
			target_user_channels:
				adType === 'target_users' && rng.chance(0.2) ? rng.sample(CHANNELS, 1) : [],
			exclude_target_user_channels: [],
			button_type: isWebsite ? rng.pick(['open_website', 'learn_more']) : null,
			daily_budget: Math.round((budget / rng.int(10, 50)) * 100) / 100,
			after_moderation_status: rng.chance(0.85) ? 'active' : 'on hold',
			start_date: rng.chance(0.7) ? isoWithOffset(runFrom) : null,
			end_date: hasEnd
				? isoWithOffset(runUntil ?? Math.max(input.anchorMs, runFrom) + rng.int(7, 90) * DAY_MS)
				: null,
			schedule,
			use_selected_timezone: useTimezone,
			schedule_timezone: tz,
			website_photo_url: isWebsite ? `${object.url}/favicon.png` : '',
			only_crypto: onlyCrypto,
			exclude_crypto: !onlyCrypto && rng.chance(0.2),
			kktu_ids: [rng.pick(input.kktuLeafIds)],
			target_search: adType === 'target_search' ? rng.sample(SEARCH_QUERIES, rng.int(1, 3)) : null,
			target_bots:
				adType === 'target_bots' ? rng.sample(goodBots, rng.int(1, 2)).map(asTargetBot) : null,
			eventId:
				cabinetEvents.length > 0 && rng.chance(0.35)
					? (rng.pick(cabinetEvents)[input.eventIdField] as string)
					: null,
		};
		ads.push({
			id,
			extId: AD_EXT_ID_OFFSET + id,
			accountId: cabinet.account_id,
			campaignId: campaign.id,
			status,
			createdAt,
			statusUpdatedAt,
			runFrom,
			runUntil,
			adObject: object.url,
			actionType: actionTypeOf(object.kind),
			profile: buildProfile(input.seed, id, {
				cpm,
				video,
				schedule,
				tzOffsetHours: useTimezone ? tz : 0,
			}),
			fields,
		});
	}
	return ads;
}
