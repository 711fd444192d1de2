import type { ICredentialDataDecryptedObject, INode, INodeType } from 'n8n-workflow';
import { RoutingNode, ExecuteContext } from 'n8n-core';
import { createRunExecutionData, Workflow } from 'n8n-workflow';
import { additionalDataFor, nodeTypes } from './run';

interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/**
 * Runs a credential type's `test` request the way n8n's "Test credential" button does: through
 * RoutingNode with the decrypted data (renewing an expiring credential when its token is empty or
 * the read answered 401, and storing what that gave in `data`), then the test's `rules` against
 * the answer's status. A failed renewal shows its own message, as in n8n.
 */
export async function testCredential(
	type: string,
	data: ICredentialDataDecryptedObject,
): Promise<CredentialTestResult> {
	const types = nodeTypes();
	const credentialType = types.credentialTypes.get(type);
	if (!credentialType?.test) throw new Error(`Credential ${type} has no test request`);
	const testRequest = credentialType.test;
	const nodeType = {
		description: {
			displayName: 'Credential test',
			name: 'credentialTest',
			group: ['input'],
			version: 1,
			description: '',
			defaults: {},
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: type, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					default: '',
					routing: { request: testRequest.request },
				},
			],
		},
	} as unknown as INodeType;
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'credentialTest',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [type]: { id: 'cred', name: 'cred' } },
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: {
			...types,
			getByNameAndVersion: () => nodeType,
			getByName: () => nodeType,
		} as never,
	});
	const additionalData = additionalDataFor({ [type]: data });
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createRunExecutionData({}),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	try {
		await new RoutingNode(context, nodeType, { id: 'cred', name: 'cred', type, data }).runNode();
	} catch (error) {
		const cause = (
			error as { cause?: { response?: { status: number; statusText?: string }; code?: string } }
		).cause;
		if (cause?.response) {
			const rule = testRequest.rules?.find(
				(r) => r.type === 'responseCode' && r.properties.value === cause.response?.status,
			);
			if (rule) return { status: 'Error', message: rule.properties.message };
			return {
				status: 'Error',
				message: cause.response.statusText || `Received HTTP status code: ${cause.response.status}`,
			};
		}
		if (cause?.code) return { status: 'Error', message: cause.code };
		return { status: 'Error', message: (error as Error).message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}
