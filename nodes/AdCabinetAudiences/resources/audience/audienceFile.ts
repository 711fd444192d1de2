import { createHash, hash as oneShotHash } from 'node:crypto';
import {
	CR,
	LF,
	newScan,
	scanText,
	scanValue,
	SHA256_HEX_LENGTH,
	UZ_NUMBER_LENGTH,
	UZ_PREFIX,
	type Scan,
} from './audienceEntries';

export { UZ_NUMBER_LENGTH } from './audienceEntries';

/**
 * Builds the phone-number audience file (docs/api-rules.md#audiences) from raw values: normalizes each entry, drops
 * duplicates, checks every entry and the file rules, and (optionally) hashes each number with
 * SHA-256 locally. Pure and synchronous: no n8n, no I/O.
 */

/** The API refuses a file over 10 MB. */
export const AUDIENCE_MAX_BYTES = 10 * 1024 * 1024;
/** The API refuses a file of fewer than 1,000 numbers. */
export const AUDIENCE_MIN_NUMBERS = 1000;

export type AudienceRule = 'noEntries' | 'invalidEntries' | 'mixedFormats' | 'tooFew' | 'tooLarge';

export interface AudienceReport {
	/** Entries in the file to upload (unique, valid). */
	valid: number;
	/** Entries that are neither a 998 number nor a SHA-256 hash. */
	invalid: number;
	/** The first few invalid entries as given (not for a file: see invalidLines). */
	invalidExamples: string[];
	/** For a file: the line numbers of the first few invalid entries, which are not quoted. */
	invalidLines?: number[];
	duplicatesRemoved: number;
	/** Values that were empty (an input item without the field, for example). */
	emptySkipped: number;
	/** Unique valid entries given as phone numbers. */
	phoneNumbers: number;
	/** Unique valid entries given as SHA-256 hashes. */
	sha256Hashes: number;
	/** Whether the file holds SHA-256 hashes (given, or made here). */
	hashed: boolean;
	/** Size of the file to upload. */
	fileBytes: number;
	/** A first line without digits, taken as a column header and left out. */
	headerSkipped?: string;
}

export interface AudienceProblem {
	rule: AudienceRule;
	/** What is wrong, with the counts. */
	message: string;
}

export interface AudienceBuild {
	/** The file: one entry per line. Empty when there is a problem. */
	content: string;
	report: AudienceReport;
	problem?: AudienceProblem;
}

export interface AudienceOptions {
	/** Replace each phone number by its SHA-256 hex digest (given hashes are kept). */
	hash: boolean;
	/** Leave out a first line that holds no digits (a CSV header). */
	skipHeader?: boolean;
	minNumbers?: number;
	maxBytes?: number;
	/**
	 * How invalid entries are pointed out: quoted ('entries', for values typed or mapped in n8n), or
	 * by line number only ('lines', for a file, whose content never appears in an error).
	 */
	invalidAs?: 'entries' | 'lines';
}

// The one-shot crypto.hash (Node 20.12+) is about 2.5 times faster per call than createHash().
const sha256Hex: (data: Uint8Array) => string =
	typeof oneShotHash === 'function'
		? (data) => oneShotHash('sha256', data, 'hex')
		: (data) => createHash('sha256').update(data).digest('hex');

const SUBSCRIBER_DIGITS = UZ_NUMBER_LENGTH - 3;
const SUBSCRIBER_PAD = '0'.repeat(SUBSCRIBER_DIGITS);

/** The 12 digits of a kept phone number. */
function phoneText(subscriber: number): string {
	const digits = String(subscriber);
	return `${UZ_PREFIX}${SUBSCRIBER_PAD.slice(digits.length)}${digits}`;
}

/** Writes the last nine digits of a kept phone number into `bytes` (whose first three hold 998), as ASCII. */
function writeSubscriber(bytes: Uint8Array, subscriber: number): void {
	let rest = subscriber;
	for (let k = UZ_NUMBER_LENGTH - 1; k >= 3; k--) {
		const tens = (rest / 10) | 0;
		bytes[k] = 48 + rest - tens * 10;
		rest = tens;
	}
}

const RADIX_BITS = 15;
const RADIX = 1 << RADIX_BITS;

/**
 * Sorts the kept numbers (each below 2^30) in place: two counting passes of 15 bits each. For a
 * million numbers several times faster than TypedArray.prototype.sort.
 */
function radixSort(keys: Uint32Array): void {
	const counts = new Uint32Array(RADIX);
	let from: Uint32Array = keys;
	let to: Uint32Array = new Uint32Array(keys.length);
	for (let shift = 0; shift < 2 * RADIX_BITS; shift += RADIX_BITS) {
		counts.fill(0);
		for (let i = 0; i < from.length; i++) counts[(from[i] >>> shift) & (RADIX - 1)]++;
		let sum = 0;
		for (let b = 0; b < RADIX; b++) {
			const count = counts[b];
			counts[b] = sum;
			sum += count;
		}
		for (let i = 0; i < from.length; i++) {
			const key = from[i];
			to[counts[(key >>> shift) & (RADIX - 1)]++] = key;
		}
		[from, to] = [to, from];
	}
	// An even number of passes leaves the sorted keys back in `keys`.
}

/** Sorts the phone keys and moves the unique ones to the front; returns how many are unique. */
function dedupePhones(scan: Scan): number {
	if (scan.phoneCount === 0) return 0;
	const keys = scan.phones.subarray(0, scan.phoneCount);
	radixSort(keys);
	let unique = 1;
	for (let i = 1; i < keys.length; i++) {
		if (keys[i] !== keys[unique - 1]) keys[unique++] = keys[i];
	}
	return unique;
}

function plural(count: number, one: string, many = `${one}s`): string {
	return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

/** The counts every refusal and the success report carry. */
export function describeCounts(report: AudienceReport): string {
	const parts = [`${plural(report.valid, 'valid unique entry', 'valid unique entries')}`];
	const lines = report.invalidLines;
	const where = !lines
		? `first: ${report.invalidExamples.map((example) => `"${example}"`).join(', ')}`
		: `${lines.length < report.invalid ? 'the first ' : ''}on ${lines.length === 1 ? 'line' : 'lines'} ${lines
				.map((line) => line.toLocaleString('en-US'))
				.join(', ')}`;
	parts.push(
		report.invalid
			? `${plural(report.invalid, 'invalid entry', 'invalid entries')} (${where})`
			: '0 invalid entries',
	);
	parts.push(`${plural(report.duplicatesRemoved, 'duplicate')} removed`);
	if (report.emptySkipped) parts.push(`${plural(report.emptySkipped, 'empty value')} skipped`);
	return parts.join(', ');
}

function finish(scan: Scan, options: AudienceOptions, headerSkipped?: string): AudienceBuild {
	const phones = dedupePhones(scan);
	const hashes = scan.hashes.size;
	const valid = phones + hashes;
	const hashed = hashes > 0 || (options.hash && phones > 0);
	const entryLength = hashed ? SHA256_HEX_LENGTH : UZ_NUMBER_LENGTH;
	const report: AudienceReport = {
		valid,
		invalid: scan.invalid,
		invalidExamples: scan.examples,
		...(scan.lines ? { invalidLines: scan.lines } : {}),
		duplicatesRemoved: scan.phoneCount - phones + scan.hashDuplicates,
		emptySkipped: scan.empty,
		phoneNumbers: phones,
		sha256Hashes: hashes,
		hashed,
		// Every entry has a fixed length, so the size is known before the file is built.
		fileBytes: valid === 0 ? 0 : valid * (entryLength + 1) - 1,
	};
	if (headerSkipped !== undefined) report.headerSkipped = headerSkipped;
	const problem = problemOf(report, options);
	if (problem) return { content: '', report, problem };
	const lines = new Array<string>(valid);
	if (hashes > 0) {
		let n = 0;
		for (const entry of scan.hashes) lines[n++] = entry;
	} else if (options.hash) {
		// Each number is hashed from its 12 ASCII digits in one reused buffer, without a string.
		const digits = new Uint8Array(UZ_NUMBER_LENGTH);
		for (let k = 0; k < 3; k++) digits[k] = String(UZ_PREFIX).charCodeAt(k);
		for (let i = 0; i < phones; i++) {
			writeSubscriber(digits, scan.phones[i]);
			lines[i] = sha256Hex(digits);
		}
	} else {
		for (let i = 0; i < phones; i++) lines[i] = phoneText(scan.phones[i]);
	}
	return { content: lines.join('\n'), report };
}

/** The first file rule the entries break, in the order a user fixes them. */
function problemOf(report: AudienceReport, options: AudienceOptions): AudienceProblem | undefined {
	const minNumbers = options.minNumbers ?? AUDIENCE_MIN_NUMBERS;
	const maxBytes = options.maxBytes ?? AUDIENCE_MAX_BYTES;
	const counts = describeCounts(report);
	if (report.valid === 0 && report.invalid === 0) {
		return { rule: 'noEntries', message: `no phone numbers or SHA-256 hashes found (${counts})` };
	}
	if (report.invalid > 0) {
		return {
			rule: 'invalidEntries',
			message: `every entry must be a phone number of ${UZ_NUMBER_LENGTH} digits starting with ${UZ_PREFIX}, or a SHA-256 hash of 64 hex characters; found ${counts}`,
		};
	}
	if (report.phoneNumbers > 0 && report.sha256Hashes > 0) {
		return {
			rule: 'mixedFormats',
			message: `entries must be all phone numbers or all SHA-256 hashes, not a mix; found ${plural(report.phoneNumbers, 'phone number')} and ${plural(report.sha256Hashes, 'hash', 'hashes')} (${counts})`,
		};
	}
	if (report.valid < minNumbers) {
		return {
			rule: 'tooFew',
			message: `an audience needs at least ${minNumbers.toLocaleString('en-US')} numbers after normalization and duplicate removal; found ${counts}`,
		};
	}
	if (report.fileBytes > maxBytes) {
		return {
			rule: 'tooLarge',
			message: `the audience file may be at most ${formatBytes(maxBytes)} (${maxBytes.toLocaleString('en-US')} bytes); ${plural(report.valid, 'entry', 'entries')}${report.hashed ? ' as SHA-256 hashes' : ''} make ${report.fileBytes.toLocaleString('en-US')} bytes. Split the numbers into several audiences (${counts})`,
		};
	}
	return undefined;
}

function formatBytes(bytes: number): string {
	if (bytes < 1024) return `${bytes} bytes`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
	return `${(bytes / (1024 * 1024)).toFixed(2).replace(/\.?0+$/, '')} MB`;
}

/**
 * Builds the file from values collected across input items: strings (one or more entries separated
 * by commas or line breaks), numbers, or arrays of those. Empty values are counted and skipped.
 */
export function buildAudienceFromValues(
	values: Iterable<unknown>,
	options: AudienceOptions,
): AudienceBuild {
	const scan = newScan();
	for (const value of values) scanValue(value, scan);
	return finish(scan, options);
}

/** Builds the file from the text of a CSV or txt file (entries separated by commas or line breaks). */
export function buildAudienceFromText(text: string, options: AudienceOptions): AudienceBuild {
	const scan = newScan(options.invalidAs === 'lines');
	let from = text.charCodeAt(0) === 0xfeff ? 1 : 0;
	let headerSkipped: string | undefined;
	if (options.skipHeader) {
		let end = from;
		let hasDigit = false;
		while (end < text.length) {
			const c = text.charCodeAt(end);
			if (c === LF || c === CR) break;
			if (c >= 48 && c <= 57) hasDigit = true;
			end++;
		}
		const firstLine = text.slice(from, end).trim();
		if (!hasDigit && firstLine !== '' && end < text.length) {
			headerSkipped = firstLine;
			from = end;
		}
	}
	// A skipped header is line 1; the line break after it is read by scanText.
	scanText(text, scan, from);
	return finish(scan, options, headerSkipped);
}
