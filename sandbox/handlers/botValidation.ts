import { botPhotoUrl, botUrl, findBot, MIN_BOT_DAILY_USERS } from '../data/bots';
import { ApiError, FieldErrors, isPlainObject } from '../errors';
import { parseQuery } from '../server/requestBody';
import { BOT_DAILY_USERS_CODE, BOT_NOT_FOUND_CODE } from './adRules';
import { json, type Handler } from './context';

/**
 * Query keys with the spec's repeated `validate?` token stripped: the written form of the path
 * may arrive as `validate?validate?bots=...`, which puts `validate?bots` in the query.
 */
function lenientParams(rawQuery: string): Record<string, string[]> {
	const out: Record<string, string[]> = {};
	for (const [key, value] of Object.entries(parseQuery(rawQuery))) {
		const name = key.replace(/^(validate\?)+/i, '');
		(out[name] ??= []).push(...(Array.isArray(value) ? value : [value]));
	}
	return out;
}

/** GET or POST {base_url}/api/advertisement/bots/validate (the spec does not give the method). */
export const botValidation: Handler = ({ req, data }) => {
	const params = lenientParams(req.rawQuery);
	if (req.body.kind === 'json' && isPlainObject(req.body.value)) {
		const body = req.body.value;
		if (Array.isArray(body.bots)) (params.bots ??= []).push(...body.bots.map(String));
		if (body.account_id !== undefined) (params.account_id ??= []).push(String(body.account_id));
	}
	const refs = (params.bots ?? [])
		.flatMap((v) => v.split(','))
		.map((v) => v.trim())
		.filter((v) => v !== '');
	const accountId = params.account_id?.[0];
	const errors = new FieldErrors();
	if (!accountId) errors.add('account_id', 'is required');
	if (refs.length === 0)
		errors.add(
			'bots',
			'at least one bot is required: repeat the query parameter bots once per bot',
		);
	errors.throwIfAny();
	const cabinet = data.cabinet(accountId as string);
	if (!cabinet) throw new ApiError(404, `Account ${accountId} not found.`);
	if (!cabinet.permitted)
		throw new ApiError(403, `You do not have permission to use account ${accountId}.`);
	const bots: Record<string, unknown>[] = [];
	const failures: Record<string, unknown>[] = [];
	for (const ref of refs) {
		const bot = findBot(ref);
		if (!bot) {
			failures.push({ code: BOT_NOT_FOUND_CODE, detail: `Bot ${ref} was not found.`, url: ref });
		} else if (bot.dailyUsers < MIN_BOT_DAILY_USERS) {
			failures.push({
				code: BOT_DAILY_USERS_CODE,
				detail: `The bot must have ${MIN_BOT_DAILY_USERS}+ daily users to be used for targeting; ${ref} has fewer.`,
				url: ref,
			});
		} else {
			bots.push({ id: bot.id, title: bot.title, url: botUrl(bot), photo_url: botPhotoUrl(bot) });
		}
	}
	return json({ bots, errors: failures });
};
