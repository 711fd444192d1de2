import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import type { Operation } from '../../../shared/operation';
import { eachItem } from '../../../shared/perItem';
import { apiRequest, connectionOptions } from '../../../shared/transport/request';
import { realServiceCredentials } from '../../../shared/realService';

/** GET /api/dashboard/balances: one item `{active, available, total}`, each `{amount, currency}`. */
async function executeBalanceGet(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return [
		await eachItem(this, async (_item, i) => {
			const { credentials, paths } = await realServiceCredentials(this, i, 'Balances');
			return (await apiRequest.call(this, {
				api: 'base',
				method: 'GET',
				path: paths.balances,
				itemIndex: i,
				credentials,
				connection: connectionOptions(this, i),
			})) as IDataObject;
		}),
	];
}

export const balanceGet: Operation = {
	option: {
		name: 'Get',
		value: 'get',
		action: 'Get the account balance',
		description:
			'The money in running ads, the free balance and their total, each with its currency',
	},
	fields: [],
	execute: executeBalanceGet,
};
