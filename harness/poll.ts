import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { PollContext } from 'n8n-core';
import { ourNode } from './node';
import { PACKAGE_NAME } from './nodeTypes';
import { additionalDataFor, buildWorkflow, nodeTypes } from './run';

interface PollInput {
	type: string;
	parameters: INodeParameters;
	credentials: ICredentialDataDecryptedObject;
	/** The workflow's static data, kept by the caller between polls as n8n keeps it. */
	staticData: IDataObject;
	/** 'trigger' for an active workflow's poll, 'manual' for "Fetch Test Event". */
	mode?: WorkflowExecuteMode;
	timezone?: string;
	typeVersion?: number;
	/** The trigger's name in its workflow, which its messages quote. */
	name?: string;
}

interface PollResult {
	items: INodeExecutionData[] | null;
	staticData: IDataObject;
	error?: Error;
}

/**
 * Runs one poll of a polling trigger through n8n-core's PollContext, the way n8n's poll scheduler
 * does, with the workflow static data the caller carries between polls.
 */
export async function pollOnce(input: PollInput): Promise<PollResult> {
	const node = ourNode(input.type, input.parameters, {
		typeVersion: input.typeVersion ?? 1,
		...(input.name ? { name: input.name } : {}),
	});
	const workflow = buildWorkflow({
		nodes: [node],
		connections: {},
		staticData: input.staticData,
		timezone: input.timezone,
	});
	const mode = input.mode ?? 'trigger';
	const context = new PollContext(
		workflow,
		node,
		additionalDataFor({ adCabinetApi: input.credentials }),
		mode,
		mode === 'manual' ? 'manual' : 'activate',
	);
	const nodeType = nodeTypes().getByNameAndVersion(`${PACKAGE_NAME}.${input.type}`);
	if (!nodeType.poll) throw new Error(`${input.type} is not a polling node`);
	try {
		const result = await nodeType.poll.call(context);
		return { items: result?.[0] ?? null, staticData: workflow.staticData as IDataObject };
	} catch (error) {
		return { items: null, staticData: workflow.staticData as IDataObject, error: error as Error };
	}
}
