import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { cabinetLocator, readCabinetId } from '../../../shared/cabinetId';
import { eachItem } from '../../../shared/perItem';
import { readLimit, returnAllFields } from '../../../shared/returnAll';
import { pick, simplifyFields } from '../../../shared/simplify';
import { cabinetAccessHint } from '../../../shared/transport/errors';
import { apiRequest, connectionOptions } from '../../../shared/transport/request';
import { offsetList, realServiceCredentials } from '../../../shared/realService';

/** What Simplify keeps of a cabinet: who it is and its money. */
export const SIMPLE_CABINET_FIELDS = [
	'account_id',
	'account_name',
	'status',
	'balance_available',
	'balance_active',
	'balance_total',
	'balance_spent',
	'legal_name',
];

const getAllShow = { resource: ['cabinet'], operation: ['getAll'] };
const getShow = { resource: ['cabinet'], operation: ['get'] };

export const cabinetDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['cabinet'] } },
		default: 'getAll',
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get a cabinet',
				description: 'One cabinet by its ID, with its balance',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many cabinets',
				description: 'The cabinets of the account, each with its four balances',
			},
		],
	},
	...returnAllFields(getAllShow),
	...simplifyFields(
		getAllShow,
		'the cabinet ID and name, status, legal name and the available, active, total and spent balances',
	),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: getAllShow },
		options: [
			{
				displayName: 'Cabinet Name',
				name: 'accountName',
				type: 'string',
				default: '',
				description: 'Only cabinets whose name contains this text (case does not matter)',
			},
			{
				displayName: 'Legal Name',
				name: 'legalName',
				type: 'string',
				default: '',
				description: 'Only cabinets whose legal entity name contains this text',
			},
		],
	},
	cabinetLocator(
		'cabinetId',
		{ show: getShow },
		'The cabinet (account) to read: pick it from the list, or give its ID (account_id in "Get many cabinets")',
	),
];

/** The detailed cabinet list of the naming map, with filters, by offset until count. */
export async function executeCabinetGetAll(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return [
		await eachItem(this, async (_item, i) => {
			const { credentials, paths } = await realServiceCredentials(this, i, 'Cabinets');
			const limit = readLimit(this.getNode(), i, (name) => this.getNodeParameter(name, i, name === 'limit' ? 50 : false));
			const filters = this.getNodeParameter('filters', i, {}) as IDataObject;
			const qs: IDataObject = {};
			if (typeof filters.accountName === 'string' && filters.accountName.trim()) qs.account_name = filters.accountName.trim();
			if (typeof filters.legalName === 'string' && filters.legalName.trim()) qs.legal_name = filters.legalName.trim();
			const cabinets = await offsetList(this, i, { path: paths.cabinetList, qs, limit, credentials });
			const simplify = this.getNodeParameter('simplify', i, true) as boolean;
			return cabinets.map((cabinet) => ({ json: simplify ? pick(cabinet, SIMPLE_CABINET_FIELDS) : cabinet }));
		}),
	];
}

/** One cabinet, by the naming map's path. */
export async function executeCabinetGet(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return [
		await eachItem(this, async (_item, i) => {
			const { credentials, paths } = await realServiceCredentials(this, i, 'Cabinets');
			const id = readCabinetId(this.getNode(), this.getNodeParameter('cabinetId', i, '') as unknown, i);
			const body = (await apiRequest.call(this, {
				api: 'base',
				method: 'GET',
				path: paths.cabinet(id),
				itemIndex: i,
				credentials,
				connection: connectionOptions(this, i),
				hint: (failure) =>
					failure.status === 404
						? `Cabinet ${id} was not found. Pick an ID that "Get many cabinets" lists.`
						: failure.status === 403
							? cabinetAccessHint(`cabinet ${id}`)
							: undefined,
			})) as IDataObject;
			return body;
		}),
	];
}
