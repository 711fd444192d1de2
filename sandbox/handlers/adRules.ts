import { findBot, MIN_BOT_DAILY_USERS } from '../data/bots';
import type { Ad, Cabinet, Campaign } from '../data/model';
import { timezoneViolation } from '../data/scheduleTimezone';
import type { SandboxData } from '../data/sandboxData';
import { ApiError, FieldErrors, isPlainObject } from '../errors';
import { parseIsoDate } from '../stats/isoDate';
import {
	CREATE_FIELDS_BY_PLATFORM,
	CREATE_REQUIRED,
	EDIT_FIELDS_BY_PLATFORM,
	ENUMS,
	typeName,
	typeViolation,
} from './adFieldTypes';

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
export const BOT_DAILY_USERS_CODE = 'advertisement__target_bot_daily_users_limit_error';
export const BOT_NOT_FOUND_CODE = 'advertisement__target_bot_not_found_error';

interface AdRuleContext {
	data: SandboxData;
	mode: 'create' | 'edit';
	/** The ad being edited. */
	existing?: Ad;
}

interface ValidatedAdBody {
	cabinet: Cabinet;
	campaign: Campaign;
}

function httpUrl(value: string): URL | null {
	try {
		const url = new URL(value);
		return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
	} catch {
		return null;
	}
}

/** A private channel's invite link: a path starting with `/+` or `/joinchat/`. */
function isInviteLink(value: string): boolean {
	const url = httpUrl(value);
	return url !== null && (url.pathname.startsWith('/+') || url.pathname.startsWith('/joinchat/'));
}

function checkFieldNamesAndTypes(
	body: Record<string, unknown>,
	ctx: AdRuleContext,
	errors: FieldErrors,
): void {
	const mode = ctx.mode;
	const platform = ctx.data.platform;
	const CREATE_FIELDS = CREATE_FIELDS_BY_PLATFORM[platform];
	const EDIT_FIELDS = EDIT_FIELDS_BY_PLATFORM[platform];
	const EVENT_FIELD = ctx.data.names.fields.eventId;
	const allowed = mode === 'create' ? CREATE_FIELDS : EDIT_FIELDS;
	for (const [field, value] of Object.entries(body)) {
		const rule = allowed[field];
		if (!rule) {
			errors.add(
				field,
				mode === 'edit' && field in CREATE_FIELDS
					? `cannot be changed when editing an ad; editable fields: ${Object.keys(EDIT_FIELDS).join(', ')}`
					: `unknown field; allowed fields: ${Object.keys(allowed).join(', ')}`,
			);
			continue;
		}
		if (field === EVENT_FIELD && Array.isArray(value)) {
			errors.add(
				field,
				'only one pixel event id is allowed per ad; send a single string, not an array',
			);
			continue;
		}
		const violation = typeViolation(rule, value);
		if (violation) errors.add(field, violation);
	}
	if (mode === 'create') {
		for (const field of CREATE_REQUIRED) {
			if (body[field] === undefined || body[field] === null) errors.add(field, 'is required');
		}
	}
}

function checkSchedule(value: unknown, errors: FieldErrors): void {
	if (!isPlainObject(value)) return;
	for (const [day, hours] of Object.entries(value)) {
		if (!WEEKDAYS.includes(day)) {
			errors.add('schedule', `unknown key "${day}"; allowed keys: ${WEEKDAYS.join(', ')}`);
		} else if (
			!Array.isArray(hours) ||
			hours.some((h) => !Number.isInteger(h) || h < 0 || h > 23)
		) {
			errors.add(`schedule.${day}`, 'must be an array of integer hours from 0 to 23');
		}
	}
}

function checkKktu(
	body: Record<string, unknown>,
	ctx: AdRuleContext,
	cabinet: Cabinet,
	errors: FieldErrors,
): void {
	const ids = body.kktu_ids as string[] | undefined;
	if (ids !== undefined && ids.length > 1) {
		errors.add('kktu_ids', `exactly one KKTU id is allowed per ad, got ${ids.length}`);
		return;
	}
	if (ids !== undefined && ids.length === 1) {
		const level = ctx.data.kktuLevel(ids[0]);
		if (level === undefined) {
			errors.add(
				'kktu_ids',
				`unknown KKTU id "${ids[0]}"; use the id of a third-level node from GET /api/kktu`,
			);
		} else if (level !== 3) {
			const code = ctx.data.kktuNode(ids[0])?.code ?? '?';
			errors.add(
				'kktu_ids',
				`KKTU id "${ids[0]}" is a level-${level} node (code ${code}); only third-level nodes (codes like 1.1.1) may be used`,
			);
		}
		return;
	}
	const keepsExisting = ids === undefined && (ctx.existing?.fields.kktu_ids.length ?? 0) > 0;
	if (cabinet.automaticLabelling && !keepsExisting) {
		errors.add(
			'kktu_ids',
			`is required: cabinet ${cabinet.account_id} (${cabinet.name}) uses automatic labelling, so an ad needs exactly one third-level KKTU id`,
		);
	}
}

function checkEvent(
	value: unknown,
	ctx: AdRuleContext,
	cabinet: Cabinet,
	errors: FieldErrors,
): void {
	if (typeof value !== 'string') return;
	if (ctx.data.pixelEventByPlatformId(cabinet.account_id, value)) return;
	const EVENT_FIELD = ctx.data.names.fields.eventId;
	const byId = ctx.data.pixelEventsOf(cabinet.account_id).find((e) => e.id === value);
	errors.add(
		EVENT_FIELD,
		byId
			? `"${value}" is a pixel event's id; send its ${EVENT_FIELD} ("${ctx.data.eventIdOf(byId)}") instead`
			: `pixel event "${value}" does not exist in cabinet ${cabinet.account_id}; use an ${EVENT_FIELD} from GET /api/pixel_events/?account_id=${cabinet.account_id}`,
	);
}

function checkTargetBots(value: unknown, errors: FieldErrors): void {
	if (!Array.isArray(value)) return;
	value.forEach((raw, i) => {
		const bot = raw as Record<string, unknown>;
		const field = `target_bots[${i}]`;
		const extra = Object.keys(bot).filter((k) => !['id', 'url', 'title', 'photo_url'].includes(k));
		if (extra.length > 0)
			errors.add(
				field,
				`unknown key(s) ${extra.join(', ')}; each item has id (number) and url (string)`,
			);
		if (!Number.isInteger(bot.id))
			errors.add(`${field}.id`, `must be an integer, got ${typeName(bot.id)}`);
		if (typeof bot.url !== 'string') {
			errors.add(`${field}.url`, `must be a string, got ${typeName(bot.url)}`);
			return;
		}
		const known = findBot(bot.url);
		if (!known) errors.add(`${field}.url`, `${BOT_NOT_FOUND_CODE}: bot ${bot.url} was not found`);
		else if (known.dailyUsers < MIN_BOT_DAILY_USERS) {
			errors.add(
				`${field}.url`,
				`${BOT_DAILY_USERS_CODE}: bot ${bot.url} has fewer than ${MIN_BOT_DAILY_USERS} daily users; target bots need ${MIN_BOT_DAILY_USERS}+ daily users`,
			);
		} else if (Number.isInteger(bot.id) && bot.id !== known.id) {
			errors.add(
				`${field}.id`,
				`does not match bot ${bot.url} (id ${known.id}); use the id from bot validation`,
			);
		}
	});
}

function checkAudiences(
	body: Record<string, unknown>,
	data: SandboxData,
	cabinet: Cabinet,
	errors: FieldErrors,
): void {
	const own = new Set(data.audiencesOf(cabinet.account_id).map((a) => data.audienceIdOf(a)));
	for (const field of ['audiences', 'exclude_audiences']) {
		const ids = body[field] as number[] | undefined;
		if (!ids || ids.length === 0) continue;
		if (cabinet.geolocation !== 'UZ') {
			errors.add(
				field,
				'audiences are available only for cabinets whose geolocation is Uzbekistan',
			);
			continue;
		}
		const unknown = ids.filter((id) => !own.has(id));
		if (unknown.length > 0)
			errors.add(
				field,
				`unknown audience id(s) ${unknown.join(', ')} in cabinet ${cabinet.account_id}`,
			);
	}
}

function checkDates(
	body: Record<string, unknown>,
	existing: Ad | undefined,
	errors: FieldErrors,
): void {
	for (const field of ['start_date', 'end_date']) {
		const value = body[field];
		if (typeof value === 'string' && !parseIsoDate(value))
			errors.add(field, `must be an ISO 8601 date or date-time, got ${JSON.stringify(value)}`);
	}
	if (errors.has('start_date') || errors.has('end_date')) return;
	const start = body.start_date !== undefined ? body.start_date : existing?.fields.start_date;
	const end = body.end_date !== undefined ? body.end_date : existing?.fields.end_date;
	const startMs = parseIsoDate(start)?.ms;
	const endMs = parseIsoDate(end)?.ms;
	if (startMs !== undefined && endMs !== undefined && startMs >= endMs) {
		errors.add(
			body.end_date !== undefined ? 'end_date' : 'start_date',
			`start_date (${String(start)}) must be before end_date (${String(end)})`,
		);
	}
}

/** Validates a create or edit body; throws the 400/403 a real user would get. */
export function validateAdBody(body: Record<string, unknown>, ctx: AdRuleContext): ValidatedAdBody {
	const errors = new FieldErrors();
	checkFieldNamesAndTypes(body, ctx, errors);
	errors.throwIfAny();

	const campaignId =
		ctx.mode === 'create' ? (body.campaign_id as number) : (ctx.existing as Ad).campaignId;
	const campaign = ctx.data.campaign(campaignId);
	if (!campaign) {
		errors.add('campaign_id', `campaign ${campaignId} does not exist`);
		errors.throwIfAny();
	}
	const cabinet = ctx.data.cabinet((campaign as Campaign).account_id) as Cabinet;
	if (!cabinet.permitted) {
		throw new ApiError(
			403,
			`You do not have permission to create ads in campaign ${campaignId} (cabinet ${cabinet.account_id}).`,
		);
	}

	for (const [field, allowed] of Object.entries(ENUMS)) {
		const value = body[field];
		if (typeof value === 'string' && !allowed.includes(value)) {
			errors.add(
				field,
				`must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(value)}`,
			);
		}
	}
	for (const field of ['title', 'text']) {
		if (typeof body[field] === 'string' && (body[field] as string).trim() === '')
			errors.add(field, 'must not be empty');
	}
	for (const field of ['promote_url', 'ad_object']) {
		if (typeof body[field] === 'string' && !httpUrl(body[field] as string)) {
			errors.add(field, `must be an absolute http(s) URL, got ${JSON.stringify(body[field])}`);
		}
	}
	if (
		ctx.mode === 'create' &&
		typeof body.promote_url === 'string' &&
		isInviteLink(body.promote_url) &&
		!body.ad_object
	) {
		errors.add(
			'ad_object',
			'is required when promote_url is a channel invite link (/+... or /joinchat/...): send the URL of the destination channel',
		);
	}
	for (const field of ['cpm', 'budget', 'daily_budget']) {
		if (typeof body[field] === 'number' && (body[field] as number) <= 0)
			errors.add(field, `must be greater than 0, got ${body[field]}`);
	}
	if (typeof body.views_per_user === 'number' && body.views_per_user < 1)
		errors.add('views_per_user', 'must be at least 1');
	if (typeof body.schedule_timezone === 'number') {
		const violation = timezoneViolation(ctx.data.platform, body.schedule_timezone);
		if (violation) errors.add('schedule_timezone', violation);
	}
	if (body.only_crypto === true && body.exclude_crypto === true)
		errors.add('only_crypto', 'only_crypto and exclude_crypto cannot both be true');
	checkSchedule(body.schedule, errors);
	checkDates(body, ctx.existing, errors);
	checkKktu(body, ctx, cabinet, errors);
	checkEvent(body[ctx.data.names.fields.eventId], ctx, cabinet, errors);
	checkTargetBots(body.target_bots, errors);
	checkAudiences(body, ctx.data, cabinet, errors);
	if (
		typeof body.media_token === 'string' &&
		!ctx.data.mediaUpload(body.media_token) &&
		!ctx.data.ads.some((ad) => ad.fields.media?.token === body.media_token)
	) {
		errors.add(
			'media_token',
			`unknown media token "${body.media_token}"; upload the file with upload_media first`,
		);
	}
	if (ctx.mode === 'create') {
		const adType = body.ad_type ?? 'target_channels';
		if (
			adType === 'target_bots' &&
			!(Array.isArray(body.target_bots) && body.target_bots.length > 0)
		) {
			errors.add('target_bots', 'is required and must not be empty when ad_type is target_bots');
		}
		if (
			adType === 'target_search' &&
			!(Array.isArray(body.target_search) && body.target_search.length > 0)
		) {
			errors.add(
				'target_search',
				'is required and must not be empty when ad_type is target_search',
			);
		}
	}
	errors.throwIfAny();
	return { cabinet, campaign: campaign as Campaign };
}
