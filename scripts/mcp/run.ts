/**
 * `npm run test:mcp`: the MCP server recipe (examples/agents/adstat-mcp-server.json) in real n8n
 * 2.41.1 and 1.123.81, called by the official MCP TypeScript SDK client.
 *
 * On each n8n line:
 *  1. n8n from the cache and the packed package in a fresh user folder (as the e2e stage); the
 *     sandbox API in its telegram form, with the real service's rate limit and its clock stopped.
 *  2. The sandbox credential and a Bearer Auth credential imported, the recipe imported as it is
 *     and published; `n8n start` on 127.0.0.1.
 *  3. Over Streamable HTTP: no token and a wrong token refused; tools/list; a statistics call against
 *     the sandbox's rows; a bad argument and its fix; 5 calls at once; Preview, Apply, Apply again
 *     and Apply outside a bound against the sandbox's PUTs; every tool once. Over SSE: the tool list
 *     and one call. Under the rate limit (limitChecks.ts): an ad's path spent by CPM changes, then
 *     12 Get ad calls in a row, each answered within 25 s (the ad, or "try again in N s"), the
 *     same call after N s; an Apply on the spent
 *     path refused at once with no PUT then or later; Get ad, Preview, Apply in 1 GET + 1 PUT; five
 *     +29% Applies stopped by Max Change % per Day after the first. A tool call's one deadline
 *     (deadlineChecks.ts): an Apply while another execution changes the same ad, and a Get ad
 *     answered 429 with a Retry-After of 15 s twice, and a Get ad that must sign in while the sign-in
 *     path is spent and the ad's path half spent, each call within 25 s at the MCP client.
 *  4. The time of the statistics call over MCP, and of the same call in the plain node (n8n's
 *     engine in-process, `harness/`), against the same sandbox.
 *
 * Flags: --keep (keep the work folders: n8n's user folder and logs), --line 2.41.1 (one line only).
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Sandbox } from '../../sandbox';
import { credentialsFor } from '../../harness/sandbox';
import { runNode } from '../../harness';
import { Checks } from '../lib/checks';
import { stageEvidence, writeEvidence } from '../lib/evidence';
import { finishStage, runStage, seconds, setUpStage, stageSession } from '../lib/stage';
import { REPO_ROOT } from '../lib/runtime';
import {
	CREDENTIAL_TYPE,
	SANDBOX_CREDENTIAL,
	type Example,
	type WorkflowJson,
} from '../lib/workflows';
import {
	listChecks,
	operationChecks,
	refusalChecks,
	statisticsChecks,
	writeChecks,
	type LineContext,
	type LineFigures,
} from './checks';
import { McpClient } from './client';
import { limitChecks, type LimitFigures } from './limitChecks';
import { deadlineChecks, otherChangeUrl, otherChangeWorkflow } from './deadlineChecks';
import type { DeadlineFigures } from './deadlineFigures';

const argv = process.argv.slice(2);
const keep = argv.includes('--keep');
const only = argv.includes('--line') ? argv[argv.indexOf('--line') + 1] : undefined;
const LINES = ['2.41.1', '1.123.81'].filter((line) => !only || line === only);

const RECIPE_FILE = 'agents/adstat-mcp-server.json';
const TOKEN = 'mcp-stage-bearer-token-0123456789abcdef';
const BEARER = { id: 'adstatMcpBearer', name: 'Adstat MCP bearer token' };

function recipe(): WorkflowJson {
	return JSON.parse(readFileSync(join(REPO_ROOT, 'examples', RECIPE_FILE), 'utf8')) as WorkflowJson;
}

/** A week before the sandbox's today, by day and campaign. */
function statsArgs(now: Date): Record<string, string> {
	const day = (n: number) => new Date(now.getTime() - n * 86_400_000).toISOString().slice(0, 10);
	return {
		Period_From: `${day(7)}T00:00:00`,
		Period_To: `${day(1)}T23:59:59`,
		Period_Grouping_Unit: 'day',
		Grouping: 'campaign',
	};
}

/**
 * n8n activates published workflows in the background after it reports ready: the endpoint answers
 * 404 until the MCP Server Trigger's webhooks are registered, then refuses a request without token.
 */
async function endpointRegistered(url: string, timeoutMs = 60_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	let status = 0;
	while (Date.now() < deadline) {
		status = (await fetch(url, { method: 'POST', body: '{}' })).status;
		if (status !== 404) return;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	throw new Error(`the endpoint still answers ${status} after ${timeoutMs / 1000}s`);
}

async function runLine(
	line: string,
	started: number,
): Promise<{
	code: number;
	figures: LineFigures;
	limits: LimitFigures;
	deadlines: DeadlineFigures;
	checks: Checks;
}> {
	const checks = new Checks();
	const figures: LineFigures = { tools: [], puts: [], operations: [], refusals: [] };
	const limits: LimitFigures = { spending: [], burst: [], dailyApplies: [] };
	const deadlines: DeadlineFigures = { cases: [] };
	console.log(`\n▶ n8n ${line}`);
	const setUp = setUpStage(`mcp-${line}`, started, 'pack', line);
	if (!setUp) return { code: 1, figures, limits, deadlines, checks };
	const now = new Date(Math.floor(Date.now() / 60_000) * 60_000);
	const sandbox = await Sandbox.start({ platform: 'telegram', now, clock: 'frozen' });
	const workflow = recipe();
	const trigger = workflow.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.mcpTrigger');
	const tools = workflow.nodes.filter((n) => n.type.startsWith('n8n-nodes-ad-cabinet.'));
	let server:
		Awaited<ReturnType<Awaited<ReturnType<typeof stageSession>>['startServer']>> | undefined;
	try {
		assert.ok(trigger, 'the recipe has no MCP Server Trigger');
		const session = await stageSession(setUp);
		await checks.check(
			'the sandbox and Bearer credentials import; the recipe imports and is published',
			async () => {
				await session.importCredentials([
					{ ...SANDBOX_CREDENTIAL, type: CREDENTIAL_TYPE, data: credentialsFor(sandbox) },
					{ ...BEARER, type: 'httpBearerAuth', data: { token: TOKEN } },
				]);
				const example: Example = { file: RECIPE_FILE, id: 'adstatMcpServer1', workflow };
				// Another execution that changes an ad, for the deadline cases.
				const other = otherChangeWorkflow(SANDBOX_CREDENTIAL);
				await session.importExamples([
					example,
					{ file: 'mcp-stage/other-change.json', id: String(other.id), workflow: other },
				]);
				await session.publishWorkflow(example.id);
				await session.publishWorkflow(String(other.id));
			},
		);
		server = await session.startServer();
		const ctx: LineContext = {
			checks,
			url: `${server.url}/mcp/${String(trigger.parameters.path)}`,
			token: TOKEN,
			sandbox,
			tools,
			statsArgs: statsArgs(now),
		};
		console.log(`  MCP server at ${ctx.url}; sandbox API on ${sandbox.baseUrl}`);
		await checks.check('the published recipe registers its MCP endpoint', async () => {
			await endpointRegistered(ctx.url);
		});
		await refusalChecks(ctx, figures);
		const client = await McpClient.connect(ctx.url, TOKEN, 'streamable-http');
		try {
			await listChecks(ctx, client, figures);
			await limitChecks(ctx, client, limits);
			await deadlineChecks(ctx, client, deadlines, otherChangeUrl(server.url), server.rest);
			await statisticsChecks(ctx, client, figures);
			await writeChecks(ctx, client, figures);
			await operationChecks(ctx, client, figures);
		} finally {
			await client.close();
		}
		await checks.check('over SSE: the same tool list, and a call that answers', async () => {
			const sse = await McpClient.connect(ctx.url, TOKEN, 'sse');
			try {
				assert.equal((await sse.listTools()).length, tools.length);
				const balance = await sse.call('Get_balance');
				assert.equal(balance.isError, false, balance.text);
			} finally {
				await sse.close();
			}
		});
		await checks.check(
			'the same statistics call in the plain node (n8n-core in-process) returns the same rows',
			async () => {
				const node = tools.find((n) => n.name === 'Get statistics');
				assert.ok(node);
				const args = ctx.statsArgs;
				const parameters = JSON.parse(
					JSON.stringify(node.parameters).replace(
						/"=\{\{ \$fromAI\('(\w+)'[^"]*\}\}"/g,
						(_m, key: string) => JSON.stringify(args[key]),
					),
				) as Record<string, never>;
				// Twice: the first run in this process also loads the node types.
				const timed = async () => {
					const t = Date.now();
					const run = await runNode({
						type: 'adCabinetStats',
						typeVersion: node.typeVersion,
						parameters,
						credentials: credentialsFor(sandbox),
					});
					return { run, ms: Date.now() - t };
				};
				const first = await timed();
				const second = await timed();
				figures.plainStatsMs = [first.ms, second.ms];
				assert.equal(second.run.error, undefined, second.run.error?.message);
				assert.deepEqual(
					second.run.items.map((item) => item.json),
					figures.statsRows,
				);
			},
		);
	} catch (error) {
		checks.fail(`mcp stage on n8n ${line}`, (error as Error).stack ?? String(error));
	} finally {
		await server?.stop();
		await sandbox.stop();
	}
	const code = finishStage({
		stage: `mcp (n8n ${line})`,
		started,
		checks,
		ranIn: `n8n ${line} with the MCP Server Trigger`,
		work: setUp.work,
		holds: "n8n's user folder and logs",
		keep,
	});
	return { code, figures, limits, deadlines, checks };
}

function printFigures(
	line: string,
	figures: LineFigures,
	limits: LimitFigures,
	deadlines: DeadlineFigures,
): void {
	console.log(`\n▶ Figures on n8n ${line}`);
	for (const refusal of figures.refusals) console.log(`  refused, ${refusal}`);
	console.log('  tools/list as the MCP client sees it:');
	for (const tool of figures.tools)
		console.log(`    ${tool.name} (${tool.keys.join(', ') || 'no arguments'}): ${tool.firstLine}`);
	console.log('  PUTs that reached the sandbox:');
	for (const call of figures.puts)
		console.log(`    ${call.call}: ${call.puts} PUT; ${call.answer}`);
	console.log('  every operation over MCP:');
	for (const op of figures.operations)
		console.log(`    ${op.tool} | ${op.operation} | ${op.result}`);
	console.log(
		`  under the rate limit: slowest of the burst's Get ad calls ${limits.burstSlowestMs ?? '?'} ms; Get ad, Preview, Apply sent ${limits.readPreviewApply ?? '?'}`,
	);
	console.log(`    CPM changes that spent the ad's path: ${limits.spending.join('; ')}`);
	console.log(`    requests on that path: ${limits.spentBy ?? '?'}`);
	console.log(`    the burst: ${limits.burst.join('; ')}`);
	console.log(`    Apply on the spent path: ${limits.applyRefusal ?? '?'}`);
	console.log('    five Applies of +29% on one ad:');
	for (const apply of limits.dailyApplies) console.log(`      ${apply}`);
	console.log("  a tool call's one deadline (each call measured at the MCP client):");
	for (const deadlineCase of deadlines.cases)
		console.log(
			`    ${deadlineCase.name}: slowest ${deadlineCase.slowestMs} ms; ${deadlineCase.answers.join('; ')}`,
		);
	console.log(
		`  statistics call: ${figures.statsCallMs ?? '?'} ms over MCP (then ${figures.statsCallAgainMs ?? '?'} ms for the same call later in the session), ${figures.plainStatsMs?.join(' ms, then ') ?? '?'} ms in the plain node (in-process, its first run loading the node types)`,
	);
}

async function main(): Promise<number> {
	const started = Date.now();
	let code = 0;
	const all = new Checks();
	const measured: string[] = [];
	for (const line of LINES) {
		const result = await runLine(line, started);
		printFigures(line, result.figures, result.limits, result.deadlines);
		code ||= result.code;
		all.results.push(
			...result.checks.results.map((r) => ({ ...r, name: `n8n ${line}: ${r.name}` })),
		);
		const { figures: f, limits } = result;
		measured.push(
			`n8n ${line}, statistics call over MCP: ${f.statsCallMs ?? '?'} ms, then ${f.statsCallAgainMs ?? '?'} ms later in the session`,
			`n8n ${line}, the same call in the plain node: ${f.plainStatsMs?.join(' ms, then ') ?? '?'} ms`,
			`n8n ${line}, slowest Get ad call of the burst under the rate limit: ${limits.burstSlowestMs ?? '?'} ms`,
			...result.deadlines.cases.map(
				(deadlineCase) =>
					`n8n ${line}, ${deadlineCase.name}: slowest call ${deadlineCase.slowestMs} ms at the MCP client`,
			),
		);
	}
	writeEvidence(
		stageEvidence({
			name: 'mcp',
			title: 'MCP server recipe',
			command: 'npm run test:mcp',
			started,
			n8n: `${LINES.join(' and ')}, MCP Server Trigger with the MCP SDK client`,
			checks: all,
			figures: measured,
		}),
	);
	console.log(`mcp stage (${LINES.join(' and ')}): ${seconds(Date.now() - started)}`);
	return code;
}

runStage(main);
