import type { INode, INodeProperties, NodeApiError } from 'n8n-workflow';
import { apiError } from './transport/nodeErrors';
import { invalidInput } from './validation';

interface ReturnAllOptions {
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

/**
 * Offset paging stopped (a page brought nothing new, or nothing at all) while the API's own
 * `count` says more records exist. Returning what was read as if it were the whole list would lose
 * data without a word, so the run fails with both numbers and what to try. Without a count,
 * stopping with the distinct records read is right, and this is not called.
 */
export function pagingStoppedEarly(
	node: INode,
	what: { path: string; listed: number; count: number; itemIndex?: number },
): NodeApiError {
	return apiError(node, {
		message: `Paging ${what.path} stopped after ${what.listed} distinct records, but the API's count says ${what.count} exist: the next page brought no record not already listed (the API seems to ignore the offset), so the rest cannot be read this way and the list is not returned as if it were whole. Add a filter so that fewer records match (each answer holds at most 500), or turn off Return All and set Limit to at most ${what.listed}. It only reads data, so running it again is safe.`,
		itemIndex: what.itemIndex,
	});
}
