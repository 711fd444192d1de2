import type { IDataObject, INodeProperties } from 'n8n-workflow';
import type { Operation } from '../../../shared/operation';
import { returnAllFields } from '../../../shared/returnAll';
import { simplifyFields } from '../../../shared/simplify';
import { realServiceListOperation } from '../../../shared/realService';
import { filtersCollection } from '../../../shared/filters';

/** What Simplify keeps of a cabinet: who it is and its money. */
const SIMPLE_CABINET_FIELDS = [
	'account_id',
	'account_name',
	'status',
	'balance_available',
	'balance_active',
	'balance_total',
	'balance_spent',
	'legal_name',
];

const show = { resource: ['cabinet'], operation: ['getAll'] };

const fields: INodeProperties[] = [
	...returnAllFields(show),
	...simplifyFields(
		show,
		'the cabinet ID and name, status, legal name and the available, active, total and spent balances',
	),
	filtersCollection({ show }, [
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
	]),
];

/** The detailed cabinet list of the naming map, with filters, by offset until count. */
const executeCabinetGetAll = realServiceListOperation({
	what: 'Cabinets',
	path: (paths) => paths.cabinetList,
	query(ctx, i) {
		const filters = ctx.getNodeParameter('filters', i, {}) as IDataObject;
		const qs: IDataObject = {};
		if (typeof filters.accountName === 'string' && filters.accountName.trim())
			qs.account_name = filters.accountName.trim();
		if (typeof filters.legalName === 'string' && filters.legalName.trim())
			qs.legal_name = filters.legalName.trim();
		return qs;
	},
	simpleFields: SIMPLE_CABINET_FIELDS,
});

export const cabinetGetAll: Operation = {
	option: {
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many cabinets',
		description: 'The cabinets of the account, each with its four balances',
	},
	fields,
	execute: executeCabinetGetAll,
};
