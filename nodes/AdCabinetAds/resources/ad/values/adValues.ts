import type { INode } from 'n8n-workflow';
import { readDate } from '../../../../shared/dates';
import type { PlatformNames } from '../../../../shared/platform';
import { invalidInput, listOf, locatorValue } from '../../../../shared/validation';
import { integerRule, type AdField, type AdFieldKind } from '../fields/adFields';

export interface ReadContext {
	node: INode;
	itemIndex: number;
	timeZone: string;
	mode: 'create' | 'update';
	/** The naming map of the credential's form of the API. */
	names: PlatformNames;
}

/** A value as n8n may hand it over: typed by the UI, or text from an expression (a sheet cell). */
function toNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && /^\s*[-+]?(\d+(\.\d*)?|\.\d+)\s*$/.test(value))
		return Number(value);
	return undefined;
}

function httpUrl(value: string): boolean {
	try {
		const url = new URL(value);
		return url.protocol === 'http:' || url.protocol === 'https:';
	} catch {
		return false;
	}
}

/** The one value of a single-valued list field (KKTU, pixel event), or undefined when empty. */
function single(
	value: unknown,
	ctx: ReadContext,
	field: AdField,
	rule: string,
): string | undefined {
	const raw = locatorValue(value);
	const values = typeof raw === 'number' ? [String(raw)] : listOf(raw);
	if (values.length > 1) throw invalidInput(ctx.node, field.displayName, rule, ctx.itemIndex, raw);
	return values[0];
}

/** One KKTU id (or a dotted code, resolved later); undefined when left empty on create. */
export function readKktu(value: unknown, field: AdField, ctx: ReadContext): string | undefined {
	const rule = 'exactly one KKTU category per ad';
	const id = single(value, ctx, field, rule);
	if (id === undefined && ctx.mode === 'update') {
		throw invalidInput(ctx.node, field.displayName, `choose ${rule}`, ctx.itemIndex);
	}
	return id;
}

function readString(
	value: unknown,
	kind: Extract<AdFieldKind, { type: 'string' }>,
	field: AdField,
	ctx: ReadContext,
) {
	if (typeof value !== 'string' && typeof value !== 'number') {
		throw invalidInput(ctx.node, field.displayName, 'must be text', ctx.itemIndex, value);
	}
	const text = String(value);
	if (kind.blankNotSent && text.trim() === '')
		return ctx.mode === 'update' && field.updateNullable ? null : undefined;
	if (kind.nullable && text.trim() === '') return null;
	if (kind.nonEmpty && text.trim() === '') {
		throw invalidInput(ctx.node, field.displayName, 'must not be empty', ctx.itemIndex);
	}
	if (kind.url && !httpUrl(text.trim())) {
		throw invalidInput(
			ctx.node,
			field.displayName,
			'must be an absolute http(s) URL such as https://t.me/name',
			ctx.itemIndex,
			text,
		);
	}
	return kind.url ? text.trim() : text;
}

function readNumber(
	value: unknown,
	kind: Extract<AdFieldKind, { type: 'number' }>,
	field: AdField,
	ctx: ReadContext,
) {
	const n = toNumber(value);
	const refuse = (rule: string) =>
		invalidInput(ctx.node, field.displayName, rule, ctx.itemIndex, value);
	if (n === undefined) throw refuse('must be a number');
	if (kind.positive && !(n > 0)) throw refuse('must be a number greater than 0');
	if ((kind.min !== undefined && n < kind.min) || (kind.max !== undefined && n > kind.max)) {
		throw refuse(`must be a number from ${kind.min} to ${kind.max}`);
	}
	return n;
}

/** Real offsets are whole quarter hours, from UTC−12:00 to UTC+14:00. */
const QUARTER_HOUR_SECONDS = 900;
const OFFSET_SECONDS = { min: -12 * 3600, max: 14 * 3600 };

/**
 * `schedule_timezone` in seconds, as the real service documents it ("hours converted to seconds",
 * 10800 for UTC+03:00); the Generic form documents no unit. The editor's list and nodes saved before hold
 * hours, and an expression may give either: a value up to 14 is hours, one of 900 or more seconds.
 */
function readUtcOffset(value: unknown, field: AdField, ctx: ReadContext): number {
	const n = toNumber(value);
	const refuse = () =>
		invalidInput(
			ctx.node,
			field.displayName,
			'must be a UTC offset in whole quarter hours: hours from -12 to 14 (such as 3 or 5.75), or seconds, a multiple of 900 from -43200 to 50400 (such as 10800 for UTC+03:00)',
			ctx.itemIndex,
			value,
		);
	if (n === undefined) throw refuse();
	const seconds = Math.abs(n) <= 14 && Number.isInteger(n * 4) ? Math.round(n * 3600) : n;
	if (
		!Number.isInteger(seconds) ||
		seconds % QUARTER_HOUR_SECONDS !== 0 ||
		seconds < OFFSET_SECONDS.min ||
		seconds > OFFSET_SECONDS.max
	)
		throw refuse();
	// -0 hours is UTC.
	return seconds === 0 ? 0 : seconds;
}

function readIds(value: unknown, field: AdField, ctx: ReadContext): number[] {
	const parts = typeof value === 'number' ? [value] : Array.isArray(value) ? value : listOf(value);
	return parts.map((part) => {
		const n = toNumber(part);
		if (n === undefined || !Number.isInteger(n) || n < 1) {
			throw invalidInput(
				ctx.node,
				field.displayName,
				'must be whole-number IDs separated by commas',
				ctx.itemIndex,
				part,
			);
		}
		return n;
	});
}

function readTargetBots(value: unknown, field: AdField, ctx: ReadContext) {
	const list = Array.isArray(value) ? value : ((value as { bot?: unknown } | undefined)?.bot ?? []);
	if (!Array.isArray(list))
		throw invalidInput(ctx.node, field.displayName, 'must be a list of bots', ctx.itemIndex, value);
	return list.map((entry: unknown) => {
		const bot = (entry ?? {}) as { id?: unknown; url?: unknown };
		const id = toNumber(bot.id);
		if (id === undefined || !Number.isInteger(id) || id < 1) {
			throw invalidInput(
				ctx.node,
				`${field.displayName} → Bot ID`,
				'must be the whole-number ID from Validate Bots',
				ctx.itemIndex,
				bot.id,
			);
		}
		if (typeof bot.url !== 'string' || bot.url.trim() === '') {
			throw invalidInput(
				ctx.node,
				`${field.displayName} → Bot URL`,
				'must not be empty',
				ctx.itemIndex,
			);
		}
		return { id, url: bot.url.trim() };
	});
}

/**
 * One field's body value, in the JSON type the API documents for it, from what the user set; undefined for
 * a blank that is not sent. Refuses (naming the field and the rule) anything the API would reject
 * for its type or range. `schedule` and the KKTU field are read by their own functions.
 */
export function readFieldValue(field: AdField, value: unknown, ctx: ReadContext): unknown {
	const kind = field.kind;
	const refuse = (rule: string) =>
		invalidInput(ctx.node, field.displayName, rule, ctx.itemIndex, value);
	switch (kind.type) {
		case 'string':
			return readString(value, kind, field, ctx);
		case 'number':
			return readNumber(value, kind, field, ctx);
		case 'utcOffset':
			return readUtcOffset(value, field, ctx);
		case 'integer': {
			// From node version 1.2 an ID field is a resource locator; its value is read by the same rule.
			const given = locatorValue(value);
			const n = toNumber(given);
			if (n === undefined || !Number.isInteger(n) || n < kind.min) {
				throw invalidInput(
					ctx.node,
					field.displayName,
					integerRule(kind.min),
					ctx.itemIndex,
					given,
				);
			}
			return n;
		}
		case 'boolean':
			if (typeof value === 'boolean') return value;
			if (value === 'true' || value === 'false') return value === 'true';
			throw refuse('must be true or false');
		case 'options':
			if (typeof value === 'string' && kind.choices.some((choice) => choice.value === value))
				return value;
			throw refuse(
				`must be one of ${kind.choices.map((choice) => `"${choice.value}"`).join(', ')}`,
			);
		case 'stringList':
			return listOf(value);
		case 'idList':
		case 'audiences':
			return readIds(value, field, ctx);
		case 'date': {
			if (value === '' || value === null || value === undefined) {
				// Start and end dates may be null on create; an edit takes a date.
				if (ctx.mode === 'create') return null;
				throw refuse('must be a date such as 2026-12-01T09:00:00');
			}
			const date = readDate(value, ctx.timeZone);
			if (!date) throw refuse('must be a date such as 2026-12-01T09:00:00');
			return date.iso;
		}
		case 'pixelEvent':
			// One pixel event id only; empty unlinks the event (the field may be null).
			return single(value, ctx, field, 'only one pixel event per ad') ?? null;
		case 'targetBots':
			return readTargetBots(value, field, ctx);
		case 'kktu':
		case 'schedule':
			throw new Error(`${String(field.api)} is read by its own function`);
	}
}
