import {
	newScan,
	scanText,
	scanValue,
} from '../../../../../nodes/AdCabinetAudiences/resources/audience/audienceEntries';

const HASH = 'a'.repeat(64);

describe('audience entries: one pass sorts each entry into phones, hashes or invalid', () => {
	test('text: commas and line breaks separate entries; formatting is dropped, blanks ignored', () => {
		const scan = newScan();
		scanText(`+998 90 123-45-67, ${HASH.toUpperCase()}\r\n12345\n\n${HASH}`, scan);
		expect(Array.from(scan.phones.slice(0, scan.phoneCount))).toEqual([901234567]);
		expect([...scan.hashes]).toEqual([HASH]);
		expect(scan.hashDuplicates).toBe(1);
		expect([scan.invalid, scan.examples]).toEqual([1, ['12345']]);
	});

	test('by line: invalid entries are pointed out by line number, never quoted', () => {
		const scan = newScan(true);
		scanText('998901234567\nnot a number\r\n998901234568\nx', scan);
		expect([scan.phoneCount, scan.invalid, scan.lines, scan.examples]).toEqual([2, 2, [2, 4], []]);
	});

	test('values: numbers as numbers, lists entry by entry, empty cells counted apart', () => {
		const scan = newScan();
		for (const value of [998901234567, ['998901234568', null], '', undefined, { phone: 1 }, true]) {
			scanValue(value, scan);
		}
		expect(scan.phoneCount).toBe(2);
		expect(scan.empty).toBe(3);
		expect([scan.invalid, scan.examples]).toEqual([2, ['{"phone":1}', 'true']]);
	});
});
