import type { UploadedFile } from '../types';

/** An audience file is at most 10 MB and holds at least 1,000 numbers. */
const AUDIENCE_MAX_BYTES = 10 * 1024 * 1024;
const AUDIENCE_MIN_ENTRIES = 1000;

const TEXT_TYPES = ['text/csv', 'text/plain', 'application/csv', 'text/comma-separated-values'];
const SHA256 = /^[0-9a-f]{64}$/i;
const UZ_PHONE = /^998\d{9}$/;

/** What is wrong with one entry, or null when it is a valid number or SHA256 hash. */
function entryProblem(entry: string): string | null {
	if (SHA256.test(entry) || UZ_PHONE.test(entry)) return null;
	if (!/^\d+$/.test(entry))
		return 'must contain digits only, without a plus sign or other symbols (or be a 64-character SHA256 hash)';
	if (!entry.startsWith('998')) return 'must be in international format starting with 998';
	return 'must be 12 digits: 998 followed by 9 digits';
}

/** Checks an audience file's type, size, entries and count; returns entries and broken rules. */
export function checkAudienceFile(file: UploadedFile): { entries: string[]; problems: string[] } {
	const problems: string[] = [];
	const extension = /\.(csv|txt)$/i.test(file.filename);
	const type = TEXT_TYPES.includes(file.type.split(';')[0].trim().toLowerCase());
	if (!extension && !type) {
		problems.push(
			`the file must be CSV or txt (got filename "${file.filename}", content type "${file.type}")`,
		);
	}
	if (file.size > AUDIENCE_MAX_BYTES) {
		problems.push(
			`the file must be at most 10 MB (${AUDIENCE_MAX_BYTES} bytes), got ${file.size} bytes`,
		);
		return { entries: [], problems };
	}
	if (problems.length > 0) return { entries: [], problems };
	const entries = file.bytes
		.toString('utf8')
		.replace(/^\uFEFF/, '')
		.split(/[,\r\n]+/)
		.map((e) => e.trim())
		.filter((e) => e !== '');
	const bad = entries
		.map((entry, index) => ({ entry, index, problem: entryProblem(entry) }))
		.filter((e) => e.problem);
	if (bad.length > 0) {
		const first = bad[0];
		problems.push(
			`entry ${first.index + 1} (${JSON.stringify(first.entry)}) ${first.problem}; ${bad.length} invalid entr${bad.length === 1 ? 'y' : 'ies'} in total`,
		);
	}
	if (entries.length < AUDIENCE_MIN_ENTRIES) {
		problems.push(`at least 1,000 numbers are required, got ${entries.length}`);
	}
	return { entries, problems };
}
