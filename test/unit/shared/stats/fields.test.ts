import type { INodePropertyOptions } from 'n8n-workflow';
import {
	adObjectsField,
	cabinetIdsField,
	currencyField,
	groupingField,
	numericValuesField,
	optionsOf,
	periodUnitField,
} from '../../../../nodes/shared/stats/fields';
import {
	CURRENCY_CODES,
	DEFAULT_CURRENCY,
	GROUPING_TERMS,
	PERIOD_UNIT_TERMS,
} from '../../../../nodes/shared/vocabulary';

const values = (options: unknown) =>
	(options as INodePropertyOptions[]).map((option) => option.value);

describe('statistics parameters shared by Stats and the Stats Trigger', () => {
	test('optionsOf keeps name, value and a description only where there is one', () => {
		expect(
			optionsOf([
				{ value: 'a', name: 'A', description: 'first' },
				{ value: 'b', name: 'B' },
			]),
		).toEqual([
			{ name: 'A', value: 'a', description: 'first' },
			{ name: 'B', value: 'b' },
		]);
	});

	test("Period Grouping Unit offers every unit of the vocabulary, day by default, and names the fine units' limit", () => {
		expect(values(periodUnitField.options)).toEqual(PERIOD_UNIT_TERMS.map((term) => term.value));
		expect(periodUnitField.default).toBe('day');
		expect(periodUnitField.description).toBe(
			"Length of each row's period. 5 Minutes, 30 Minutes and Hour cover only the last 5 days, at most 2 days per request.",
		);
	});

	test('Grouping offers every grouping with its description, none by default', () => {
		expect(groupingField.type).toBe('multiOptions');
		expect(groupingField.default).toEqual([]);
		expect(groupingField.options).toEqual(
			GROUPING_TERMS.map((term) => ({
				name: term.name,
				value: term.value,
				description: term.description,
			})),
		);
	});

	test("Currency offers every currency code, the API's default first chosen", () => {
		expect(values(currencyField.options)).toEqual(CURRENCY_CODES);
		expect(currencyField.default).toBe(DEFAULT_CURRENCY);
	});

	test('the filters and Numeric Values have the names the query reader reads', () => {
		expect(cabinetIdsField.name).toBe('cabinetIds');
		expect(adObjectsField.name).toBe('adObjects');
		expect(adObjectsField.typeOptions?.loadOptionsMethod).toBe('getAdObjects');
		expect(numericValuesField).toMatchObject({
			name: 'numericValues',
			type: 'boolean',
			default: true,
		});
	});
});
