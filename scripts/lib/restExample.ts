/**
 * An example and the sandbox credential created through n8n's REST API, as the editor saves them:
 * nothing imported by the CLI, so the package may still be absent from n8n when they are made.
 */
import { strict as assert } from 'node:assert';
import type { SandboxCredential } from '../../harness/sandbox';
import type { N8nRest } from './rest';
import { CREDENTIAL_TYPE, listExamples, SANDBOX_CREDENTIAL, type Example } from './workflows';

export async function createExampleByRest(
	rest: N8nRest,
	file: string,
	credentialData: SandboxCredential,
	/** The workflow's settings and any other fields of the body beside its name, nodes and connections. */
	body: Record<string, unknown>,
): Promise<{ example: Example; credentialId: string }> {
	const example = listExamples().find((e) => e.file === file);
	assert.ok(example, `examples/${file} is missing`);
	const credential = await rest.request<{ id: string }>('POST', '/rest/credentials', {
		name: SANDBOX_CREDENTIAL.name,
		type: CREDENTIAL_TYPE,
		data: credentialData,
	});
	const nodes = example.workflow.nodes.map((node) =>
		node.credentials?.[CREDENTIAL_TYPE]
			? {
					...node,
					credentials: { [CREDENTIAL_TYPE]: { id: credential.id, name: SANDBOX_CREDENTIAL.name } },
				}
			: node,
	);
	const workflow = { ...example.workflow, nodes };
	delete workflow.id;
	const created = await rest.request<{ id: string }>('POST', '/rest/workflows', {
		name: workflow.name,
		nodes: workflow.nodes,
		connections: workflow.connections,
		...body,
	});
	return { example: { file: example.file, id: created.id, workflow }, credentialId: credential.id };
}
