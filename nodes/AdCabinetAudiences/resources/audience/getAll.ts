import type { DeclarativeRestApiSettings, IExecuteSingleFunctions, INodeProperties } from 'n8n-workflow';
import { cabinetIdField, readCabinetId } from '../../../shared/cabinetId';
import { PATHS } from '../../../shared/constants';
import type { Failure } from '../../../shared/transport/failure';
import { invalidInput } from '../../../shared/validation';
import { audienceHint } from './hints';

const show = { resource: ['audience'], operation: ['getAll'] };

export const audienceGetAllDescription: INodeProperties[] = [
	cabinetIdField(show, 'The cabinet (account) ID; audiences exist only for cabinets in Uzbekistan'),
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: true,
		displayOptions: { show },
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		default: 50,
		typeOptions: { minValue: 1 },
		displayOptions: { show: { ...show, returnAll: [false] } },
		description: 'Max number of results to return',
		routing: { output: { maxResults: '={{$value}}' } },
	},
];

/** spec 4.12: GET /api/advertisement/ext/{account_id}/audiences/ */
export async function prepareAudienceGetAll(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
): Promise<void> {
	const accountId = readCabinetId(this.getNode(), this.getNodeParameter('accountId', ''), this.getItemIndex());
	if (!(this.getNodeParameter('returnAll', true) as boolean)) {
		const limit = this.getNodeParameter('limit', 50) as unknown;
		if (!(typeof limit === 'number' && Number.isInteger(limit) && limit >= 1)) {
			throw invalidInput(this.getNode(), 'Limit', 'must be a whole number of at least 1', this.getItemIndex(), limit);
		}
	}
	options.url = PATHS.audiencesList(accountId);
}

export function audienceGetAllHint(this: IExecuteSingleFunctions, failure: Failure): string | undefined {
	const accountId = String(this.getNodeParameter('accountId', '')).trim();
	return audienceHint(accountId)(failure);
}
