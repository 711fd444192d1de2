import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import type { Operation } from '../../../shared/operation';
import { cabinetLocator, readCabinetId } from '../../../shared/cabinetId';
import { eachItem } from '../../../shared/perItem';
import { cabinetAccessHint } from '../../../shared/transport/nodeErrors';
import { apiRequest, connectionOptions } from '../../../shared/transport/request';
import { realServiceCredentials } from '../../../shared/realService';

const fields: INodeProperties[] = [
	cabinetLocator(
		'cabinetId',
		{ show: { resource: ['cabinet'], operation: ['get'] } },
		'The cabinet (account) to read: pick it from the list, or give its ID (account_id in "Get many cabinets")',
	),
];

/** One cabinet, by the naming map's path. */
async function executeCabinetGet(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return [
		await eachItem(this, async (_item, i) => {
			const { credentials, paths } = await realServiceCredentials(this, i, 'Cabinets');
			const id = readCabinetId(
				this.getNode(),
				this.getNodeParameter('cabinetId', i, '') as unknown,
				i,
			);
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

export const cabinetGet: Operation = {
	option: {
		name: 'Get',
		value: 'get',
		action: 'Get a cabinet',
		description: 'One cabinet by its ID, with its balance',
	},
	fields,
	execute: executeCabinetGet,
};
