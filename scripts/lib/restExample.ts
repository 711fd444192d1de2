/**
 * An example and the sandbox credential created through n8n's REST API, as the editor saves them
 * (nothing imported by the CLI, so the package may still be absent from n8n when they are made),
 * and the example run as the editor's Execute workflow button runs it.
 */
import { strict as assert } from 'node:assert';
import type { SandboxCredential } from '../../harness/sandbox';
import { checkExample, type ExampleRunSetup } from './exampleChecks';
import { EXPECTATIONS } from './expectations';
import { runManually } from './manualRun';
import type { N8nRest } from './rest';
import type { N8nRuntime } from './runtime';
import {
	CREDENTIAL_TYPE,
	listExamples,
	SANDBOX_CREDENTIAL,
	type Example,
	type RunData,
} from './workflows';

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

/** Runs the example as the editor's Execute workflow button does; the run, whatever its outcome. */
export async function runExampleByRest(
	runtime: N8nRuntime,
	rest: N8nRest,
	example: Example,
	timeoutMs?: number,
): Promise<RunData> {
	const trigger = example.workflow.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
	assert.ok(trigger, `${example.file} has no manual trigger`);
	return await runManually(runtime, rest, example, trigger, timeoutMs);
}

/**
 * The example run that way and held to everything the e2e stage holds it to: it ran completely,
 * the same items and API requests as the in-process harness, and its own expectation.
 */
export async function checkExampleByRest(
	setup: ExampleRunSetup,
	rest: N8nRest,
	example: Example,
	how: string,
	timeoutMs?: number,
): Promise<void> {
	const expectation = EXPECTATIONS[example.file];
	assert.ok(expectation, `no expectation for ${example.file}`);
	await checkExample(
		setup,
		{ example, expectation },
		async () => await runExampleByRest(setup.runtime, rest, example, timeoutMs),
		how,
	);
}
