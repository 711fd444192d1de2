import './env';
import { startProcessedData } from './processedData';
import type {
	ICredentialDataDecryptedObject,
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	IPinData,
	IRun,
	IRunExecutionData,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow, createRunExecutionData } from 'n8n-workflow';
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import { HarnessCredentialsHelper } from './credentialsHelper';
import { HarnessNodeTypes } from './nodeTypes';

let sharedNodeTypes: HarnessNodeTypes | undefined;

/** One set of node types per process: loading n8n-nodes-base modules is the slow part. */
export function nodeTypes(): HarnessNodeTypes {
	sharedNodeTypes ??= new HarnessNodeTypes();
	return sharedNodeTypes;
}

interface WorkflowInput {
	nodes: INode[];
	connections: IConnections;
	/** Decrypted credential data by credential type name. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	staticData?: IDataObject;
	mode?: WorkflowExecuteMode;
	/** The workflow's timezone setting; UTC by default. */
	timezone?: string;
	/** Pinned output by node name: such a node outputs it instead of running, as in n8n's manual runs. */
	pinData?: IPinData;
	/** The node the run starts from, when it is not the trigger or the first node nothing feeds. */
	startNode?: string;
}

export interface NodeRun {
	/** Items of each output of the node's last run. */
	outputs: INodeExecutionData[][];
	error?: Error & { description?: string; httpCode?: string; context?: IDataObject };
}

export interface WorkflowResult {
	run: IRun;
	nodes: Record<string, NodeRun>;
	/** The error that stopped the workflow, if any. */
	error?: NodeRun['error'];
	/** Node names in the order they finished. */
	order: string[];
}

export function additionalDataFor(
	credentials: Record<string, ICredentialDataDecryptedObject>,
	hooks?: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	const types = nodeTypes();
	return {
		credentialsHelper: new HarnessCredentialsHelper(types.credentialTypes, credentials),
		hooks,
		executionId: 'harness',
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1/rest',
		instanceBaseUrl: 'http://127.0.0.1/',
		formBaseUrl: 'http://127.0.0.1/form',
		formWaitingBaseUrl: 'http://127.0.0.1/form-waiting',
		formTestBaseUrl: 'http://127.0.0.1/form-test',
		webhookBaseUrl: 'http://127.0.0.1/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1/webhook-test',
		mcpBaseUrl: 'http://127.0.0.1/mcp',
		mcpTestBaseUrl: 'http://127.0.0.1/mcp-test',
		variables: {},
		logAiEvent: () => {},
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not supported by the harness');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: async () => {
			throw new Error('Task runners are not supported by the harness');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

export function buildWorkflow(input: WorkflowInput): Workflow {
	return new Workflow({
		id: 'harness-workflow',
		name: 'Harness workflow',
		nodes: input.nodes,
		connections: input.connections,
		active: false,
		nodeTypes: nodeTypes(),
		staticData: input.staticData,
		// UTC unless a test says otherwise, so period presets line up with the sandbox's UTC days.
		settings: { executionOrder: 'v1', timezone: input.timezone ?? 'UTC' },
	});
}

/** The workflow's trigger if it has one, else its first node that nothing feeds into. */
function startNodeOf(workflow: Workflow, nodes: INode[]): INode {
	const trigger = workflow.getStartNode();
	if (trigger) return trigger;
	const fed = new Set(
		Object.values(workflow.connectionsBySourceNode).flatMap((outputs) =>
			Object.values(outputs).flatMap((lists) =>
				lists.flatMap((list) => (list ?? []).map((c) => c.node)),
			),
		),
	);
	const first = nodes.find(
		(node) => !fed.has(node.name) && node.type !== 'n8n-nodes-base.stickyNote',
	);
	if (!first) throw new Error('The workflow has no start node');
	return first;
}

/**
 * Runs a workflow through n8n-core's WorkflowExecute, from its trigger (or first node) to the end,
 * with real HTTP, and returns each node's output items and error.
 */
export async function runWorkflow(input: WorkflowInput): Promise<WorkflowResult> {
	await startProcessedData();
	const workflow = buildWorkflow(input);
	const mode = input.mode ?? 'manual';
	const workflowData = {
		id: workflow.id,
		name: workflow.name,
		nodes: input.nodes,
		connections: input.connections,
		active: false,
		settings: {},
	} as unknown as IWorkflowBase;
	const hooks = new ExecutionLifecycleHooks(mode, 'harness', workflowData);
	const order: string[] = [];
	hooks.addHandler('nodeExecuteAfter', (nodeName) => {
		order.push(nodeName);
	});
	const additionalData = additionalDataFor(input.credentials ?? {}, hooks);
	const startNode = input.startNode
		? workflow.getNode(input.startNode)!
		: startNodeOf(workflow, input.nodes);
	const runExecutionData: IRunExecutionData = createRunExecutionData({
		resultData: input.pinData ? { pinData: input.pinData } : undefined,
		executionData: {
			nodeExecutionStack: [{ node: startNode, data: { main: [[{ json: {} }]] }, source: null }],
		},
	});
	const execute = new WorkflowExecute(additionalData, mode, runExecutionData);
	const run = await execute.processRunExecutionData(workflow);
	const nodes: Record<string, NodeRun> = {};
	for (const [name, runs] of Object.entries(run.data.resultData.runData)) {
		const last = runs[runs.length - 1];
		nodes[name] = {
			outputs: (last?.data?.main ?? []).map((items) => items ?? []),
			error: last?.error as NodeRun['error'],
		};
	}
	return { run, nodes, error: run.data.resultData.error as NodeRun['error'], order };
}
