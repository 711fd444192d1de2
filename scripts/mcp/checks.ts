/**
 * The checks of the MCP stage, on one n8n line: what an MCP client sees of the MCP server recipe,
 * and what reached the sandbox.
 */
import { strict as assert } from 'node:assert';
import { inspect } from 'node:util';
import type { Sandbox } from '../../sandbox';
import { apiRequests } from '../../harness/sandbox';
import type { Checks } from '../lib/checks';
import type { WorkflowNode } from '../lib/workflows';
import { McpClient, type ToolAnswer } from './client';

/** What the stage reports of one n8n line. */
export interface LineFigures {
	tools: Array<{ name: string; firstLine: string; keys: string[] }>;
	/** The PUTs each write call sent, by call. */
	puts: Array<{ call: string; puts: number; answer: string }>;
	/** Every tool of the recipe, called once: its operation and what came back. */
	operations: Array<{ tool: string; operation: string; result: string }>;
	/** What the client was told when it came without the token or with a wrong one. */
	refusals: string[];
	statsCallMs?: number;
	/** The same call again, later in the session (every tool once). */
	statsCallAgainMs?: number;
	/** The plain node's two runs of the same call. */
	plainStatsMs?: number[];
	/** The rows the statistics call returned over MCP. */
	statsRows?: unknown[];
}

export interface LineContext {
	checks: Checks;
	/** The MCP Server Trigger's production URL. */
	url: string;
	token: string;
	sandbox: Sandbox;
	/** The recipe's tool nodes. */
	tools: WorkflowNode[];
	/** The statistics arguments the stage asks with (a week by day and campaign). */
	statsArgs: Record<string, string>;
}

/** The tool name n8n gives a node (n8n-workflow's nodeNameToToolName). */
const toolNameOf = (nodeName: string) => nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_');

/** The `$fromAI` keys a node hands to the model. */
function fromAiKeys(node: WorkflowNode): string[] {
	return [...JSON.stringify(node.parameters).matchAll(/\$fromAI\('(\w+)'/g)]
		.map((m) => m[1])
		.filter((key, i, all) => all.indexOf(key) === i)
		.sort();
}

const puts = (sandbox: Sandbox) => apiRequests(sandbox).filter((r) => r.method === 'PUT');

function summary(answer: ToolAnswer): string {
	if (answer.isError) return `error: ${answer.text.split('\n')[0].slice(0, 160)}`;
	const items = Array.isArray(answer.json) ? (answer.json as Array<Record<string, unknown>>) : [];
	if (items.length === 1 && items[0].skipped) return `skipped (${String(items[0].reason)})`;
	if (items.length === 1 && items[0].dryRun) return 'dry run: changes shown, nothing sent';
	return `${items.length} item(s)`;
}

export async function refusalChecks(ctx: LineContext, figures: LineFigures): Promise<void> {
	const { checks, sandbox } = ctx;
	await checks.check(
		'no token and a wrong token are refused, and nothing reaches the sandbox',
		async () => {
			sandbox.clearLog();
			for (const token of [undefined, `${ctx.token}-wrong`]) {
				const which = token ? 'a wrong token' : 'no token';
				let refusal = '';
				try {
					const client = await McpClient.connect(ctx.url, token, 'streamable-http');
					await client.close();
				} catch (error) {
					// The SDK's error carries the HTTP status as its code.
					const status = (error as { code?: unknown }).code;
					refusal = `HTTP ${String(status)}: ${error instanceof Error ? error.message : inspect(error)}`;
				}
				assert.ok(refusal, `a connection with ${which} was accepted`);
				assert.match(refusal, /^HTTP 40[13]:/, `${which}: ${refusal}`);
				figures.refusals.push(`${which}: ${refusal.slice(0, 160)}`);
			}
			assert.equal(apiRequests(sandbox).length, 0, 'requests reached the sandbox');
		},
	);
}

export async function listChecks(ctx: LineContext, client: McpClient, figures: LineFigures) {
	await ctx.checks.check(
		'tools/list: every tool, its description and exactly its $fromAI keys',
		async () => {
			const listed = await client.listTools();
			assert.deepEqual(
				listed.map((tool) => tool.name).sort(),
				ctx.tools.map((node) => toolNameOf(node.name)).sort(),
			);
			for (const node of ctx.tools) {
				const tool = listed.find((t) => t.name === toolNameOf(node.name));
				assert.ok(tool, node.name);
				assert.ok((tool.description ?? '').length > 40, `${tool.name}: no description of its own`);
				const keys = Object.keys(tool.inputSchema.properties ?? {}).sort();
				assert.deepEqual(keys, fromAiKeys(node), `${tool.name}: argument keys`);
				figures.tools.push({
					name: tool.name,
					firstLine: (tool.description ?? '').split(/(?<=\.)\s/)[0],
					keys,
				});
			}
		},
	);
}

export async function statisticsChecks(ctx: LineContext, client: McpClient, figures: LineFigures) {
	const { checks, sandbox, statsArgs } = ctx;
	await checks.check(
		'a statistics call returns exactly the rows the sandbox has for that query',
		async () => {
			sandbox.clearLog();
			const answer = await client.call('Get_statistics', statsArgs);
			figures.statsCallMs = answer.ms;
			assert.equal(answer.isError, false, answer.text);
			const rows = answer.json as Array<Record<string, unknown>>;
			figures.statsRows = rows;
			const expected = sandbox.data.statsRows({
				period_from: `${statsArgs.Period_From}Z`,
				period_to: `${statsArgs.Period_To}Z`,
				period_grouping_unit: statsArgs.Period_Grouping_Unit,
				grouping: statsArgs.Grouping.split(','),
				currency_code: 'EUR',
				order_by: 'period',
			});
			assert.ok(expected.length > 0, 'the sandbox has no rows for the query');
			const key = (row: Record<string, unknown>) =>
				`${String(row.period_date)} ${String(row.campaign_id)} ${Number(row.exchanged_spent)} ${Number(row.views)}`;
			assert.deepEqual(rows.map(key), expected.map(key));
			assert.equal(apiRequests(sandbox).length, 1, 'one page request');
		},
	);
	await checks.check(
		'a bad argument (an hourly period of 4 days) returns a text a model can act on; the fixed call then succeeds in the same session',
		async () => {
			const hour = 3_600_000;
			const at = (ago: number) =>
				new Date(Math.floor((Date.now() - ago) / hour) * hour).toISOString().slice(0, 19);
			sandbox.clearLog();
			const bad = await client.call('Get_statistics', {
				...statsArgs,
				Period_From: at(96 * hour),
				Period_To: at(0),
				Period_Grouping_Unit: 'hour',
			});
			assert.equal(bad.isError, true, bad.text);
			assert.match(bad.text, /at most 2 days/);
			assert.match(bad.text, /Nothing was sent/);
			assert.equal(apiRequests(sandbox).length, 0);
			const fixed = await client.call('Get_statistics', {
				...statsArgs,
				Period_From: at(24 * hour),
				Period_To: at(0),
				Period_Grouping_Unit: 'hour',
			});
			assert.equal(fixed.isError, false, fixed.text);
			assert.ok(Array.isArray(fixed.json), fixed.text);
		},
	);
	await checks.check(
		'5 tool calls sent at once from one session all succeed, paced, with no answer of 429',
		async () => {
			sandbox.clearLog();
			const days = [1, 2, 3, 4, 5].map((n) => {
				const day = new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
				return { ...statsArgs, Period_From: `${day}T00:00:00`, Period_To: `${day}T23:59:59` };
			});
			const answers = await Promise.all(days.map((args) => client.call('Get_statistics', args)));
			for (const answer of answers) assert.equal(answer.isError, false, answer.text);
			const statuses = apiRequests(sandbox).map((r) => r.status);
			assert.equal(statuses.length, 5);
			assert.ok(!statuses.includes(429), `statuses ${statuses.join(', ')}`);
		},
	);
}

export async function writeChecks(ctx: LineContext, client: McpClient, figures: LineFigures) {
	const { checks, sandbox } = ctx;
	const ad = sandbox.data.ads.find((a) => a.status === 'active');
	assert.ok(ad, 'the sandbox has no active ad');
	const current = Number(sandbox.data.adDetail(ad.id)?.cpm);
	const asked = Math.round(current * 110) / 100;
	const args = (cpm: number) => ({ Ad_ID: String(ad.id), CPM: cpm });
	const record = async (call: string, tool: string, cpm: number) => {
		sandbox.clearLog();
		const answer = await client.call(tool, args(cpm));
		figures.puts.push({ call, puts: puts(sandbox).length, answer: summary(answer) });
		return answer;
	};
	let previewBody: unknown;
	await checks.check(
		'Preview sends no write and returns changes { cpm: { from, to } }',
		async () => {
			const answer = await record(
				`Preview (CPM ${current} → ${asked})`,
				'Preview_ad_change',
				asked,
			);
			assert.equal(answer.isError, false, answer.text);
			const [shown] = answer.json as Array<Record<string, unknown>>;
			assert.deepEqual(shown.changes, { cpm: { from: current, to: asked } });
			assert.equal(puts(sandbox).length, 0);
			previewBody = shown.body;
		},
	);
	await checks.check(
		"Apply within the bounds sends exactly one PUT, whose body is the preview's",
		async () => {
			const answer = await record(`Apply (CPM ${asked})`, 'Apply_ad_change', asked);
			assert.equal(answer.isError, false, answer.text);
			const sent = puts(sandbox);
			assert.equal(sent.length, 1);
			assert.deepEqual(sent[0].body, previewBody);
		},
	);
	await checks.check('Apply again sends nothing (skipped, unchanged)', async () => {
		const answer = await record(`Apply again (CPM ${asked})`, 'Apply_ad_change', asked);
		assert.deepEqual(answer.json, [{ skipped: true, reason: 'unchanged', ad_id: ad.id }]);
		assert.equal(puts(sandbox).length, 0);
	});
	await checks.check(
		'Apply outside a bound is an MCP error naming the bound, the current and the asked value; nothing sent',
		async () => {
			const far = Math.round(asked * 160) / 100;
			const tooFar = await record(`Apply ${far} (over Max Change 30%)`, 'Apply_ad_change', far);
			assert.equal(tooFar.isError, true, tooFar.text);
			for (const part of ['30%', `current CPM is ${asked}`, String(far)])
				assert.ok(tooFar.text.includes(part), `"${part}" not in: ${tooFar.text}`);
			assert.match(tooFar.text, /no write was sent|nothing was sent/i);
			const over = await record('Apply 50 (over CPM Max 10)', 'Apply_ad_change', 50);
			assert.equal(over.isError, true, over.text);
			for (const part of ['CPM Max', '10', '50']) assert.ok(over.text.includes(part), over.text);
			assert.match(over.text, /Nothing was sent/);
			assert.equal(apiRequests(sandbox).filter((r) => r.method !== 'GET').length, 0);
		},
	);
}

/** Every tool of the recipe once (the statistics and write tools have their own checks above). */
export async function operationChecks(ctx: LineContext, client: McpClient, figures: LineFigures) {
	await ctx.checks.check('every operation of every tool node runs over MCP once', async () => {
		const ad = ctx.sandbox.data.ads.find((a) => a.status === 'active');
		const args: Record<string, Record<string, unknown>> = {
			Get_statistics: ctx.statsArgs,
			Get_ad: { Ad_ID: String(ad?.id) },
			Preview_ad_change: {
				Ad_ID: String(ad?.id),
				CPM: Number(ctx.sandbox.data.adDetail(ad?.id ?? 0)?.cpm),
			},
			Apply_ad_change: {
				Ad_ID: String(ad?.id),
				CPM: Number(ctx.sandbox.data.adDetail(ad?.id ?? 0)?.cpm),
			},
		};
		const failed: string[] = [];
		for (const node of ctx.tools) {
			const name = toolNameOf(node.name);
			const answer = await client.call(name, args[name] ?? {});
			if (name === 'Get_statistics') figures.statsCallAgainMs = answer.ms;
			const operation = `${String(node.parameters.resource)} → ${String(node.parameters.operation)}`;
			figures.operations.push({ tool: name, operation, result: summary(answer) });
			if (answer.isError) failed.push(`${name}: ${answer.text}`);
		}
		assert.deepEqual(failed, []);
	});
}
