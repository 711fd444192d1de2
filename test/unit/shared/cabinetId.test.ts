import { NodeOperationError } from 'n8n-workflow';
import { CABINET_LIST_LABEL, readCabinetIdList } from '../../../nodes/shared/cabinetId';
import { NODE } from '../../support/fakeContext';

function refusal(raw: unknown, itemIndex = 0): NodeOperationError {
	try {
		readCabinetIdList(NODE, raw, itemIndex);
	} catch (error) {
		return error as NodeOperationError;
	}
	throw new Error(`expected ${JSON.stringify(raw)} to be refused`);
}

describe('readCabinetIdList: the cabinet filter of the versions with the cabinet list', () => {
	test('takes the options chosen, a list from an expression, IDs separated by commas or new lines, or a JSON list as text', () => {
		expect(readCabinetIdList(NODE, ['ACC06163', 'ACC07021'], 0)).toEqual(['ACC06163', 'ACC07021']);
		expect(readCabinetIdList(NODE, ' ACC06163, ACC07021 ,', 0)).toEqual(['ACC06163', 'ACC07021']);
		expect(readCabinetIdList(NODE, 'ACC06163\nACC07021', 0)).toEqual(['ACC06163', 'ACC07021']);
		expect(readCabinetIdList(NODE, ' ["ACC06163", "ACC07021"] ', 0)).toEqual([
			'ACC06163',
			'ACC07021',
		]);
		// The spec's form writes ids as numbers; an expression may give them so.
		expect(readCabinetIdList(NODE, [100001, '100002'], 0)).toEqual(['100001', '100002']);
		expect(readCabinetIdList(NODE, 100003, 0)).toEqual(['100003']);
	});

	test('nothing chosen, or only blanks, is no filter', () => {
		for (const raw of [undefined, null, '', '  ', [], ['', ' '], ',', '[]']) {
			expect(readCabinetIdList(NODE, raw, 0)).toEqual([]);
		}
	});

	test.each([
		['a cabinet name', 'Tashkent Digital', '"Tashkent Digital"'],
		['a name among IDs', ['ACC06163', 'Berlin Growth GmbH'], '"Berlin Growth GmbH"'],
		['IDs joined by semicolons', 'ACC06163; ACC07021', '"ACC06163; ACC07021"'],
		['an object in the list', ['ACC06163', { id: 'ACC07021' }], '{"id":"ACC07021"}'],
		['true in the list', [true], 'true'],
		['a fraction', [1.5], '1.5'],
		['a negative number', [-100001], '-100001'],
	])('%s is refused, quoting it', (_name, raw, quoted) => {
		const error = refusal(raw, 2);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe(
			`${CABINET_LIST_LABEL}: each must be a cabinet ID such as ACC0000, made of letters, digits, "-" and "_"; a cabinet name is not an ID, and "Ad Cabinet Ads" → Cabinet → Get Many lists each cabinet's ID as account_id (got ${quoted}). Nothing was sent to the API.`,
		);
		expect(error.context.itemIndex).toBe(2);
		expect(error.description).toBe(`Fix "${CABINET_LIST_LABEL}" and run again.`);
	});

	test('0 is no cabinet', () => {
		expect(refusal('ACC06163, 000').message).toBe(
			`${CABINET_LIST_LABEL}: each must be the ID of a cabinet, such as ACC0000; 0 is no cabinet (got "000"). Nothing was sent to the API.`,
		);
		expect(refusal([0]).message).toMatch(/0 is no cabinet \(got 0\)/);
		expect(refusal(' ACC06163 ,  000 ').message).toMatch(/\(got "000"\)/);
	});

	test('a value that is neither a list nor text is refused', () => {
		expect(refusal({ cabinets: ['ACC06163'] }).message).toBe(
			`${CABINET_LIST_LABEL}: must be cabinet IDs such as ACC0000: chosen from the list, or from an expression as a list or separated by commas (got {"cabinets":["ACC06163"]}). Nothing was sent to the API.`,
		);
		expect(refusal(true).message).toMatch(
			/^Cabinet Names or IDs: must be cabinet IDs .*\(got true\)/,
		);
	});
});
