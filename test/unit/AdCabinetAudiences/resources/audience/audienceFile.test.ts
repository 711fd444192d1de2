import { createHash } from 'node:crypto';
import {
	AUDIENCE_MIN_NUMBERS,
	buildAudienceFromText,
	buildAudienceFromValues,
	describeCounts,
	type AudienceReport,
} from '../../../../../nodes/AdCabinetAudiences/resources/audience/audienceFile';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
/** n distinct valid numbers 998 90 000 00 00, 998 90 000 00 01, … */
const numbers = (n: number, from = 0) =>
	Array.from({ length: n }, (_, i) => `99890${String(from + i).padStart(7, '0')}`);
const one = { hash: false, minNumbers: 1 };

describe('entries: what counts as a phone number or a hash', () => {
	test.each([
		['998901234567', '998901234567'],
		['+998 90 123-45-67', '998901234567'],
		['(998) 90 123 45 67', '998901234567'],
		['\u00a0998901234567\t', '998901234567'],
		["'998901234567'", '998901234567'],
		['998000000001', '998000000001'],
		['998999999999', '998999999999'],
	])('%j is the number %s', (given, file) => {
		const build = buildAudienceFromValues([given], one);
		expect(build.problem).toBeUndefined();
		expect(build.content).toBe(file);
	});

	test.each([
		['997901234567'],
		['99890123456'],
		['9989012345678'],
		['998 90 123 45 6x'],
		['998.901.234.567'],
		['phone'],
		['+'],
		['#998901234567'],
	])('%j is not a valid entry and is shown as given', (given) => {
		const build = buildAudienceFromValues([given], one);
		expect(build.problem?.rule).toBe('invalidEntries');
		expect(build.report.invalidExamples).toEqual([given.trim()]);
		expect(build.content).toBe('');
	});

	test('numbers and bigints from a sheet are read like text; fractions, objects and booleans are not numbers', () => {
		expect(buildAudienceFromValues([998901234567, 998901234568n], one).content).toBe(
			'998901234567\n998901234568',
		);
		const build = buildAudienceFromValues(
			[998901234567.5, { phone: '998901234567' }, false, 42],
			one,
		);
		expect(build.report.invalid).toBe(4);
		expect(build.report.invalidExamples).toEqual([
			'998901234567.5',
			'{"phone":"998901234567"}',
			'false',
			'42',
		]);
	});

	test('SHA-256 hashes: 64 hex characters, lower-cased, blanks and quotes dropped; anything near it is invalid', () => {
		const h = sha('998901234567');
		const build = buildAudienceFromValues(
			[h.toUpperCase(), ` "${sha('998901234568')}" `, '1'.repeat(64)],
			{ hash: true, minNumbers: 1 },
		);
		expect(build.problem).toBeUndefined();
		expect(build.content.split('\n')).toEqual([h, sha('998901234568'), '1'.repeat(64)]);
		expect(build.report).toMatchObject({ sha256Hashes: 3, phoneNumbers: 0, hashed: true });
		for (const bad of [
			h.slice(1),
			`${h}0`,
			`${h.slice(0, 8)}-${h.slice(8)}`,
			`${h.slice(0, 63)}g`,
		]) {
			expect(buildAudienceFromValues([bad], { hash: true, minNumbers: 1 }).report.invalid).toBe(1);
		}
	});

	test('entries are separated by commas and line breaks in a value; empty values and empty strings are counted apart', () => {
		const build = buildAudienceFromValues(
			['998901234567, 998901234568\r\n\r\n998901234569', ',, \n', '', null, undefined, []],
			one,
		);
		expect(build.report).toMatchObject({ valid: 3, emptySkipped: 5, invalid: 0 });
	});
});

describe('the file', () => {
	test('numbers are unique and in ascending order, one per line, and the size is known before it is built', () => {
		const values = [...numbers(3000)].reverse();
		values.push('998900000005', '+998 90 000 00 07');
		const build = buildAudienceFromValues(values, { hash: false });
		expect(build.problem).toBeUndefined();
		expect(build.content).toBe(numbers(3000).join('\n'));
		expect(build.report).toMatchObject({
			valid: 3000,
			duplicatesRemoved: 2,
			fileBytes: 3000 * 13 - 1,
			hashed: false,
		});
		expect(build.content.length).toBe(build.report.fileBytes);
	});

	test("hashing hashes each number's 12 digits, leading zeros after 998 included", () => {
		const build = buildAudienceFromValues(['998000000001', '998000123456'], {
			hash: true,
			minNumbers: 1,
		});
		expect(build.content).toBe([sha('998000000001'), sha('998000123456')].join('\n'));
		expect(build.report).toMatchObject({
			hashed: true,
			fileBytes: 2 * 65 - 1,
			phoneNumbers: 2,
			sha256Hashes: 0,
		});
	});

	test('given hashes are kept in the order given and never hashed again; duplicates are counted', () => {
		const a = sha('a');
		const b = sha('b');
		const build = buildAudienceFromValues([b, a, b.toUpperCase()], { hash: true, minNumbers: 1 });
		expect(build.content).toBe(`${b}\n${a}`);
		expect(build.report.duplicatesRemoved).toBe(1);
	});
});

describe('file rules, in the order a user fixes them', () => {
	test('no entries at all', () => {
		const build = buildAudienceFromValues(['', '  '], { hash: true });
		expect(build.problem).toEqual({
			rule: 'noEntries',
			message:
				'no phone numbers or SHA-256 hashes found (0 valid unique entries, 0 invalid entries, 0 duplicates removed, 2 empty values skipped)',
		});
	});

	test('invalid entries come before every other rule, with at most five examples of at most 40 characters', () => {
		const long = `x${'9'.repeat(60)}`;
		const build = buildAudienceFromValues(
			[sha('a'), '998901234567', long, 'b', 'c', 'd', 'e', 'f'],
			{ hash: true },
		);
		expect(build.problem?.rule).toBe('invalidEntries');
		expect(build.report.invalid).toBe(6);
		expect(build.report.invalidExamples).toEqual([`${long.slice(0, 40)}…`, 'b', 'c', 'd', 'e']);
	});

	test('a mix of numbers and hashes comes before too few', () => {
		const build = buildAudienceFromValues(['998901234567', sha('a')], { hash: true });
		expect(build.problem?.rule).toBe('mixedFormats');
		expect(build.problem?.message).toBe(
			'entries must be all phone numbers or all SHA-256 hashes, not a mix; found 1 phone number and 1 hash (2 valid unique entries, 0 invalid entries, 0 duplicates removed)',
		);
	});

	test('too few counts unique entries, against the default minimum or the one given', () => {
		expect(
			buildAudienceFromValues(numbers(AUDIENCE_MIN_NUMBERS - 1), { hash: false }).problem?.rule,
		).toBe('tooFew');
		expect(
			buildAudienceFromValues(numbers(AUDIENCE_MIN_NUMBERS), { hash: false }).problem,
		).toBeUndefined();
		const build = buildAudienceFromValues([...numbers(4), ...numbers(4)], {
			hash: false,
			minNumbers: 5,
		});
		expect(build.problem?.message).toBe(
			'an audience needs at least 5 numbers after normalization and duplicate removal; found 4 valid unique entries, 0 invalid entries, 4 duplicates removed',
		);
	});

	test('too large counts the bytes of the file as it would be sent, hashed or not', () => {
		const raw = buildAudienceFromValues(numbers(8), { hash: false, minNumbers: 1, maxBytes: 100 });
		expect(raw.report.fileBytes).toBe(103);
		expect(raw.problem?.message).toBe(
			'the audience file may be at most 100 bytes (100 bytes); 8 entries make 103 bytes. Split the numbers into several audiences (8 valid unique entries, 0 invalid entries, 0 duplicates removed)',
		);
		const hashed = buildAudienceFromValues(numbers(40), {
			hash: true,
			minNumbers: 1,
			maxBytes: 2048,
		});
		expect(hashed.problem?.message).toMatch(
			/^the audience file may be at most 2\.0 KB \(2,048 bytes\); 40 entries as SHA-256 hashes make 2,599 bytes\./,
		);
		expect(
			buildAudienceFromValues(numbers(40), { hash: false, minNumbers: 1, maxBytes: 2048 }).problem,
		).toBeUndefined();
		const megabyte = buildAudienceFromValues(numbers(80_700), {
			hash: false,
			maxBytes: 1024 * 1024,
		});
		expect(megabyte.problem?.message).toMatch(
			/^the audience file may be at most 1 MB \(1,048,576 bytes\); 80,700 entries make 1,049,099 bytes\./,
		);
	});
});

describe('buildAudienceFromText', () => {
	test('a header line without digits is skipped when asked; a line with digits is not a header', () => {
		const text = `Phone number\n${numbers(3).join('\n')}`;
		expect(buildAudienceFromText(text, { ...one, skipHeader: true }).report).toMatchObject({
			valid: 3,
			headerSkipped: 'Phone number',
			invalid: 0,
		});
		const digits = buildAudienceFromText(`phone1\n${numbers(3).join('\n')}`, {
			...one,
			skipHeader: true,
		});
		expect(digits.report.headerSkipped).toBeUndefined();
		expect(digits.report.invalidExamples).toEqual(['phone1']);
		// A lone line is the data, not a header.
		expect(
			buildAudienceFromText('phone', { ...one, skipHeader: true }).report.invalidExamples,
		).toEqual(['phone']);
	});

	test('a byte order mark is dropped, also before a header', () => {
		expect(buildAudienceFromText(`\uFEFF${numbers(2).join(',')}`, one).content).toBe(
			numbers(2).join('\n'),
		);
		const withHeader = buildAudienceFromText(`\uFEFFphone\r\n${numbers(2).join('\r\n')}`, {
			...one,
			skipHeader: true,
		});
		expect(withHeader.report.headerSkipped).toBe('phone');
		expect(withHeader.content).toBe(numbers(2).join('\n'));
	});

	test('an empty text has no entries', () => {
		expect(buildAudienceFromText('', one).problem?.rule).toBe('noEntries');
	});
});

describe('describeCounts', () => {
	const report = (over: Partial<AudienceReport>): AudienceReport => ({
		valid: 0,
		invalid: 0,
		invalidExamples: [],
		duplicatesRemoved: 0,
		emptySkipped: 0,
		phoneNumbers: 0,
		sha256Hashes: 0,
		hashed: false,
		fileBytes: 0,
		...over,
	});

	test('singular and plural, thousands separators, empty values only when there were some', () => {
		expect(
			describeCounts(
				report({
					valid: 1,
					invalid: 1,
					invalidExamples: ['x'],
					duplicatesRemoved: 1,
					emptySkipped: 1,
				}),
			),
		).toBe(
			'1 valid unique entry, 1 invalid entry (first: "x"), 1 duplicate removed, 1 empty value skipped',
		);
		expect(describeCounts(report({ valid: 12345, duplicatesRemoved: 2 }))).toBe(
			'12,345 valid unique entries, 0 invalid entries, 2 duplicates removed',
		);
	});
});
