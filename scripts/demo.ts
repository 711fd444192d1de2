/**
 * `npm run demo`: starts the sandbox API, runs every example workflow in examples/ and examples/sync/
 * through n8n's engine in-process, prints one line per example and writes any files the workflows
 * made to demo-output/.
 *
 * The examples in sync/ end in a store this demo has not got (a PostgreSQL table, an n8n data table,
 * a Google Sheet): the demo runs them with that node replaced by a pass-through, so the line shows
 * the rows the store would receive, and names the stage that writes them to the real store.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INode } from 'n8n-workflow';
import { Sandbox } from '../sandbox';
import { EXAMPLES_DIR, itemsOf, listExamples, runExample, type ExampleWorkflow } from '../harness';
import { signInCredentialsFor } from '../harness/sandbox';

const OUTPUT_DIR = join(__dirname, '..', 'demo-output');

/** The store node types of the sync examples, and the stage that runs each against a real store. */
const STORES: Record<string, string> = {
	'n8n-nodes-base.postgres': 'npm run test:sync',
	'n8n-nodes-base.dataTable': 'npm run test:sync',
	'n8n-nodes-base.googleSheets': 'npm run test:sheets',
};

interface DemoExample extends ExampleWorkflow {
	/** The store node replaced by a pass-through, and the command that runs it for real. */
	standIn?: { node: string; command: string };
}

/** The sync examples, each with its store node replaced by n8n's No Operation node. */
function syncExamples(): DemoExample[] {
	const dir = join(EXAMPLES_DIR, 'sync');
	return readdirSync(dir)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => {
			const workflow = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Omit<
				ExampleWorkflow,
				'file'
			>;
			let standIn: DemoExample['standIn'];
			const nodes = workflow.nodes.map((node): INode => {
				const command = STORES[node.type];
				if (!command) return node;
				standIn = { node: node.name, command };
				return { ...node, type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} };
			});
			return { ...workflow, file: `sync/${file}`, nodes, standIn };
		});
}

/** Writes a node's binary outputs to demo-output/ and returns the files written. */
function writeFiles(name: string, items: ReturnType<typeof itemsOf>): string[] {
	const written: string[] = [];
	for (const item of items) {
		for (const binary of Object.values(item.binary ?? {})) {
			const file = join(OUTPUT_DIR, binary.fileName ?? `${name}.bin`);
			writeFileSync(file, Buffer.from(binary.data, 'base64'));
			written.push(`demo-output/${binary.fileName ?? `${name}.bin`}`);
		}
	}
	return written;
}

async function main(): Promise<void> {
	// The real service's form, with its rate limit.
	const sandbox = await Sandbox.start({ platform: 'telegram' });
	console.log(`Sandbox API on ${sandbox.baseUrl} (client API ${sandbox.clientApiUrl})`);
	// Username and password, as a user of the real service fills them in: n8n's engine signs in
	// once and every example uses (and renews) the token it obtained.
	const credentials = signInCredentialsFor(sandbox);
	console.log(`Credential: username ${credentials.username} and its password\n`);
	mkdirSync(OUTPUT_DIR, { recursive: true });
	let failures = 0;
	const examples: DemoExample[] = [...listExamples(), ...syncExamples()];
	try {
		for (const example of examples) {
			const started = Date.now();
			const result = await runExample(example, credentials);
			const parts: string[] = [];
			const written: string[] = [];
			for (const name of result.order) {
				const run = result.nodes[name];
				const items = itemsOf(result, name);
				parts.push(`${name}: ${run.error ? `ERROR ${run.error.message}` : items.length}`);
				written.push(...writeFiles(name, items));
			}
			const ok = !result.error && !result.order.some((name) => result.nodes[name].error);
			if (!ok) failures++;
			const notes = [
				...(written.length ? [`wrote ${written.join(', ')}`] : []),
				...(example.standIn
					? [`"${example.standIn.node}" passed through; ${example.standIn.command} writes it`]
					: []),
				...(result.error ? [`workflow failed: ${result.error.message}`] : []),
			];
			console.log(
				`${ok ? '✔' : '✘'} ${example.file} (${Date.now() - started} ms) ${parts.join(' → ')}${notes.length ? ` [${notes.join('; ')}]` : ''}`,
			);
		}
		const auth = sandbox.sessions.counts;
		console.log(
			`\nSign-ins: ${auth.logins} (${auth.failedLogins} refused), token refreshes: ${auth.refreshes}`,
		);
	} finally {
		await sandbox.stop();
	}
	if (failures) {
		console.error(`${failures} of ${examples.length} example workflow(s) failed`);
		process.exit(1);
	}
	console.log(`All ${examples.length} example workflows ran against the sandbox.`);
}

void main();
