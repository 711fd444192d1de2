import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

/** The tool caller's name in the workflows the harness builds around a tool. */
export const CALLER = 'Tool caller';

/** What a tool caller sees of one call: the tool's answer, or the error text it was given. */
export interface ToolCall {
	/** The items' JSON as n8n hands them to the caller, when the call succeeded. */
	result?: IDataObject[];
	/** The error message the caller receives, when the call failed. */
	error?: string;
}

interface ToolLike {
	name: string;
	description: string;
	schema: { shape?: Record<string, unknown> };
	invoke(args: IDataObject): Promise<unknown>;
}

/**
 * A test-only node that calls the one tool connected to it, as the MCP Server Trigger does: it asks
 * n8n-core for its connected tools (which builds each from the node with n8n-core's own tool
 * invocation) and invokes the tool with each of the given argument sets in turn.
 */
export class HarnessToolCaller implements INodeType {
	description = {
		displayName: 'Harness Tool Caller',
		name: 'harnessToolCaller',
		group: ['transform'],
		version: 1,
		description: 'Calls its connected tool',
		defaults: { name: CALLER },
		inputs: [NodeConnectionTypes.Main, { type: NodeConnectionTypes.AiTool, required: true }],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Calls', name: 'calls', type: 'json', default: '[]' }],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const calls = JSON.parse(this.getNodeParameter('calls', 0) as string) as IDataObject[];
		const connected = await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0);
		const [tool] = (Array.isArray(connected) ? connected : [connected]) as ToolLike[];
		const out: INodeExecutionData[] = [
			{
				json: {
					name: tool.name,
					description: tool.description,
					keys: Object.keys(tool.schema.shape ?? {}),
				},
			},
		];
		for (const args of calls) {
			try {
				out.push({ json: { result: JSON.parse(String(await tool.invoke(args))) as IDataObject } });
			} catch (error) {
				out.push({ json: { error: (error as Error).message } });
			}
		}
		return [out];
	}
}
