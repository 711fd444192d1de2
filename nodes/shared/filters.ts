import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/** The Filters collection of a list operation: each filter is added by the user, none is set by default. */
export function filtersCollection(
	displayOptions: IDisplayOptions,
	options: INodeProperties[],
): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions,
		options,
	};
}
