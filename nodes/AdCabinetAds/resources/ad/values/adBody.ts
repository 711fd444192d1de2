import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import { invalidInput } from '../../../../shared/validation';
import {
	AD_FIELDS,
	CABINET_CURRENCY,
	CORE_FIELDS,
	COLLECTIONS,
	REMOVE_SCHEDULE,
	SCHEDULE_JSON,
	UPDATE_FIELDS,
	apiName,
	type AdField,
} from '../fields/adFields';
import type { PlatformNames } from '../../../../shared/platform';
import { scheduleFromDays, scheduleFromJson, type Schedule } from './adSchedule';
import { readFieldValue, readKktu, type ReadContext } from './adValues';

export interface AdBody {
	body: IDataObject;
	/** The KKTU value as given (an id or a dotted code), still to be checked against the tree (adKktu.ts). */
	kktu?: string;
}

const field = (api: string) => AD_FIELDS.find((f) => f.api === api) as AdField;

/** A private channel's invite link: a path starting with `/+` or `/joinchat/`. */
function isInviteLink(url: string): boolean {
	try {
		const { pathname } = new URL(url);
		return pathname.startsWith('/+') || pathname.startsWith('/joinchat/');
	} catch {
		return false;
	}
}

/** The schedule (docs/api-rules.md#schedule) from whichever of its inputs the user set; undefined when none. */
function readSchedule(values: IDataObject, ctx: ReadContext): Schedule | null | undefined {
	const ways = [
		values.schedule !== undefined && 'Schedule',
		values[SCHEDULE_JSON] !== undefined && 'Schedule (JSON)',
		values[REMOVE_SCHEDULE] === true && 'Remove Schedule',
	].filter((way): way is string => way !== false);
	if (ways.length > 1) {
		throw invalidInput(
			ctx.node,
			ways[0],
			`set the schedule one way only, not with ${ways.slice(1).join(' and ')} too`,
			ctx.itemIndex,
		);
	}
	if (ways[0] === 'Remove Schedule') return null;
	const label = ways[0];
	const refuse = (rule: string) => invalidInput(ctx.node, label, rule, ctx.itemIndex);
	if (label === 'Schedule') return scheduleFromDays(values.schedule, refuse);
	if (label === 'Schedule (JSON)') {
		const schedule = scheduleFromJson(values[SCHEDULE_JSON], refuse);
		if (schedule === null && ctx.mode === 'create')
			throw refuse('may be null only when updating an ad');
		return schedule;
	}
	return undefined;
}

/** Reads the fields present in `values` into `out`; the schedule and KKTU by their own rules. */
function readInto(
	out: AdBody,
	fields: readonly AdField[],
	values: IDataObject,
	ctx: ReadContext,
): void {
	for (const f of fields) {
		if (f.kind.type === 'schedule') {
			const schedule = readSchedule(values, ctx);
			if (schedule !== undefined) out.body[apiName(f, ctx.names)] = schedule;
		} else if (!(f.name in values)) {
			continue;
		} else if (f.kind.type === 'kktu') {
			out.kktu = readKktu(values[f.name], f, ctx);
		} else {
			const value = readFieldValue(f, values[f.name], ctx);
			if (value !== undefined) out.body[apiName(f, ctx.names)] = value as IDataObject[string];
		}
	}
}

function checkDates(body: IDataObject, ctx: ReadContext): void {
	const { start_date: start, end_date: end } = body;
	if (
		typeof start === 'string' &&
		typeof end === 'string' &&
		Date.parse(start) >= Date.parse(end)
	) {
		throw invalidInput(
			ctx.node,
			field('start_date').displayName,
			`must be before End Date (${end})`,
			ctx.itemIndex,
			start,
		);
	}
}

function contextOf(
	fx: IExecuteSingleFunctions,
	mode: ReadContext['mode'],
	names: PlatformNames,
): ReadContext {
	return {
		node: fx.getNode(),
		itemIndex: fx.getItemIndex(),
		timeZone: fx.getTimezone(),
		mode,
		names,
	};
}

/**
 * The create body from the core fields and the six collections, every field the user set
 * in its documented JSON type and under its name in the credential's form (`names`), plus `ad_source: web_api`. Refuses broken rules before anything is sent.
 */
export function buildCreateBody(fx: IExecuteSingleFunctions, names: PlatformNames): AdBody {
	const ctx = contextOf(fx, 'create', names);
	const out: AdBody = { body: {} };
	const core: IDataObject = {};
	for (const f of CORE_FIELDS)
		core[f.name] = fx.getNodeParameter(f.name, '') as IDataObject[string];
	readInto(out, CORE_FIELDS, core, ctx);
	for (const collection of COLLECTIONS) {
		const values = fx.getNodeParameter(collection.name, {}) as IDataObject;
		readInto(
			out,
			AD_FIELDS.filter((f) => f.collection === collection.name),
			values,
			ctx,
		);
		// From node version 1.1 one Currency choice stands for both API fields.
		if (collection.name === 'budgetSchedule' && values.currency !== undefined) {
			if (out.body.currency_code === CABINET_CURRENCY) {
				delete out.body.currency_code;
				out.body.use_account_currency = true;
			} else {
				out.body.use_account_currency = false;
			}
		}
	}
	out.body.ad_source = 'web_api';

	const body = out.body;
	if (
		typeof body.promote_url === 'string' &&
		isInviteLink(body.promote_url) &&
		body.ad_object === undefined
	) {
		throw invalidInput(
			ctx.node,
			field('ad_object').displayName,
			"is required when Promote URL is a channel invite link: add it under Website & Button with the destination channel's URL",
			ctx.itemIndex,
		);
	}
	checkDates(body, ctx);
	if (body.only_crypto === true && body.exclude_crypto === true) {
		throw invalidInput(
			ctx.node,
			field('only_crypto').displayName,
			'cannot be on together with Exclude Crypto Channels',
			ctx.itemIndex,
		);
	}
	// Ad Type Bots and Search target by their own list, which must then have entries.
	const listField = ['target_bots', 'target_search'].find((type) => type === body.ad_type);
	if (listField && !(Array.isArray(body[listField]) && (body[listField] as unknown[]).length > 0)) {
		throw invalidInput(
			ctx.node,
			field(listField).displayName,
			`must list at least one entry when Ad Type is ${String(body.ad_type)}`,
			ctx.itemIndex,
		);
	}
	return out;
}

/**
 * The edit body holds only the fields set under Update Fields, so nothing is reset by
 * omission. Refuses an empty update and broken rules before anything is sent.
 */
export function buildUpdateBody(fx: IExecuteSingleFunctions, names: PlatformNames): AdBody {
	const ctx = contextOf(fx, 'update', names);
	const values = fx.getNodeParameter('updateFields', {}) as IDataObject;
	const out: AdBody = { body: {} };
	readInto(out, UPDATE_FIELDS, values, ctx);
	if (Object.keys(out.body).length === 0 && out.kktu === undefined) {
		throw invalidInput(
			ctx.node,
			'Update Fields',
			'add at least one field to change',
			ctx.itemIndex,
		);
	}
	checkDates(out.body, ctx);
	return out;
}
