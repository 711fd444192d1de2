import { createHash } from 'node:crypto';
import {
	AUDIENCE_MAX_BYTES,
	buildAudienceFromText,
	buildAudienceFromValues,
} from '../../nodes/AdCabinetAudiences/resources/audience/audienceFile';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
/** n distinct valid numbers 998 90 000 00 00, 998 90 000 00 01, … */
const numbers = (n: number, from = 0) =>
	Array.from({ length: n }, (_, i) => `99890${String(from + i).padStart(7, '0')}`);
const small = { hash: false, minNumbers: 1 };

describe('audience file builder', () => {
	test('strips +, spaces, dashes, brackets and quotes, and accepts numbers given as numbers', () => {
		const build = buildAudienceFromValues(
			[
				'+998 90 123 45 67',
				'998-90-123-45-68',
				'+998 (90) 123-45-69',
				998901234570,
				'"998901234571"',
				' 998901234572 ',
			],
			small,
		);
		expect(build.problem).toBeUndefined();
		expect(build.content.split('\n').sort()).toEqual([
			'998901234567',
			'998901234568',
			'998901234569',
			'998901234570',
			'998901234571',
			'998901234572',
		]);
		expect(build.report).toMatchObject({
			valid: 6,
			invalid: 0,
			duplicatesRemoved: 0,
			phoneNumbers: 6,
			hashed: false,
		});
	});

	test('drops duplicates after normalization and counts them', () => {
		const build = buildAudienceFromValues(
			['998901234567', '+998 90 123-45-67', 998901234567, '998901234568'],
			small,
		);
		expect(build.content.split('\n').sort()).toEqual(['998901234567', '998901234568']);
		expect(build.report.duplicatesRemoved).toBe(2);
		expect(build.report.valid).toBe(2);
	});

	test('hashes each normalized number with SHA-256 (lower-case hex) when asked', () => {
		const build = buildAudienceFromValues(['+998 90 123 45 67', '998901234568'], {
			hash: true,
			minNumbers: 1,
		});
		expect(build.content.split('\n').sort()).toEqual(
			[sha('998901234567'), sha('998901234568')].sort(),
		);
		expect(build.report).toMatchObject({
			hashed: true,
			phoneNumbers: 2,
			sha256Hashes: 0,
			fileBytes: 129,
		});
		expect(build.content.length).toBe(build.report.fileBytes);
	});

	test('keeps given SHA-256 hashes as they are (lower-cased, deduplicated, never hashed twice)', () => {
		const h = sha('998901234567');
		const build = buildAudienceFromValues([h, h.toUpperCase(), ` ${sha('998901234568')} `], {
			hash: true,
			minNumbers: 1,
		});
		expect(build.content.split('\n')).toEqual([h, sha('998901234568')]);
		expect(build.report).toMatchObject({
			valid: 2,
			duplicatesRemoved: 1,
			sha256Hashes: 2,
			phoneNumbers: 0,
			hashed: true,
		});
	});

	test('splits strings on commas and line breaks, flattens arrays and counts empty values', () => {
		const build = buildAudienceFromValues(
			[
				'998901234567,998901234568\r\n998901234569',
				['998901234570', 998901234571],
				undefined,
				null,
				'',
				[],
				'   ',
			],
			small,
		);
		expect(build.report.valid).toBe(5);
		expect(build.report.emptySkipped).toBe(5);
	});

	test('refuses invalid entries, reporting counts and the first few examples as given', () => {
		const build = buildAudienceFromValues(
			[
				...numbers(1000),
				'abc',
				'12345',
				'+7 999 123-45-67',
				'9989012345678',
				'998 90 12x 45 67',
				'x1',
				'x2',
				{ phone: 1 },
				true,
			],
			{ hash: true },
		);
		expect(build.problem?.rule).toBe('invalidEntries');
		expect(build.content).toBe('');
		expect(build.report).toMatchObject({ valid: 1000, invalid: 9 });
		expect(build.report.invalidExamples).toEqual([
			'abc',
			'12345',
			'+7 999 123-45-67',
			'9989012345678',
			'998 90 12x 45 67',
		]);
		expect(build.problem?.message).toBe(
			'every entry must be a phone number of 12 digits starting with 998, or a SHA-256 hash of 64 hex characters; found 1,000 valid unique entries, 9 invalid entries (first: "abc", "12345", "+7 999 123-45-67", "9989012345678", "998 90 12x 45 67"), 0 duplicates removed',
		);
	});

	test("a file's invalid entries are pointed out by line number, never quoted (CRLF, lone CR, commas, a header)", () => {
		const lines = [
			'phone',
			...numbers(998),
			'token=abc123',
			'998901234567,secret-1',
			'x\ry',
			...numbers(6, 5000),
		];
		const text = `${lines.slice(0, 1000).join('\r\n')}\r\n${lines.slice(1000).join('\n')}`;
		const build = buildAudienceFromText(text, { hash: true, skipHeader: true, invalidAs: 'lines' });
		expect(build.report).toMatchObject({
			invalid: 4,
			invalidExamples: [],
			invalidLines: [1000, 1001, 1002, 1003],
			headerSkipped: 'phone',
		});
		expect(build.problem?.message).toBe(
			'every entry must be a phone number of 12 digits starting with 998, or a SHA-256 hash of 64 hex characters; found 1,005 valid unique entries, 4 invalid entries (on lines 1,000, 1,001, 1,002, 1,003), 0 duplicates removed',
		);
		const many = buildAudienceFromText(Array.from({ length: 7 }, (_, i) => `bad${i}`).join('\n'), {
			hash: true,
			invalidAs: 'lines',
		});
		expect(many.problem?.message).toContain('7 invalid entries (the first on lines 1, 2, 3, 4, 5)');
		expect(many.problem?.message).not.toContain('bad');
	});

	test('refuses a mix of raw numbers and hashes', () => {
		const build = buildAudienceFromValues([...numbers(1000), sha('998901234567')], { hash: true });
		expect(build.problem?.rule).toBe('mixedFormats');
		expect(build.problem?.message).toContain('found 1,000 phone numbers and 1 hash');
	});

	test('refuses fewer than 1,000 numbers after normalization and duplicate removal', () => {
		const values = [...numbers(999), ...numbers(300).map((n) => `+${n}`)];
		const build = buildAudienceFromValues(values, { hash: true });
		expect(build.problem?.rule).toBe('tooFew');
		expect(build.problem?.message).toBe(
			'an audience needs at least 1,000 numbers after normalization and duplicate removal; found 999 valid unique entries, 0 invalid entries, 300 duplicates removed',
		);
		expect(buildAudienceFromValues(numbers(1000), { hash: true }).problem).toBeUndefined();
	});

	test('refuses a file over 10 MB, counting the bytes of what would be sent', () => {
		// 161,320 hashes make 161,320 × 65 − 1 bytes: just over 10 MB; as raw numbers they would fit.
		const values = numbers(161_320);
		const hashed = buildAudienceFromValues(values, { hash: true });
		expect(hashed.report.fileBytes).toBeGreaterThan(AUDIENCE_MAX_BYTES);
		expect(hashed.problem?.rule).toBe('tooLarge');
		expect(hashed.problem?.message).toContain(
			'the audience file may be at most 10 MB (10,485,760 bytes); 161,320 entries as SHA-256 hashes make 10,485,799 bytes.',
		);
		const raw = buildAudienceFromValues(values, { hash: false });
		expect(raw.problem).toBeUndefined();
		expect(raw.content.length).toBe(raw.report.fileBytes);
	});

	test('reads a CSV or txt text: BOM, CRLF, commas, blank lines, and a header line without digits', () => {
		const text = `\uFEFFphone\r\n${numbers(600).join('\r\n')}\r\n\r\n${numbers(400, 600).join(',')}\n`;
		const build = buildAudienceFromText(text, { hash: false, skipHeader: true });
		expect(build.problem).toBeUndefined();
		expect(build.report).toMatchObject({ valid: 1000, headerSkipped: 'phone', invalid: 0 });
		expect(build.content.split('\n').sort()).toEqual(numbers(1000));
		const noHeader = buildAudienceFromText(text, { hash: false });
		expect(noHeader.problem?.rule).toBe('invalidEntries');
		expect(noHeader.report.invalidExamples).toEqual(['phone']);
	});

	test('an input without any entry is reported as such', () => {
		expect(buildAudienceFromValues([undefined, '', null], { hash: true }).problem?.rule).toBe(
			'noEntries',
		);
		expect(buildAudienceFromText('\n\n', { hash: true }).problem?.rule).toBe('noEntries');
	});

	test('mixed-format numbers at scale build into the exact normalized, deduplicated, hashed set', () => {
		const formats = [
			(n: string) => n,
			(n: string) =>
				`+${n.slice(0, 3)} ${n.slice(3, 5)} ${n.slice(5, 8)} ${n.slice(8, 10)} ${n.slice(10)}`,
			(n: string) => `+998 (${n.slice(3, 5)}) ${n.slice(5, 8)}-${n.slice(8, 10)}-${n.slice(10)}`,
			(n: string) => Number(n),
		];
		const unique = numbers(90_000);
		const values: unknown[] = [];
		for (let i = 0; i < 100_000; i++) values.push(formats[i % 4](unique[i % unique.length]));
		const build = buildAudienceFromValues(values, { hash: true, maxBytes: Infinity });
		expect(build.problem).toBeUndefined();
		expect(build.report).toMatchObject({ valid: 90_000, duplicatesRemoved: 10_000, invalid: 0 });
		const lines = build.content.split('\n');
		expect(lines).toHaveLength(90_000);
		const expected = new Set(unique.map(sha));
		expect(lines.every((line) => expected.has(line))).toBe(true);
	});
});
