import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/** The item Continue On Fail puts out for a failed input item: its message, advice and status, paired to it. */
export function errorItem(error: unknown, itemIndex: number): INodeExecutionData {
	const json: IDataObject = { error: (error as Error).message };
	const { description, httpCode } = error as { description?: unknown; httpCode?: unknown };
	if (typeof description === 'string' && description) json.description = description;
	if (typeof httpCode === 'string' && httpCode) json.httpCode = httpCode;
	return { json, pairedItem: { item: itemIndex } };
}

/** Node errors pass through as they are; anything else is wrapped so n8n shows it against the item. */
export function asNodeError(node: INode, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error as Error, { itemIndex });
}

/**
 * Runs a custom operation once per input item: each result is output paired to its item; a failure
 * becomes an error item under Continue On Fail and otherwise stops the node, naming the item.
 */
export async function eachItem(
	ctx: IExecuteFunctions,
	run: (item: INodeExecutionData, itemIndex: number) => Promise<IDataObject>,
): Promise<INodeExecutionData[]> {
	const items = ctx.getInputData();
	const out: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) {
		let caught: unknown;
		try {
			out.push({ json: await run(items[i], i), pairedItem: { item: i } });
			continue;
		} catch (error) {
			caught = error;
		}
		if (!ctx.continueOnFail()) throw asNodeError(ctx.getNode(), caught, i);
		out.push(errorItem(caught, i));
	}
	return out;
}
