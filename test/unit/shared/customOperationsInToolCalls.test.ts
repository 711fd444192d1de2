import type { IExecuteFunctions, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { DeclarativeNodeWithCustomOperations } from '../../../nodes/shared/customOperationsInToolCalls';

type Execute = (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

class Example extends DeclarativeNodeWithCustomOperations {
	description = { requestDefaults: {} };

	customOperations = {
		report: { pull: async () => [[{ json: { ran: 'custom pull' } }]] },
	};
}

/** What n8n's node registry checks before it writes its routing `execute` onto a node. */
const registryWritesExecute = (node: { execute?: unknown }) => !node.execute;

const routing: Execute = async () => [[{ json: { ran: 'routing' } }]];

const contextFor = (parameters: INodeParameters) =>
	({
		getNode: () => ({ type: 'n8n-nodes-ad-cabinet.adCabinetAdsTool', parameters }),
		getInputData: () => [{ json: {} }],
	}) as unknown as IExecuteFunctions;

describe('DeclarativeNodeWithCustomOperations', () => {
	test('before n8n writes its execute the node has none, so the registry still writes it', () => {
		const node = new Example();
		expect(node.execute).toBeUndefined();
		expect(registryWritesExecute(node)).toBe(true);
	});

	test('after, a custom operation runs its own code and any other operation runs the routing', async () => {
		const node = new Example();
		node.execute = routing;
		expect(registryWritesExecute(node)).toBe(false);
		const execute = node.execute as unknown as Execute;
		await expect(
			execute.call(contextFor({ resource: 'report', operation: 'pull' })),
		).resolves.toEqual([[{ json: { ran: 'custom pull' } }]]);
		await expect(
			execute.call(contextFor({ resource: 'report', operation: 'list' })),
		).resolves.toEqual([[{ json: { ran: 'routing' } }]]);
		await expect(execute.call(contextFor({}))).resolves.toEqual([[{ json: { ran: 'routing' } }]]);
	});

	test('a tool made from the node as n8n makes it (an object extending it) dispatches the same way', async () => {
		const node = new Example();
		node.execute = routing;
		const tool = Object.create(node) as Example;
		const execute = tool.execute as unknown as Execute;
		await expect(
			execute.call(contextFor({ resource: 'report', operation: 'pull' })),
		).resolves.toEqual([[{ json: { ran: 'custom pull' } }]]);
	});
});
