import type { IExecuteSingleFunctions, INodeProperties } from 'n8n-workflow';
import type { Operation } from '../../../shared/operation';
import { readLimit, returnAllFields } from '../../../shared/returnAll';
import { PATHS } from '../../../shared/constants';
import { listToItems, routed } from '../../../shared/transport/routing';

const show = { resource: ['advertisedObject'], operation: ['getAll'] };

const fields: INodeProperties[] = returnAllFields(show, {
	returnAllByDefault: true,
	cutOutputToLimit: true,
});

/** The objects come in one answer, without paging; only the Limit is checked before asking. */
async function checkAdvertisedObjectGetAll(this: IExecuteSingleFunctions): Promise<void> {
	readLimit(this.getNode(), this.getItemIndex(), (name) =>
		this.getNodeParameter(name, name === 'returnAll' ? true : 50),
	);
}

export const advertisedObjectGetAll: Operation = {
	option: {
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many advertised objects',
		description: 'List the channels, bots and sites your ads promote',
	},
	fields,
	routing: {
		request: { method: 'GET', url: PATHS.reportObjects },
		...routed({ prepare: checkAdvertisedObjectGetAll }),
		output: { postReceive: [listToItems([], 'object')] },
	},
};
