import type { IDataObject, INode, INodeExecutionData, IPairedItemData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/** What the per-item loop needs of an execution context (custom operations and routed requests alike). */
interface ItemContext {
	getNode(): INode;
	continueOnFail(): boolean;
	getInputData(): INodeExecutionData[];
}

/**
 * The item Continue On Fail puts out for a failed input item: its message, and the advice and status
 * under `details`, paired to it. n8n sends an item to a node's error output (On Error: Continue
 * (using error output)) only when its fields are among `error`, `message` and `details`; an item with
 * any other field is taken for a success, and the failure would flow on as if the write had been made.
 */
function errorItem(
	error: NodeApiError | NodeOperationError,
	pairedItem: IPairedItemData | IPairedItemData[],
): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	const details: IDataObject = {};
	const { description, httpCode } = error as { description?: unknown; httpCode?: unknown };
	if (typeof description === 'string' && description) details.description = description;
	if (typeof httpCode === 'string' && httpCode) details.httpCode = httpCode;
	if (Object.keys(details).length) json.details = details;
	return { json, pairedItem };
}

/** Node errors pass through as they are; anything else is wrapped so n8n shows it against the item. */
function asNodeError(
	node: INode,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error as Error, { itemIndex });
}

/**
 * Runs the work of one input item (or of several items that make one result, paired to all of them).
 * Its items are output paired to the input; a failure becomes a single error item under Continue On
 * Fail, never a partial result, and otherwise stops the node, naming the item.
 */
export async function guardItem(
	ctx: Pick<ItemContext, 'getNode' | 'continueOnFail'>,
	itemIndex: number,
	work: () => Promise<INodeExecutionData[]>,
	pairedItem: IPairedItemData | IPairedItemData[] = { item: itemIndex },
): Promise<INodeExecutionData[]> {
	try {
		const out = await work();
		for (const item of out) item.pairedItem = pairedItem;
		return out;
	} catch (error) {
		const nodeError = asNodeError(ctx.getNode(), error, itemIndex);
		if (!ctx.continueOnFail()) throw nodeError;
		return [errorItem(nodeError, pairedItem)];
	}
}

/** Runs a custom operation once per input item, through guardItem; one output item per record. */
export async function eachItem(
	ctx: ItemContext,
	run: (item: INodeExecutionData, itemIndex: number) => Promise<IDataObject | INodeExecutionData[]>,
): Promise<INodeExecutionData[]> {
	const items = ctx.getInputData();
	const out: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) {
		const results = await guardItem(ctx, i, async () => {
			const result = await run(items[i], i);
			return Array.isArray(result) ? result : [{ json: result }];
		});
		for (const item of results) out.push(item);
	}
	return out;
}
