/**
 * Cells of the Google Sheets stand-in: how a value sent with `valueInputOption` RAW or
 * USER_ENTERED is stored, and how a stored cell reads back with `valueRenderOption`.
 *
 * What Google documents, and what this emulates:
 * - RAW: "the values the user has entered will not be parsed and will be stored as-is". A JSON
 *   string stays a text cell (even "2026-11-20", "007" or "=1+1"), a JSON number a number cell, a
 *   boolean a boolean cell.
 * - USER_ENTERED: "the values will be parsed as if the user typed them into the UI". A JSON number
 *   or boolean stays what it is; a string is read as typed text, in the spreadsheet's locale:
 *     "'text"                → text without the apostrophe (the sign that keeps text as text);
 *     "=…"                   → a formula (this stand-in does not evaluate formulas: it keeps the text);
 *     "TRUE" / "FALSE"       → a boolean, in any case (de_DE: "WAHR" / "FALSCH");
 *     numbers                → a number: "007" → 7, "1e3" → 1000, "+5" → 5; with the locale's
 *                              separators: en_US "1,234.5" → 1234.5, de_DE "1.234,5" → 1234.5 and
 *                              "1,5" → 1.5 (in en_US "1,5" is no number and stays text);
 *                              "12.5%" → 0.125; en_US "$12.50" → 12.5, de_DE "12,50 €" → 12.5;
 *     dates and date-times   → a date serial (days since 1899-12-30): "2026-11-20", "2026/11/20",
 *                              en_US "11/20/2026", de_DE "20.11.2026", each with an optional
 *                              " 10:30" or " 10:30:15".
 *   Text Google is not known to convert stays text here, which can only understate the risk:
 *   ISO 8601 with a "T" ("2026-11-20T00:00:00+00:00") stays text, as it does in Sheets.
 * - Reading: UNFORMATTED_VALUE gives the stored number, boolean or text (a date as its serial);
 *   FORMATTED_VALUE gives text as shown: a date typed as text shows as it was typed (Sheets picks
 *   a display format like the typed one; this stand-in keeps the typed text), as does a number
 *   typed with group separators, a percent or a currency; any other number shows plainly ("007"
 *   shows 7, "1e3" 1000), and a number sent as a JSON number shows in JavaScript's shortest form
 *   with the locale's decimal separator (Sheets rounds a long
 *   fraction in its General format: a difference the node never reads, as it matches keys, which
 *   are text). FORMULA gives a formula's text. Empty cells read as "" inside a row; trailing empty
 *   cells and rows are left out, as Google does.
 */

export type Locale = 'en_US' | 'de_DE';
export type InputOption = 'RAW' | 'USER_ENTERED';
export type RenderOption = 'FORMATTED_VALUE' | 'UNFORMATTED_VALUE' | 'FORMULA';

export type Cell =
	| { kind: 'text'; value: string }
	| { kind: 'number'; value: number; shown: string }
	| { kind: 'boolean'; value: boolean }
	| { kind: 'date'; value: number; shown: string }
	| { kind: 'formula'; value: string };

const SERIAL_EPOCH = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;

function serial(y: number, m: number, d: number, h = 0, min = 0, s = 0): number | undefined {
	if (m < 1 || m > 12 || d < 1 || d > 31 || h > 23 || min > 59 || s > 59) return undefined;
	const ms = Date.UTC(y, m - 1, d, h, min, s);
	if (new Date(ms).getUTCDate() !== d) return undefined;
	return (ms - SERIAL_EPOCH) / DAY_MS;
}

const TIME = String.raw`(?: (\d{1,2}):(\d{2})(?::(\d{2}))?)?`;
const DATES: Record<Locale | 'any', Array<{ re: RegExp; ymd: [number, number, number] }>> = {
	any: [{ re: new RegExp(String.raw`^(\d{4})[-/](\d{1,2})[-/](\d{1,2})${TIME}$`), ymd: [1, 2, 3] }],
	en_US: [{ re: new RegExp(String.raw`^(\d{1,2})/(\d{1,2})/(\d{4})${TIME}$`), ymd: [3, 1, 2] }],
	de_DE: [{ re: new RegExp(String.raw`^(\d{1,2})\.(\d{1,2})\.(\d{4})${TIME}$`), ymd: [3, 2, 1] }],
};

function parseDate(text: string, locale: Locale): number | undefined {
	for (const { re, ymd } of [...DATES.any, ...DATES[locale]]) {
		const m = re.exec(text);
		if (!m) continue;
		const [y, mo, d] = ymd.map((i) => Number(m[i]));
		return serial(y, mo, d, Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0));
	}
	return undefined;
}

/** The words Sheets reads as TRUE and FALSE, in the locale's language. */
const BOOLEANS: Record<Locale, [string, string]> = {
	en_US: ['TRUE', 'FALSE'],
	de_DE: ['WAHR', 'FALSCH'],
};

const SEPARATORS: Record<Locale, { group: string; decimal: string }> = {
	en_US: { group: ',', decimal: '.' },
	de_DE: { group: '.', decimal: ',' },
};

function parseNumber(typed: string, locale: Locale): number | undefined {
	let text = typed;
	let scale = 1;
	if (text.endsWith('%')) {
		text = text.slice(0, -1).trimEnd();
		scale = 0.01;
	} else if (locale === 'en_US' && /^[+-]?\$/.test(text)) {
		text = text.replace('$', '');
	} else if (locale === 'de_DE' && text.endsWith('€')) {
		text = text.slice(0, -1).trimEnd();
	}
	const { group, decimal } = SEPARATORS[locale];
	const g = `\\${group}`;
	const dec = `\\${decimal}`;
	const re = new RegExp(
		`^[+-]?(?:\\d{1,3}(?:${g}\\d{3})+|\\d+)?(?:${dec}\\d+)?(?:[eE][+-]?\\d+)?$`,
	);
	if (!re.test(text) || !/\d/.test(text.replace(/[eE][+-]?\d+$/, ''))) return undefined;
	const plain = text.split(group).join('').replace(decimal, '.');
	const value = Number(plain) * scale;
	return Number.isFinite(value) ? value : undefined;
}

/** A number as Sheets' General format shows it, with the locale's decimal separator. */
function plain(value: number, locale: Locale): string {
	return String(value).replace('.', SEPARATORS[locale].decimal);
}

/** One value of a request's `values`, stored as Sheets would store it. Null leaves a cell as it is. */
export function storeValue(
	value: unknown,
	option: InputOption,
	locale: Locale,
): Cell | undefined | null {
	if (value === null || value === undefined) return null;
	if (typeof value === 'number') return { kind: 'number', value, shown: plain(value, locale) };
	if (typeof value === 'boolean') return { kind: 'boolean', value };
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	if (text === '') return undefined;
	if (option === 'RAW') return { kind: 'text', value: text };
	if (text.startsWith("'")) return { kind: 'text', value: text.slice(1) };
	if (text.startsWith('=')) return { kind: 'formula', value: text };
	const [yes, no] = BOOLEANS[locale];
	if (text.toUpperCase() === yes || text.toUpperCase() === no)
		return { kind: 'boolean', value: text.toUpperCase() === yes };
	const date = parseDate(text, locale);
	if (date !== undefined) return { kind: 'date', value: date, shown: text };
	const number = parseNumber(text, locale);
	if (number !== undefined) {
		// Typed separators, a percent or a currency become the cell's format; other numbers show plainly.
		const formatted = /[%$€]/.test(text) || text.includes(SEPARATORS[locale].group);
		return { kind: 'number', value: number, shown: formatted ? text : plain(number, locale) };
	}
	return { kind: 'text', value: text };
}

/** A stored cell as a read with this `valueRenderOption` answers it. */
export function renderCell(
	cell: Cell | undefined,
	option: RenderOption,
): string | number | boolean {
	if (!cell) return '';
	switch (cell.kind) {
		case 'text':
		case 'formula':
			return cell.value;
		case 'boolean':
			return option === 'FORMATTED_VALUE' ? (cell.value ? 'TRUE' : 'FALSE') : cell.value;
		case 'number':
		case 'date':
			return option === 'FORMATTED_VALUE' ? cell.shown : cell.value;
	}
}

// ---- A1 ranges -----------------------------------------------------------------------------

interface GridRange {
	sheet: string;
	/** 0-based, inclusive; undefined = open. */
	startRow?: number;
	endRow?: number;
	startCol?: number;
	endCol?: number;
}

function columnIndex(letters: string): number {
	let n = 0;
	for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
	return n - 1;
}

function columnLetters(index: number): string {
	let n = index + 1;
	let out = '';
	while (n > 0) {
		const r = (n - 1) % 26;
		out = String.fromCharCode(65 + r) + out;
		n = Math.floor((n - 1) / 26);
	}
	return out;
}

/** "Sheet!A1:C3", "'My sheet'!A:Z", "Sheet!5:7", "Sheet!C12", "Sheet": the parts this stand-in reads. */
export function parseRange(a1: string): GridRange {
	const bang = a1.lastIndexOf('!');
	const rawSheet = bang < 0 ? a1 : a1.slice(0, bang);
	const sheet = rawSheet.replace(/^'(.*)'$/, '$1').replace(/''/g, "'");
	const range: GridRange = { sheet };
	if (bang < 0) return range;
	const [from, to = from] = a1.slice(bang + 1).split(':');
	const ref = (part: string) => {
		const m = /^([A-Za-z]*)(\d*)$/.exec(part);
		if (!m) throw new Error(`unable to parse range: ${a1}`);
		return {
			col: m[1] ? columnIndex(m[1]) : undefined,
			row: m[2] ? Number(m[2]) - 1 : undefined,
		};
	};
	const a = ref(from);
	const b = ref(to);
	return { sheet, startRow: a.row, endRow: b.row, startCol: a.col, endCol: b.col };
}

export function a1Of(sheet: string, r0: number, c0: number, r1: number, c1: number): string {
	const name = /^[A-Za-z0-9_]+$/.test(sheet) ? sheet : `'${sheet.replace(/'/g, "''")}'`;
	return `${name}!${columnLetters(c0)}${r0 + 1}:${columnLetters(c1)}${r1 + 1}`;
}
