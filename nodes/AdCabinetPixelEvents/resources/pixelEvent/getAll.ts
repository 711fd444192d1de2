import type { DeclarativeRestApiSettings, IExecuteSingleFunctions, INodeProperties } from 'n8n-workflow';
import { cabinetIdField } from '../../../shared/cabinetId';
import { invalidInput } from '../../../shared/validation';
import { cabinetOf } from './fields';

const show = { resource: ['pixelEvent'], operation: ['getAll'] };

export const pixelEventGetAllDescription: INodeProperties[] = [
	cabinetIdField(show),
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

/** spec 4.11: GET /api/pixel_events/?account_id= */
export async function preparePixelEventGetAll(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
): Promise<void> {
	const accountId = cabinetOf(this);
	if (!(this.getNodeParameter('returnAll', true) as boolean)) {
		const limit = this.getNodeParameter('limit', 50) as unknown;
		if (!(typeof limit === 'number' && Number.isInteger(limit) && limit >= 1)) {
			throw invalidInput(this.getNode(), 'Limit', 'must be a whole number of at least 1', this.getItemIndex(), limit);
		}
	}
	options.qs = { ...(options.qs ?? {}), account_id: accountId };
}
