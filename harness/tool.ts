import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';
import { PACKAGE_NAME } from './nodeTypes';
import { runWorkflow, type WorkflowResult } from './run';
import { CALLER, type ToolCall } from './toolCaller';

const TOOL = 'Node';

interface ToolRunInput {
	/** Our node's type name without the package prefix and without `Tool`, e.g. `adCabinetStats`. */
	type: string;
	parameters: INodeParameters;
	credentials: ICredentialDataDecryptedObject;
	/** One argument set per call, in order; one call without arguments by default. */
	calls?: IDataObject[];
	typeVersion?: number;
	continueOnFail?: boolean;
	/** The saved credential's id the node names; `cred-1` by default. */
	credentialId?: string;
}

interface ToolRunResult {
	/** The tool's name, description and argument keys, as the caller sees them. */
	tool: { name: string; description: string; keys: string[] };
	calls: ToolCall[];
	workflow: WorkflowResult;
}

/**
 * Runs one of our nodes the way n8n calls a tool directly (the MCP Server Trigger's path): not
 * through the workflow engine, but through the node type's own `execute` with the call's
 * arguments as its one input item.
 */
export async function runAsTool(options: ToolRunInput): Promise<ToolRunResult> {
	const workflow = await runWorkflow({
		nodes: [
			{
				id: 'caller-id',
				name: CALLER,
				type: 'harness.toolCaller',
				typeVersion: 1,
				position: [200, 0],
				parameters: { calls: JSON.stringify(options.calls ?? [{}]) },
			},
			{
				id: `${options.type}-tool-id`,
				name: TOOL,
				type: `${PACKAGE_NAME}.${options.type}Tool`,
				typeVersion: options.typeVersion ?? 1,
				position: [200, 200],
				parameters: options.parameters,
				credentials: {
					adCabinetApi: { id: options.credentialId ?? 'cred-1', name: 'Ad Cabinet sandbox' },
				},
				...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
			},
		],
		connections: { [TOOL]: { ai_tool: [[{ node: CALLER, type: 'ai_tool', index: 0 }]] } },
		credentials: { adCabinetApi: options.credentials },
		startNode: CALLER,
	});
	if (workflow.error) throw workflow.error;
	const [first, ...rest] = (workflow.nodes[CALLER]?.outputs[0] ?? []).map((item) => item.json);
	return {
		tool: first as unknown as ToolRunResult['tool'],
		calls: rest as ToolCall[],
		workflow,
	};
}
