/**
 * `npm run demo`: starts the sandbox API, runs every example workflow in examples/, examples/sync/,
 * examples/alerts/ and examples/reports/ through n8n's engine in-process, prints one line per
 * example and writes any files the workflows made to demo-output/.
 *
 * The examples in the folders end in something this demo has not got (a PostgreSQL table, an n8n
 * data table, a Google Sheet, a Telegram chat): the demo runs them with those nodes replaced by
 * pass-throughs, so the line shows the items they would receive, and names the stage that runs
 * them for real. A recipe built on a node this package does not have yet is listed, not run, and so
 * are the AI recipes of examples/agents/ (an MCP server, a chat bot with a model): the line names the
 * stage that runs each in real n8n.
 *
 * A recipe that starts with the Ads Trigger runs as an active workflow would: a first poll that
 * records the ads, a decision of moderation in the sandbox, and a second poll whose items run the
 * rest of the workflow. While a request waits for the rate limit, a line says how long and why.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ICredentialDataDecryptedObject, INode } from 'n8n-workflow';
import { Sandbox } from '../sandbox';
import { setAdStatus } from '../sandbox/handlers/adStatusControl';
import {
	itemsOf,
	listExamples,
	listExamplesIn,
	PACKAGE_NAME,
	pollOnce,
	runExample,
	watchLogs,
	type ExampleWorkflow,
	type WorkflowResult,
} from '../harness';
import { signInCredentialsFor } from '../harness/sandbox';

const OUTPUT_DIR = join(__dirname, '..', 'demo-output');

/** The node types the demo passes through, and the stage that runs each against the real thing. */
const STORES: Record<string, string> = {
	'n8n-nodes-base.postgres': 'npm run test:sync',
	'n8n-nodes-base.dataTable': 'npm run test:sync',
	'n8n-nodes-base.googleSheets': 'npm run test:sheets',
	'n8n-nodes-base.telegram': 'npm run test:telegram',
};
/** In the Telegram recipes a data table keeps what was sent: the Telegram stage runs it. */
const STAGE_OF_FOLDER: Record<string, string | undefined> = {
	alerts: 'npm run test:telegram',
	reports: 'npm run test:telegram',
};

/** The AI recipes: they answer an MCP client or a chat through a model, which the demo has not got. */
const AGENT_RECIPE_STAGES: Record<string, string> = {
	'agents/adstat-mcp-server.json': 'npm run test:mcp',
	'agents/telegram-team-bot.json': 'npm run test:telegram',
};

interface DemoExample extends ExampleWorkflow {
	/** The nodes replaced by a pass-through, and the command that runs them for real. */
	standIn?: { node: string; command: string };
	/** Set when the workflow needs a node type this package does not have. */
	missing?: string;
	/** Set for an AI recipe: the stage that runs it in real n8n. */
	elsewhere?: string;
}

/** This package's node type names, from the built files package.json lists. */
function packageNodeTypes(): Set<string> {
	const pkg = require('../package.json') as { n8n: { nodes: string[] } };
	return new Set(
		pkg.n8n.nodes.map((file) => {
			const name = basename(file, '.node.js');
			return `${PACKAGE_NAME}.${name[0].toLowerCase()}${name.slice(1)}`;
		}),
	);
}

/** A folder's examples, each with its store or delivery nodes replaced by n8n's No Operation node. */
function passedThrough(folder: string): DemoExample[] {
	const ours = packageNodeTypes();
	return listExamplesIn(folder).map((workflow) => {
		const replaced: string[] = [];
		let command = '';
		const nodes = workflow.nodes.map((node): INode => {
			const stage = STORES[node.type] && (STAGE_OF_FOLDER[folder] ?? STORES[node.type]);
			if (!stage) return node;
			replaced.push(node.name);
			command = stage;
			return { ...node, type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} };
		});
		const missing = workflow.nodes.find(
			(node) => node.type.startsWith(`${PACKAGE_NAME}.`) && !ours.has(node.type),
		)?.type;
		return {
			...workflow,
			nodes,
			missing,
			standIn: replaced.length ? { node: replaced.join('", "'), command } : undefined,
		};
	});
}

const ADS_TRIGGER = `${PACKAGE_NAME}.adCabinetAdsTrigger`;

/**
 * An example that starts with the Ads Trigger, run as an active workflow: the first poll records
 * the ads (and emits nothing), the sandbox's moderation declines one, and the second poll's items
 * run the rest of the workflow.
 */
async function runFromAdsTrigger(
	example: DemoExample,
	trigger: INode,
	credentials: ICredentialDataDecryptedObject,
	sandbox: Sandbox,
): Promise<WorkflowResult> {
	const poll = async (staticData = {}) =>
		await pollOnce({
			type: 'adCabinetAdsTrigger',
			parameters: trigger.parameters,
			credentials,
			staticData,
			typeVersion: trigger.typeVersion,
			name: trigger.name,
		});
	const first = await poll();
	if (first.error) throw first.error;
	const ad = sandbox.data.ads.find((candidate) => candidate.status === 'active');
	if (!ad) throw new Error('the sandbox has no active ad to decline');
	setAdStatus(sandbox.data, String(ad.id), {
		status: 'declined',
		decline_reason: [{ reason: 'The landing page does not match the ad text' }],
	});
	const second = await poll(first.staticData);
	if (second.error) throw second.error;
	console.log(
		`  the sandbox's moderation declines ad ${ad.id}; the second poll emits ${second.items?.length ?? 0} item(s), which run the rest of the workflow`,
	);
	const pinned = (second.items ?? []).map((item) => ({ json: item.json }));
	return await runExample({ ...example, pinData: { [trigger.name]: pinned } }, credentials);
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
	// What would sit still without a word: a wait for the rate limit, a trigger's first poll.
	let current = '';
	const stopWatching = watchLogs((_level, message, meta) => {
		const wait = (meta as { rateLimitWait?: Record<string, unknown> } | undefined)?.rateLimitWait;
		if (wait) {
			console.log(
				`  … ${current} waits ${String(wait.seconds)} s: the API takes ${String(wait.requests)} requests per ${String(wait.windowSeconds)} s on each URL path (the real service's limit), and ${String(wait.path)} has had them`,
			);
		} else if (message.startsWith('Ad Cabinet Ads Trigger: the first poll')) {
			console.log(`  ${message.replace(/^Ad Cabinet Ads Trigger: /, '')}`);
		}
	});
	let failures = 0;
	const examples: DemoExample[] = [
		...listExamples(),
		...['sync', 'alerts', 'reports'].flatMap(passedThrough),
		...listExamplesIn('agents').map((workflow) => ({
			...workflow,
			elsewhere: AGENT_RECIPE_STAGES[workflow.file] ?? 'no stage yet',
		})),
	];
	try {
		for (const example of examples) {
			if (example.missing) {
				console.log(
					`- ${example.file} not run: ${example.missing} is not among this package's nodes yet`,
				);
				continue;
			}
			if (example.elsewhere) {
				console.log(
					`- ${example.file} not run here (an AI recipe: an MCP client or a chat model calls its tools); ${example.elsewhere} runs it in real n8n`,
				);
				continue;
			}
			current = example.file;
			const started = Date.now();
			const trigger = example.nodes.find((node) => node.type === ADS_TRIGGER);
			const result = trigger
				? await runFromAdsTrigger(example, trigger, credentials, sandbox)
				: await runExample(example, credentials);
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
				...(written.length ? [`wrote ${[...new Set(written)].join(', ')}`] : []),
				...(example.standIn
					? [`"${example.standIn.node}" passed through; ${example.standIn.command} runs it`]
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
		stopWatching();
		await sandbox.stop();
	}
	if (failures) {
		console.error(`${failures} of ${examples.length} example workflow(s) failed`);
		process.exit(1);
	}
	const ran = examples.filter((e) => !e.missing && !e.elsewhere).length;
	const missing = examples.filter((e) => e.missing).length;
	const elsewhere = examples.filter((e) => e.elsewhere).length;
	const notes = [
		...(missing ? [`${missing} not run: a node this package does not have yet`] : []),
		...(elsewhere ? [`${elsewhere} AI recipe(s) run by their own stage`] : []),
	];
	console.log(
		`All ${ran} example workflows ran against the sandbox${notes.length ? ` (${notes.join('; ')})` : ''}.`,
	);
}

void main();
