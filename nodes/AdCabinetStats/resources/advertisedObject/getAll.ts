import type { IExecuteSingleFunctions, INodeProperties } from 'n8n-workflow';
import { readLimit, returnAllFields } from '../../../shared/returnAll';

const show = { resource: ['advertisedObject'], operation: ['getAll'] };

export const advertisedObjectGetAllDescription: INodeProperties[] = returnAllFields(show, {
	returnAllByDefault: true,
	cutOutputToLimit: true,
});

/** The objects come in one answer (spec 4.3); only the Limit is checked before asking. */
export async function checkAdvertisedObjectGetAll(this: IExecuteSingleFunctions): Promise<void> {
	readLimit(this.getNode(), this.getItemIndex(), (name) => this.getNodeParameter(name, name === 'returnAll' ? true : 50));
}
