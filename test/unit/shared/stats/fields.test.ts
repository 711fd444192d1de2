import { NodeHelpers, type INodeProperties, type INodePropertyOptions } from 'n8n-workflow';
import {
	adObjectsField,
	cabinetIdsField,
	cabinetPickerField,
	currencyField,
	groupingField,
	numericValuesField,
	optionsOf,
	periodUnitField,
	statsFiltersFields,
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

	test('from the cabinet list versions on, the cabinet filter is a multi-select of the cabinets, described as n8n describes one', () => {
		expect(cabinetPickerField).toMatchObject({
			displayName: 'Cabinet Names or IDs',
			name: cabinetIdsField.name,
			type: 'multiOptions',
			default: [],
			typeOptions: { loadOptionsMethod: 'getCabinets' },
		});
		expect(cabinetPickerField.description).toMatch(
			/Choose from the list, or specify IDs using an <a href="https:\/\/docs\.n8n\.io\/code\/expressions\/">expression<\/a>\.$/,
		);
		// An AI agent filling it learns where the IDs come from.
		expect(cabinetPickerField.description).toContain('"Ad Cabinet Ads" → Cabinet → Get Many');
		expect(cabinetPickerField.description).toContain('ACC0000');
	});

	test('Filters shows the typed Cabinet IDs to the versions that had it and the list to every later one', () => {
		const show = { resource: ['statistic'] };
		const fields = statsFiltersFields(show, [1, 1.1]);
		const cabinetFieldAt = (typeVersion: number, values = { resource: 'statistic' }) =>
			fields
				.filter((field) => NodeHelpers.displayParameter(values, field, { typeVersion }, null))
				.map((field) =>
					(field.options as INodeProperties[]).find((option) => option.name === 'cabinetIds'),
				);
		expect(cabinetFieldAt(1)).toEqual([cabinetIdsField]);
		expect(cabinetFieldAt(1.1)).toEqual([cabinetIdsField]);
		expect(cabinetFieldAt(1.2)).toEqual([cabinetPickerField]);
		expect(cabinetFieldAt(1.2, { resource: 'legacyReport' })).toEqual([]);
		for (const field of fields) {
			expect(field).toMatchObject({ name: 'filters', type: 'collection', default: {} });
			expect((field.options as INodeProperties[]).map((option) => option.name)).toEqual([
				'adObjects',
				'cabinetIds',
			]);
		}
		// A node without other conditions (the trigger) shows one of the two by its version alone.
		const trigger = statsFiltersFields(undefined, [1]);
		expect(
			trigger.filter((field) => NodeHelpers.displayParameter({}, field, { typeVersion: 1 }, null)),
		).toEqual([trigger[0]]);
		expect(
			trigger.filter((field) =>
				NodeHelpers.displayParameter({}, field, { typeVersion: 1.1 }, null),
			),
		).toEqual([trigger[1]]);
	});
});
