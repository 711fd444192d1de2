/**
 * Reads audience entries, from text or from the values of input items, into a Scan: each entry is
 * a phone number (kept as an integer), a SHA-256 hash, or invalid. The file rules on the result
 * are in audienceFile.ts.
 */

/** Audiences are for Uzbekistan only: international format, 998 and 9 digits. */
export const UZ_NUMBER_LENGTH = 12;
export const UZ_PREFIX = 998;
export const SHA256_HEX_LENGTH = 64;
const EXAMPLES_SHOWN = 5;
const EXAMPLE_MAX_CHARS = 40;

/**
 * Phone numbers are kept as their nine digits after 998, one integer each (below 2^30), in a
 * growable Uint32Array, deduplicated by a radix sort: for a million numbers this is several times
 * faster than a Set of strings, and formatted numbers never become intermediate strings. Hashes
 * keep a Set of strings.
 */
export interface Scan {
	phones: Uint32Array;
	phoneCount: number;
	hashes: Set<string>;
	hashDuplicates: number;
	invalid: number;
	examples: string[];
	/** Line numbers of the first invalid entries, when entries are pointed out by line. */
	lines?: number[];
	/** The line being read (from 1), when entries are pointed out by line. */
	line: number;
	empty: number;
}

// Character codes.
const COMMA = 44;
export const LF = 10;
export const CR = 13;
const MIN_UZ_KEY = UZ_PREFIX * 1e9;
const MAX_UZ_KEY = MIN_UZ_KEY + 999_999_999;

/** Characters stripped from a phone number, since the API takes digits only: + - ( ). */
function isFormatting(c: number): boolean {
	return c === 43 || c === 45 || c === 40 || c === 41;
}

function isBlank(c: number): boolean {
	// space, tab, no-break space, and the quotes a CSV cell may carry
	return c === 32 || c === 9 || c === 160 || c === 34 || c === 39;
}

function addInvalid(scan: Scan, text: string, start: number, end: number): void {
	scan.invalid++;
	if (scan.lines) {
		if (scan.lines.length < EXAMPLES_SHOWN) scan.lines.push(scan.line);
	} else if (scan.examples.length < EXAMPLES_SHOWN) {
		const shown = text.slice(start, end).trim();
		scan.examples.push(
			shown.length > EXAMPLE_MAX_CHARS ? `${shown.slice(0, EXAMPLE_MAX_CHARS)}…` : shown,
		);
	}
}

/** Keeps a 998 number (MIN_UZ_KEY..MAX_UZ_KEY) as the integer of its last nine digits. */
function addPhone(scan: Scan, key: number): void {
	if (scan.phoneCount === scan.phones.length) {
		const grown = new Uint32Array(scan.phones.length * 2);
		grown.set(scan.phones);
		scan.phones = grown;
	}
	scan.phones[scan.phoneCount++] = key - MIN_UZ_KEY;
}

function addHash(scan: Scan, entry: string): void {
	const before = scan.hashes.size;
	scan.hashes.add(entry);
	if (scan.hashes.size === before) scan.hashDuplicates++;
}

/** The 64 hex characters of text[start, end), lower-cased, without the blanks around them. */
function hexOf(text: string, start: number, end: number): string {
	let out = '';
	for (let k = start; k < end; k++) {
		const c = text.charCodeAt(k);
		if ((c >= 48 && c <= 57) || (c >= 97 && c <= 102)) out += text[k];
		else if (c >= 65 && c <= 70) out += String.fromCharCode(c + 32);
	}
	return out;
}

/**
 * Reads every entry of `text` (entries separated by commas or line breaks, as the API reads them) into `scan`,
 * in one pass over the characters.
 */
export function scanText(text: string, scan: Scan, from = 0): void {
	const length = text.length;
	let start = from;
	let digits = 0;
	let key = 0;
	let hexLetters = 0;
	let upper = 0;
	let formatting = 0;
	let blanks = 0;
	let other = 0;
	for (let i = from; i <= length; i++) {
		const c = i < length ? text.charCodeAt(i) : LF;
		if (c >= 48 && c <= 57) {
			if (digits < UZ_NUMBER_LENGTH) key = key * 10 + (c - 48);
			digits++;
		} else if (c === COMMA || c === LF || c === CR) {
			if (digits + hexLetters + formatting + other > 0) {
				if (other > 0) {
					addInvalid(scan, text, start, i);
				} else if (hexLetters > 0 || digits === SHA256_HEX_LENGTH) {
					if (formatting > 0 || digits + hexLetters !== SHA256_HEX_LENGTH)
						addInvalid(scan, text, start, i);
					else addHash(scan, blanks + upper === 0 ? text.slice(start, i) : hexOf(text, start, i));
				} else if (digits === UZ_NUMBER_LENGTH && key >= MIN_UZ_KEY && key <= MAX_UZ_KEY) {
					addPhone(scan, key);
				} else {
					addInvalid(scan, text, start, i);
				}
			}
			start = i + 1;
			digits = key = hexLetters = upper = formatting = blanks = other = 0;
			// CR LF ends one line: it is counted at the LF.
			if (c === LF || (c === CR && text.charCodeAt(i + 1) !== LF)) scan.line++;
		} else if (c >= 97 && c <= 102) {
			hexLetters++;
		} else if (c >= 65 && c <= 70) {
			hexLetters++;
			upper++;
		} else if (isBlank(c)) {
			blanks++;
		} else if (isFormatting(c)) {
			formatting++;
		} else {
			other++;
		}
	}
}

export function scanValue(value: unknown, scan: Scan): void {
	if (typeof value === 'string') {
		const before = scan.phoneCount + scan.hashes.size + scan.hashDuplicates + scan.invalid;
		scanText(value, scan);
		if (scan.phoneCount + scan.hashes.size + scan.hashDuplicates + scan.invalid === before)
			scan.empty++;
	} else if (typeof value === 'number') {
		// A spreadsheet cell often arrives as a number: take it without a detour through text.
		if (Number.isInteger(value) && value >= MIN_UZ_KEY && value <= MAX_UZ_KEY)
			addPhone(scan, value);
		else scanText(String(value), scan);
	} else if (Array.isArray(value)) {
		if (value.length === 0) scan.empty++;
		for (const inner of value) scanValue(inner, scan);
	} else if (value === undefined || value === null) {
		scan.empty++;
	} else {
		// An object or boolean is not a phone number; show it as given.
		const shown =
			typeof value === 'bigint' ? String(value) : (JSON.stringify(value) ?? String(value));
		if (typeof value === 'bigint') scanText(shown, scan);
		else addInvalid(scan, shown, 0, shown.length);
	}
}

export function newScan(byLine = false): Scan {
	return {
		phones: new Uint32Array(1024),
		phoneCount: 0,
		hashes: new Set(),
		hashDuplicates: 0,
		invalid: 0,
		examples: [],
		...(byLine ? { lines: [] } : {}),
		line: 1,
		empty: 0,
	};
}
