import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { rememberRecordsOf } from './store/records';
import { beginCall } from './callDeadline';

type Execute = (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

/**
 * The base of every resource node: it makes the operations that run from `customOperations` work
 * when n8n calls the node directly as a tool, not only from a workflow.
 *
 * Why: n8n's workflow engine looks a node's `customOperations` up before anything else, so in a
 * workflow (and for the AI Agent, which hands its tool calls back to the engine) they run. But when
 * the MCP Server Trigger calls a tool, n8n-core's tool invocation calls `nodeType.execute` itself,
 * and for a declarative node that is the `execute` n8n's node registry writes onto the node when it
 * loads it, which runs only the routing. A custom operation has no routing, so it would send one bare
 * request to the Base URL and fail. Here the `execute` n8n writes is kept, and calling it first hands
 * the custom operations their own code, with the same context, items and Continue On Fail.
 *
 * When n8n writes no `execute` (a later n8n that dispatches custom operations itself), this node has
 * none either and n8n's own dispatch applies unchanged.
 */
export abstract class DeclarativeNodeWithCustomOperations {
	abstract customOperations: Record<string, Record<string, Execute>>;

	/** The routing-only `execute` n8n's node registry gave this node, if it gave one. */
	private registryExecute?: Execute;

	get execute(): Execute | undefined {
		const routing = this.registryExecute;
		if (!routing) return undefined;
		const custom = this.customOperations;
		return async function (this: IExecuteFunctions) {
			// A tool call's deadline counts from here, the start of the node's run.
			beginCall(this);
			// The per-item contexts of a declarative operation reach n8n's shared records through this.
			rememberRecordsOf(this);
			// The same lookup as the engine's: the node's saved Resource and Operation.
			const { resource, operation } = this.getNode().parameters;
			const own =
				typeof resource === 'string' && typeof operation === 'string'
					? custom[resource]?.[operation]
					: undefined;
			return await (own ?? routing).call(this);
		};
	}

	set execute(generated: Execute | undefined) {
		this.registryExecute = generated;
	}
}
