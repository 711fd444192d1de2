import {
	NodeOperationError,
	type DeclarativeRestApiSettings,
	type IDataObject,
	type IExecuteSingleFunctions,
	type IN8nHttpFullResponse,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';
import type { Operation } from '../../../shared/operation';
import { cabinetIdFields, readCabinetId } from '../../../shared/cabinetId';
import { AD_IDS_TYPED_IN } from './fields/adFields';
import { InvalidJsonResponse } from '../../../shared/transport/apiFailure';
import { requireJsonBody, routed } from '../../../shared/transport/routing';
import { invalidInput, listOf } from '../../../shared/validation';
import { PATHS } from '../../../shared/constants';

const show = { resource: ['ad'], operation: ['validateBots'] };

const fields: INodeProperties[] = [
	...cabinetIdFields(
		show,
		AD_IDS_TYPED_IN,
		'The cabinet (account) the bots are to be targeted from',
	),
	{
		displayName: 'Bots',
		name: 'bots',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://t.me/shop_helper_bot, @travel_deals_bot',
		displayOptions: { show },
		description: 'Bot links or usernames, separated by commas or new lines',
	},
	{
		displayName: 'Fail When a Bot Is Rejected',
		name: 'failOnRejected',
		type: 'boolean',
		default: false,
		displayOptions: { show },
		description:
			"Whether to fail the item, with the API's reason, when any bot is rejected (for example one with fewer than 1000 daily users). Off: rejected bots come out as items with valid = false.",
	},
];

/** The query: `bots` repeated once per bot, and `account_id`. */
async function prepareValidateBots(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
): Promise<void> {
	const accountId = readCabinetId(
		this.getNode(),
		this.getNodeParameter('accountId', ''),
		this.getItemIndex(),
	);
	const bots = listOf(this.getNodeParameter('bots', ''));
	if (bots.length === 0) {
		throw invalidInput(
			this.getNode(),
			'Bots',
			'add at least one bot link or username',
			this.getItemIndex(),
		);
	}
	options.qs = { ...(options.qs ?? {}), bots, account_id: accountId };
	options.arrayFormat = 'repeat';
}

const records = (value: unknown): IDataObject[] =>
	Array.isArray(value)
		? value.filter((entry): entry is IDataObject => entry !== null && typeof entry === 'object')
		: [];

/**
 * The answer `{ bots, errors }` as one item per bot: accepted bots with `valid: true` and their id,
 * title, url and photo; rejected ones with `valid: false` and the API's code and detail.
 */
async function validatedBotsToItems(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	requireJsonBody(response);
	const body = response.body as { bots?: unknown; errors?: unknown } | null;
	if (body === null || typeof body !== 'object' || Array.isArray(body))
		throw new InvalidJsonResponse(response.statusCode);
	const valid = records(body.bots);
	const rejected = records(body.errors);
	if (rejected.length > 0 && this.getNodeParameter('failOnRejected', false) === true) {
		const reasons = rejected.map(
			(error) => `${String(error.url)}: ${String(error.detail ?? error.code)}`,
		);
		throw new NodeOperationError(
			this.getNode(),
			`${rejected.length} of ${valid.length + rejected.length} bots rejected: ${reasons.join('; ')}. Remove or replace the rejected bots; validating only reads, so running it again is safe.`,
			{
				itemIndex: this.getItemIndex(),
				description: `Codes: ${[...new Set(rejected.map((error) => String(error.code)))].join(', ')}. Remove the rejected bots or replace them, then run again.`,
			},
		);
	}
	return [
		...valid.map((bot) => ({ json: { valid: true, ...bot } })),
		...rejected.map((error) => ({ json: { valid: false, ...error } })),
	];
}

export const adValidateBots: Operation = {
	option: {
		name: 'Validate Bots',
		value: 'validateBots',
		action: 'Validate target bots',
		description: 'Check bots before targeting them; each needs 1,000 or more daily users',
	},
	fields,
	routing: {
		request: { method: 'GET', url: PATHS.botValidation },
		...routed({ prepare: prepareValidateBots }),
		output: { postReceive: [validatedBotsToItems] },
	},
};
