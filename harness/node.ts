import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
} from 'n8n-workflow';
import { PACKAGE_NAME } from './nodeTypes';
import { runWorkflow, type NodeRun, type WorkflowResult } from './run';

const NODE_UNDER_TEST = 'Node';

interface NodeRunInput {
	/** Our node's type name without the package prefix, e.g. `adCabinetStats`. */
	type: string;
	parameters: INodeParameters;
	credentials: ICredentialDataDecryptedObject;
	/** Items fed to the node; one empty item by default. */
	input?: Array<IDataObject | INodeExecutionData>;
	continueOnFail?: boolean;
	typeVersion?: number;
	/** The workflow's timezone setting; UTC by default. */
	timezone?: string;
	/**
	 * The saved credential's ID (`cred-1` by default). Two runs with different IDs share no hold of
	 * this process, as two n8n processes share none: only n8n's shared records stand between them.
	 */
	credentialId?: string;
}

interface NodeRunResult extends NodeRun {
	items: INodeExecutionData[];
	workflow: WorkflowResult;
}

export function ourNode(
	type: string,
	parameters: INodeParameters,
	extra: Partial<INode> = {},
): INode {
	return {
		id: `${type}-id`,
		name: NODE_UNDER_TEST,
		type: `${PACKAGE_NAME}.${type}`,
		typeVersion: 1,
		position: [200, 0],
		parameters,
		credentials: { adCabinetApi: { id: 'cred-1', name: 'Ad Cabinet sandbox' } },
		...extra,
	};
}

/** Runs one of our nodes after an input node that emits `input`, and returns its first output. */
export async function runNode(options: NodeRunInput): Promise<NodeRunResult> {
	const items = (options.input ?? [{}]).map((item) =>
		'json' in item && typeof item.json === 'object' ? item : { json: item as IDataObject },
	);
	const workflow = await runWorkflow({
		nodes: [
			{
				id: 'input-id',
				name: 'Input',
				type: 'harness.input',
				typeVersion: 1,
				position: [0, 0],
				parameters: { items: JSON.stringify(items) },
			},
			ourNode(options.type, options.parameters, {
				typeVersion: options.typeVersion ?? 1,
				credentials: {
					adCabinetApi: { id: options.credentialId ?? 'cred-1', name: 'Ad Cabinet sandbox' },
				},
				...(options.continueOnFail ? { onError: 'continueRegularOutput' } : {}),
			}),
		],
		connections: { Input: { main: [[{ node: NODE_UNDER_TEST, type: 'main', index: 0 }]] } },
		credentials: { adCabinetApi: options.credentials },
		timezone: options.timezone,
	});
	const run = workflow.nodes[NODE_UNDER_TEST] ?? { outputs: [] };
	return { ...run, items: run.outputs[0] ?? [], workflow };
}
