import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { CABINET_LIST_LABEL } from '../cabinetId';
import { PLATFORM_NAMES } from '../platform';
import {
	CURRENCY_CODES,
	DEFAULT_CURRENCY,
	GROUPING_TERMS,
	PERIOD_UNIT_TERMS,
	inWords,
	type Term,
} from '../vocabulary';
import { filtersCollection } from '../filters';

/** A dropdown's options from the vocabulary (its list order is the editor's order). */
export function optionsOf(terms: readonly Term[]): INodePropertyOptions[] {
	return terms.map(({ name, value, description }) => ({
		name,
		value,
		...(description ? { description } : {}),
	}));
}

const fineUnitNames = PERIOD_UNIT_TERMS.filter((term) => term.fine).map((term) => term.name);

/** Parameters shared by the Stats node's Statistics operation and the Stats Trigger: the statistics query. */

export const periodUnitField: INodeProperties = {
	displayName: 'Period Grouping Unit',
	name: 'periodGroupingUnit',
	type: 'options',
	default: 'day',
	description: `Length of each row's period. ${inWords(fineUnitNames, 'and')} cover only the last 5 days, at most 2 days per request.`,
	options: optionsOf(PERIOD_UNIT_TERMS),
};

export const groupingField: INodeProperties = {
	displayName: 'Grouping',
	name: 'grouping',
	type: 'multiOptions',
	default: [],
	description:
		'Split each period by these entities. Each adds its own fields to the rows; none gives one total row per period.',
	options: optionsOf(GROUPING_TERMS),
};

export const cabinetIdsField: INodeProperties = {
	displayName: 'Cabinet IDs',
	name: 'cabinetIds',
	type: 'string',
	default: '',
	placeholder: 'e.g. 1234567, 7654321',
	description: 'Only these platform cabinets, separated by commas',
};

/**
 * The cabinet filter of the node versions with the cabinet list: the real service's cabinets by
 * name, each worth its ID (`platform_cabinet_ids` takes the same ids as `account_uid`).
 */
export const cabinetPickerField: INodeProperties = {
	displayName: CABINET_LIST_LABEL,
	name: 'cabinetIds',
	type: 'multiOptions',
	typeOptions: { loadOptionsMethod: 'getCabinets' },
	default: [],
	description: `Only the statistics of these cabinets. A cabinet ID looks like ${PLATFORM_NAMES.telegram.cabinetIdExample}; "Ad Cabinet Ads" → Cabinet → Get Many lists each cabinet's ID as account_id. An expression may give a list or IDs separated by commas. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
};

export const adObjectsField: INodeProperties = {
	displayName: 'Ad Object Names or IDs',
	name: 'adObjects',
	type: 'multiOptions',
	typeOptions: { loadOptionsMethod: 'getAdObjects' },
	default: [],
	description:
		'Only these advertised objects. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

/**
 * The statistics' Filters: saved nodes of the versions in `typedIn` keep Cabinet IDs as the text
 * they were made with; later versions choose the cabinets from the list.
 */
export function statsFiltersFields(
	show: IDisplayOptions['show'],
	typedIn: number[],
): INodeProperties[] {
	return [
		filtersCollection({ show: { ...show, '@version': typedIn } }, [
			adObjectsField,
			cabinetIdsField,
		]),
		filtersCollection({ ...(show ? { show } : {}), hide: { '@version': typedIn } }, [
			adObjectsField,
			cabinetPickerField,
		]),
	];
}

export const currencyField: INodeProperties = {
	displayName: 'Currency',
	name: 'currency',
	type: 'options',
	default: DEFAULT_CURRENCY,
	description: 'Currency of the exchanged spend and of the derived costs',
	options: CURRENCY_CODES.map((code) => ({ name: code, value: code })),
};

export const numericValuesField: INodeProperties = {
	displayName: 'Numeric Values',
	name: 'numericValues',
	type: 'boolean',
	default: true,
	description:
		'Whether to turn the decimal strings the API sends for money and ratios (spend, CTR, CPC, CPM, CPA, CVR) into numbers. Off keeps the exact strings.',
};
