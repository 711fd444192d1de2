import { ACTIONS, CLICKS, OPENS, SPEND, VIEWS } from '../metrics/metricSource';
import { dottedDateTime, isoWithOffset, ratioNumber, round2 } from './format';
import type { Ad } from './model';
import type { SandboxReader } from './reader';
import { timezoneAsServed } from './scheduleTimezone';

/** The ad detail object, keys in the spec's order. */
export function adDetail(data: SandboxReader, ad: Ad): Record<string, unknown> {
	const f = structuredClone(ad.fields);
	const cabinet = data.cabinet(ad.accountId);
	const event =
		f.eventId === null ? undefined : data.pixelEventByPlatformId(ad.accountId, f.eventId);
	const names = data.names.fields;
	return {
		ad_id: ad.id,
		[names.adPlatformId]: ad.extId,
		account_id: ad.accountId,
		account_name: cabinet?.name ?? '',
		campaign_id: ad.campaignId,
		campaign_name: data.campaign(ad.campaignId)?.name ?? '',
		title: f.title,
		text: f.text,
		promote_url: f.promote_url,
		promote_url_title: f.promote_url_title,
		promote_url_photo: f.promote_url_photo,
		media: f.media,
		cpm: f.cpm,
		budget: f.budget,
		langs: f.langs,
		topics: f.topics,
		channels: f.channels,
		exclude_topics: f.exclude_topics,
		exclude_channels: f.exclude_channels,
		other_info: f.other_info,
		decline_reason: f.decline_reason,
		status: ad.status,
		status_updated_dt: isoWithOffset(ad.statusUpdatedAt),
		cannot_edit_fields: f.cannot_edit_fields,
		ad_type: f.ad_type,
		countries: f.countries,
		user_locations: f.user_locations,
		audiences: f.audiences,
		exclude_audiences: f.exclude_audiences,
		is_audiences: f.audiences.length > 0,
		is_exclude_audiences: f.exclude_audiences.length > 0,
		website_name: f.website_name,
		is_website: f.is_website,
		views_per_user: f.views_per_user,
		show_picture: f.show_picture,
		exclude_politic: f.exclude_politic,
		promote_url_picture_id: f.promote_url_picture_id,
		all_topics_interested_users: f.all_topics_interested_users,
		device: f.device,
		target_user_channels: f.target_user_channels,
		exclude_target_user_channels: f.exclude_target_user_channels,
		button_type: f.button_type,
		daily_budget: f.daily_budget,
		after_moderation_status: f.after_moderation_status,
		start_date: f.start_date,
		end_date: f.end_date,
		schedule: f.schedule,
		use_selected_timezone: f.use_selected_timezone,
		schedule_timezone: timezoneAsServed(data.platform, f.schedule_timezone),
		website_photo_url: f.website_photo_url,
		[names.accountType]: cabinet?.extAccountType ?? 0,
		currency: cabinet?.currency ?? 'EUR',
		only_crypto: f.only_crypto,
		exclude_crypto: f.exclude_crypto,
		kktu_ids: f.kktu_ids,
		target_search: f.target_search,
		target_bots: f.target_bots,
		event: {
			[names.eventId]: f.eventId,
			name: event?.title ?? null,
		},
	};
}

/** The ad list item, with lifetime metrics up to the clock's now. */
export function adListItem(data: SandboxReader, ad: Ad): Record<string, unknown> {
	const totals = data.lifetimeMetrics(ad);
	const spent = round2(totals[SPEND] / 100);
	const views = totals[VIEWS];
	const clicks = totals[CLICKS];
	const goals = totals[ACTIONS];
	return {
		account_name: data.cabinet(ad.accountId)?.name ?? '',
		action_type: ad.actionType,
		ad_text: ad.fields.text,
		ad_type: ad.fields.ad_type,
		advertisement_title: ad.fields.title,
		balance: Math.max(0, round2(ad.fields.budget - spent)),
		campaign_id: ad.campaignId,
		campaign_name: data.campaign(ad.campaignId)?.name ?? '',
		clicks,
		cpc: ratioNumber(spent, clicks),
		cpm: ratioNumber(spent, views, 1000),
		cps: ratioNumber(spent, goals),
		created_dt: dottedDateTime(ad.createdAt),
		ctr: ratioNumber(clicks, views, 100),
		cvr: ratioNumber(goals, clicks, 100),
		goals,
		id: ad.id,
		impressions: views,
		kktu_codes: ad.fields.kktu_ids.map((id) => data.kktuNode(id)?.code ?? id),
		object: ad.adObject,
		opened: ad.fields.media?.type === 'video' ? totals[OPENS] : null,
		spent,
		status: ad.status,
		status_updated_dt: isoWithOffset(ad.statusUpdatedAt),
		target_topics: [...ad.fields.topics],
	};
}
