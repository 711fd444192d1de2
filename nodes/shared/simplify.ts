import type {
	IDataObject,
	IExecuteSingleFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

/**
 * n8n's Simplify switch: a reduced set of fields per item. It is on by default when the node is an
 * AI agent's tool (every field of every row would fill the model's context) and off otherwise, so
 * existing workflows keep their output.
 */
export function simplifyFields(show: Record<string, string[]>, kept: string): INodeProperties[] {
	const hint = `Simplify keeps ${kept}`;
	return [
		{
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			// Off on the plain node so that existing workflows keep every field.
			default: false,
			displayOptions: { show: { ...show, '@tool': [false] } },
			description: 'Whether to return a simplified version of the response instead of the raw data',
			hint,
		},
		{
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: true,
			displayOptions: { show: { ...show, '@tool': [true] } },
			description: 'Whether to return a simplified version of the response instead of the raw data',
			hint,
		},
	];
}

/** The record with only the named fields it has, in the order given. */
export function pick(record: IDataObject, fields: readonly string[]): IDataObject {
	const out: IDataObject = {};
	for (const field of fields) if (field in record) out[field] = record[field];
	return out;
}

/** postReceive step of a declarative list: with Simplify on, each item keeps only `fields`. */
export function simplifyItems(fields: readonly string[]) {
	return async function (
		this: IExecuteSingleFunctions,
		items: INodeExecutionData[],
	): Promise<INodeExecutionData[]> {
		if (this.getNodeParameter('simplify', false) !== true) return items;
		return items.map((item) => ({ ...item, json: pick(item.json, fields) }));
	};
}
