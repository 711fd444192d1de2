/** CSV files written by n8n's Convert to File, compared with the statistics rows they came from. */
import { strict as assert } from 'node:assert';
import { DECIMAL_FIELDS } from '../../nodes/shared/stats/apiValues';

/** A minimal RFC 4180 reader: quoted fields may hold commas, quotes and line breaks. */
export function parseCsv(text: string): string[][] {
	const rows: string[][] = [];
	let row: string[] = [];
	let field = '';
	let quoted = false;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (quoted) {
			if (c === '"' && text[i + 1] === '"') {
				field += '"';
				i++;
			} else if (c === '"') quoted = false;
			else field += c;
		} else if (c === '"') quoted = true;
		else if (c === ',') {
			row.push(field);
			field = '';
		} else if (c === '\n' || c === '\r') {
			if (c === '\r' && text[i + 1] === '\n') i++;
			row.push(field);
			rows.push(row);
			row = [];
			field = '';
		} else field += c;
	}
	if (field !== '' || row.length) rows.push([...row, field]);
	return rows;
}

/**
 * A CSV written by Convert to File holds exactly `rows`: the first row's keys as its header and one
 * line per row, in order.
 */
export function assertCsvOfRows(text: string, rows: Array<Record<string, unknown>>): void {
	assert.ok(rows.length > 0, 'no rows to compare the CSV with');
	// Convert to File starts the CSV with a UTF-8 byte order mark, for spreadsheet programs.
	const [header, ...lines] = parseCsv(text.replace(/^\uFEFF/, '').trimEnd());
	assert.deepEqual(header, Object.keys(rows[0]), 'CSV header');
	assert.equal(lines.length, rows.length, 'one CSV line per row');
	lines.forEach((line, index) => {
		const row = rows[index];
		assert.deepEqual(
			line,
			header.map((key) => String(row[key] ?? '')),
			`CSV line ${index + 2}`,
		);
	});
}

/** A truth row as the node emits it with Numeric Values on: decimal strings become numbers. */
export function numeric(row: Record<string, unknown>): Record<string, unknown> {
	const out = { ...row };
	for (const key of DECIMAL_FIELDS) {
		if (typeof out[key] === 'string') out[key] = Number(out[key]);
	}
	return out;
}
