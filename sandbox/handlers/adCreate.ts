import { actionTypeOf, AD_EXT_ID_OFFSET, CANNOT_EDIT_FIELDS, fullSchedule } from '../data/adSeed';
import { adDetail } from '../data/adViews';
import { asTargetBot, findBot } from '../data/bots';
import type { SandboxData } from '../data/sandboxData';
import type { Ad, AdFields, AdMedia, AdType, TargetBot } from '../data/model';
import type { Schedule } from '../data/schedule';
import { buildProfile } from '../metrics/metricProfile';
import { SLOT_MS } from '../metrics/time';
import { parseIsoDate } from '../stats/isoDate';
import { timezoneFromRequest } from '../data/scheduleTimezone';
import { validateAdBody } from './adRules';
import { json, jsonObjectBody, type Handler } from './context';

function isPlatformHost(url: URL): boolean {
	return /^(www\.)?(t|telegram)\.me$/i.test(url.hostname);
}

/** The advertised object of a promoted URL: the channel or bot for platform links, the site otherwise. */
function deriveObject(promoteUrl: string): string {
	const url = new URL(promoteUrl);
	return isPlatformHost(url) ? `https://t.me/${url.pathname.split('/')[1] ?? ''}` : url.origin;
}

function objectKind(
	adObject: string,
	body: Record<string, unknown>,
): 'bot' | 'website' | 'channel' {
	if (body.promote_url_type === 'website' || !isPlatformHost(new URL(adObject))) return 'website';
	return /bot$/i.test(adObject) ? 'bot' : 'channel';
}

/** Validated `{ id, url }` items as the detail shows them (`url`, `title`, `photo_url`). */
function targetBotsFrom(value: unknown): TargetBot[] | null {
	if (!Array.isArray(value)) return null;
	return value.flatMap((item: { url: string }) => {
		const bot = findBot(item.url);
		return bot ? [asTargetBot(bot)] : [];
	});
}

export function mediaFor(data: SandboxData, token: string): AdMedia {
	const upload = data.mediaUpload(token);
	const seeded = data.ads.find((ad) => ad.fields.media?.token === token)?.fields.media;
	if (!upload && seeded) return { ...seeded };
	const video = upload?.content_type.startsWith('video/') ?? false;
	return {
		token,
		url: `https://cdn.sandbox.invalid/media/${token}`,
		type: video ? 'video' : 'image',
	};
}

function fillSchedule(value: Record<string, number[]>): Schedule {
	const base = fullSchedule();
	for (const day of Object.keys(base) as (keyof Schedule)[]) base[day] = [...(value[day] ?? [])];
	return base;
}

export function scheduleFrom(value: unknown): Schedule | null {
	return value === null || value === undefined
		? null
		: fillSchedule(value as Record<string, number[]>);
}

function verbose(body: Record<string, unknown>, field: string): string[] {
	const names = body[`${field}_verbose`] as string[] | undefined;
	return names ?? ((body[field] as (number | string)[] | undefined) ?? []).map(String);
}

/** POST {base_url}/api/advertisement/{platform}/: 201 with the new ad's detail. */
export const adCreate: Handler = ({ req, data }) => {
	const body = jsonObjectBody(req);
	const { cabinet, campaign } = validateAdBody(body, { data, mode: 'create' });
	const now = data.nowMs();
	const id = data.nextAdId();
	const promoteUrl = body.promote_url as string;
	const adObject = (body.ad_object as string | undefined) ?? deriveObject(promoteUrl);
	const kind = objectKind(adObject, body);
	const media = typeof body.media_token === 'string' ? mediaFor(data, body.media_token) : null;
	const schedule = body.schedule === undefined ? fullSchedule() : scheduleFrom(body.schedule);
	const useTimezone = (body.use_selected_timezone as boolean | undefined) ?? false;
	const timezone =
		timezoneFromRequest(data.platform, (body.schedule_timezone as number | undefined) ?? 0) ?? 0;
	const startMs = parseIsoDate(body.start_date)?.ms ?? now;
	const endMs = parseIsoDate(body.end_date)?.ms ?? null;
	const cpm = body.cpm as number;
	const fields: AdFields = {
		title: body.title as string,
		text: body.text as string,
		promote_url: promoteUrl,
		promote_url_title: adObject.replace(/^https?:\/\/(www\.)?(t\.me\/)?/, ''),
		promote_url_photo: '',
		media,
		cpm,
		budget: body.budget as number,
		langs: (body.langs as string[] | undefined) ?? [],
		topics: verbose(body, 'topics'),
		channels: verbose(body, 'channels'),
		exclude_topics: verbose(body, 'exclude_topics'),
		exclude_channels: verbose(body, 'exclude_channels'),
		other_info: (body.other_info as string | null | undefined) ?? null,
		decline_reason: [],
		cannot_edit_fields: [...CANNOT_EDIT_FIELDS],
		ad_type: (body.ad_type as AdType | undefined) ?? 'target_channels',
		countries: (body.countries as string[] | undefined) ?? [],
		user_locations:
			(body.locations_verbose as string[] | undefined) ??
			(body.locations as string[] | undefined) ??
			[],
		audiences: (body.audiences as number[] | undefined) ?? [],
		exclude_audiences: (body.exclude_audiences as number[] | undefined) ?? [],
		website_name: (body.website_name as string | undefined) ?? '',
		is_website: kind === 'website',
		views_per_user: (body.views_per_user as number | undefined) ?? 1,
		show_picture: (body.show_picture as boolean | undefined) ?? false,
		exclude_politic: (body.exclude_politic as boolean | undefined) ?? null,
		promote_url_picture_id: (body.promote_url_picture_id as string | null | undefined) ?? null,
		all_topics_interested_users: (body.all_topics_interested_users as boolean | undefined) ?? null,
		device: (body.device as string | undefined) ?? null,
		target_user_channels: (body.target_user_channels as string[] | undefined) ?? [],
		exclude_target_user_channels: (body.exclude_target_user_channels as string[] | undefined) ?? [],
		button_type: (body.button_type as string | null | undefined) ?? null,
		daily_budget: (body.daily_budget as number | undefined) ?? (body.budget as number),
		after_moderation_status: (body.after_moderation_status as string | undefined) ?? 'on hold',
		start_date: (body.start_date as string | null | undefined) ?? null,
		end_date: (body.end_date as string | null | undefined) ?? null,
		schedule,
		use_selected_timezone: useTimezone,
		schedule_timezone: timezone,
		website_photo_url: '',
		only_crypto: (body.only_crypto as boolean | undefined) ?? false,
		exclude_crypto: (body.exclude_crypto as boolean | undefined) ?? false,
		kktu_ids: (body.kktu_ids as string[] | undefined) ?? [],
		target_search: (body.target_search as string[] | null | undefined) ?? null,
		target_bots: targetBotsFrom(body.target_bots),
		eventId: (body[data.names.fields.eventId] as string | null | undefined) ?? null,
	};
	const ad: Ad = {
		id,
		extId: AD_EXT_ID_OFFSET + id,
		accountId: cabinet.account_id,
		campaignId: campaign.id,
		status: 'active',
		createdAt: now,
		statusUpdatedAt: now,
		runFrom: Math.ceil(Math.max(now, startMs) / SLOT_MS) * SLOT_MS,
		runUntil: endMs,
		adObject,
		actionType: actionTypeOf(kind),
		profile: buildProfile(data.seed, id, {
			cpm,
			video: media?.type === 'video',
			schedule,
			tzOffsetHours: useTimezone ? timezone : 0,
		}),
		fields,
	};
	// With moderation on, a new ad waits in review before it runs.
	data.moderation?.review(ad, now);
	data.addAd(ad);
	return data.adWriteAnswer === 'empty' ? { status: 201 } : json(adDetail(data, ad), 201);
};
