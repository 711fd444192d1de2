import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
	ICredentialDataDecryptedObject,
	IConnections,
	INode,
	INodeExecutionData,
	IPinData,
} from 'n8n-workflow';
import { runWorkflow, type WorkflowResult } from './run';

export const EXAMPLES_DIR = join(__dirname, '..', 'examples');

export interface ExampleWorkflow {
	file: string;
	name: string;
	nodes: INode[];
	connections: IConnections;
	/** Sample output pinned on nodes; used by a manual run only (n8n ignores it in scheduled runs). */
	pinData?: IPinData;
}

export function listExamples(): ExampleWorkflow[] {
	return readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => ({
			file,
			...(JSON.parse(readFileSync(join(EXAMPLES_DIR, file), 'utf8')) as Omit<
				ExampleWorkflow,
				'file'
			>),
		}));
}

/** The workflows of one folder of examples/ (`sync`, `alerts`, `reports`), each named `<folder>/<file>`. */
export function listExamplesIn(folder: string): ExampleWorkflow[] {
	const dir = join(EXAMPLES_DIR, folder);
	return readdirSync(dir)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => ({
			file: `${folder}/${file}`,
			...(JSON.parse(readFileSync(join(dir, file), 'utf8')) as Omit<ExampleWorkflow, 'file'>),
		}));
}

/** Runs an example workflow in-process with the given credential data for our credential type. */
export async function runExample(
	example: ExampleWorkflow,
	credentials: ICredentialDataDecryptedObject,
): Promise<WorkflowResult> {
	return await runWorkflow({
		nodes: example.nodes,
		connections: example.connections,
		pinData: example.pinData,
		credentials: { adCabinetApi: credentials },
	});
}

/** Output items of a node's first output, or [] when it did not run. */
export function itemsOf(result: WorkflowResult, nodeName: string): INodeExecutionData[] {
	return result.nodes[nodeName]?.outputs[0] ?? [];
}
