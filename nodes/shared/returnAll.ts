import type { INode, INodeProperties } from 'n8n-workflow';
import { invalidInput } from './validation';

export interface ReturnAllOptions {
	/** Lists the API returns whole in one answer default to Return All; paged lists to a Limit. */
	returnAllByDefault?: boolean;
	/** The API answers the whole list: RoutingNode cuts the output to the Limit. */
	cutOutputToLimit?: boolean;
}

/** n8n's Return All / Limit pair for a Get Many operation. */
export function returnAllFields(
	show: Record<string, string[]>,
	{ returnAllByDefault = false, cutOutputToLimit = false }: ReturnAllOptions = {},
): INodeProperties[] {
	const returnAll: INodeProperties = {
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		displayOptions: { show },
		description: 'Whether to return all results or only up to a given limit',
	};
	if (returnAllByDefault) returnAll.default = true;
	return [
		returnAll,
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			default: 50,
			typeOptions: { minValue: 1 },
			displayOptions: { show: { ...show, returnAll: [false] } },
			description: 'Max number of results to return',
			...(cutOutputToLimit ? { routing: { output: { maxResults: '={{$value}}' } } } : {}),
		},
	];
}

/**
 * The number of results wanted: Infinity with Return All, else the Limit, refused before any request
 * unless it is a whole number of at least 1 (an expression can give anything).
 */
export function readLimit(
	node: INode,
	itemIndex: number,
	parameter: (name: 'returnAll' | 'limit') => unknown,
): number {
	if (parameter('returnAll') === true) return Infinity;
	const limit = parameter('limit');
	if (!(typeof limit === 'number' && Number.isInteger(limit) && limit >= 1)) {
		throw invalidInput(node, 'Limit', 'must be a whole number of at least 1', itemIndex, limit);
	}
	return limit;
}
