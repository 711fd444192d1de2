import type { IDataObject } from 'n8n-workflow';
import { DECIMAL_FIELDS, GROUPING_KEYS, type Grouping } from './spec';

/**
 * spec 2.1: money and ratios arrive as decimal strings. With Numeric Values on they become numbers
 * in place (the row object is fresh from JSON.parse, so nothing else holds it). A value that is not
 * a finite number is left exactly as the API sent it.
 */
export function numericRow(row: IDataObject): IDataObject {
	for (const field of DECIMAL_FIELDS) {
		const value = row[field];
		if (typeof value === 'string' && value !== '') {
			const number = Number(value);
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
