import type {
	IDataObject,
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import type { Operation } from '../../../shared/operation';
import { flattenKktu, matchesKktu, type KktuNode } from '../../../shared/kktu';
import { InvalidJsonResponse } from '../../../shared/transport/apiFailure';
import { requireJsonBody, routed } from '../../../shared/transport/routing';
import { readLimit, returnAllFields } from '../../../shared/returnAll';
import { PATHS } from '../../../shared/constants';
import { filtersCollection } from '../../../shared/filters';

const show = { resource: ['category'], operation: ['getAll'] };

const fields: INodeProperties[] = [
	...returnAllFields(show, { returnAllByDefault: true }),
	{
		displayName: 'Only Selectable (Third Level)',
		name: 'onlySelectable',
		type: 'boolean',
		default: true,
		displayOptions: { show },
		description:
			'Whether to return only third-level categories, the only ones an ad accepts as its KKTU category',
	},
	filtersCollection({ show }, [
		{
			displayName: 'Search',
			name: 'search',
			type: 'string',
			default: '',
			placeholder: 'e.g. hotels or 5.2',
			description:
				'Only categories whose name or path contains this text, or whose code starts with it (case-insensitive)',
		},
	]),
];

interface GetAllSettings {
	onlySelectable: boolean;
	search: string;
	limit: number;
}

function readSettings(ctx: IExecuteSingleFunctions): GetAllSettings {
	const filters = ctx.getNodeParameter('filters', {}) as IDataObject;
	const limit = readLimit(ctx.getNode(), ctx.getItemIndex(), (name) =>
		ctx.getNodeParameter(name, name === 'returnAll' ? true : 50),
	);
	return {
		// An ad takes only third-level ids, so that is the default list.
		onlySelectable: ctx.getNodeParameter('onlySelectable', true) !== false,
		search: typeof filters.search === 'string' ? filters.search : '',
		limit,
	};
}

/** Refuses a Limit below 1 before the tree is fetched. */
async function checkCategoryGetAll(this: IExecuteSingleFunctions): Promise<void> {
	readSettings(this);
}

/** postReceive: the tree flattened (shared with the Ads node's KKTU list), filtered and cut to the Limit. */
async function flattenCategories(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	requireJsonBody(response);
	const body = response.body as { items?: unknown } | unknown[] | null;
	const tree = Array.isArray(body)
		? body
		: body && Array.isArray(body.items)
			? body.items
			: undefined;
	if (!tree) throw new InvalidJsonResponse(response.statusCode);
	const { onlySelectable, search, limit } = readSettings(this);
	const out: INodeExecutionData[] = [];
	for (const node of flattenKktu(tree as KktuNode[])) {
		if (out.length >= limit) break;
		if (onlySelectable && !node.selectable) continue;
		if (!matchesKktu(node, search)) continue;
		out.push({ json: node as unknown as IDataObject });
	}
	return out;
}

export const categoryGetAll: Operation = {
	option: {
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many KKTU categories',
		description:
			'Flat list of categories with their level and path; by default only the third-level ones an ad accepts',
	},
	fields,
	routing: {
		request: { method: 'GET', url: PATHS.kktu },
		...routed({ prepare: checkCategoryGetAll }),
		output: { postReceive: [flattenCategories] },
	},
};
