import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { listExamplesIn, PACKAGE_NAME, runAsTool } from '../../harness';
import { apiRequests, apiWrites, credentialsFor } from '../../harness/sandbox';
import { cabinetIdIn } from '../../sandbox';
import { useSandbox } from '../support/useSandbox';

/**
 * The MCP server recipe (examples/agents/adstat-mcp-server.json): its shape, and each of its tools
 * called in-process the way the MCP Server Trigger calls it. `npm run test:mcp` runs the recipe in
 * real n8n with an MCP client.
 */
const recipe = listExamplesIn('agents').find((e) => e.file === 'agents/adstat-mcp-server.json');
if (!recipe) throw new Error('examples/agents/adstat-mcp-server.json is missing');
const TRIGGER = recipe.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.mcpTrigger');
const tools = recipe.nodes.filter((n) => n.type.startsWith(`${PACKAGE_NAME}.`));
const note = recipe.nodes.find((n) => n.type === 'n8n-nodes-base.stickyNote');

/** The `$fromAI` keys a parameter value hands to the model. */
function keysIn(value: unknown): string[] {
	return [...JSON.stringify(value).matchAll(/\$fromAI\('(\w+)'/g)].map((m) => m[1]);
}

/** The arguments each tool gets in this test. */
const NOW = '2026-11-20T12:00:00.000Z';
/** The tools both recipes give: every read, and the change's preview (Dry Run fixed on). */
const READ_TOOLS = [
	'Get statistics',
	'Get many ads',
	'Get ad',
	'Get campaigns',
	'Get cabinets',
	'Get balance',
	'Preview ad change',
];
const DE = cabinetIdIn('telegram', '100002');

describe('examples/agents/adstat-mcp-server.json', () => {
	const sandbox = useSandbox({ platform: 'telegram', now: NOW });
	const activeAd = () => {
		const ad = sandbox().data.ads.find((a) => a.status === 'active' && a.accountId === DE);
		if (!ad) throw new Error('no active ad');
		return { id: ad.id, cpm: Number(sandbox().data.adDetail(ad.id)?.cpm) };
	};

	test('an MCP Server Trigger (version 2, Bearer) whose path placeholder the sticky note names', () => {
		expect(TRIGGER).toMatchObject({ typeVersion: 2, parameters: { authentication: 'bearerAuth' } });
		const path = String(TRIGGER?.parameters.path);
		expect(String(note?.parameters.content)).toContain(`\`${path}\``);
		expect(Object.keys(TRIGGER?.credentials ?? {})).toEqual(['httpBearerAuth']);
	});

	test('the tools: every one wired to the trigger; the model fills only period, unit, grouping, ad and CPM', () => {
		expect(tools.map((t) => t.name)).toEqual([...READ_TOOLS, 'Apply ad change']);
		for (const tool of tools) {
			expect(tool.type.endsWith('Tool')).toBe(true);
			expect(recipe.connections[tool.name]?.ai_tool?.[0]?.[0]?.node).toBe(TRIGGER?.name);
			const { options, ...rest } = tool.parameters as INodeParameters & { options?: IDataObject };
			// Bounds, Dry Run and the credential never come from the model.
			expect(keysIn(options ?? {})).toEqual([]);
			expect(keysIn(tool.credentials ?? {})).toEqual([]);
			for (const key of keysIn(rest))
				expect([
					'Period_From',
					'Period_To',
					'Period_Grouping_Unit',
					'Grouping',
					'Ad_ID',
					'CPM',
				]).toContain(key);
		}
		const [preview, apply] = tools.slice(-2);
		expect(preview.parameters.options).toMatchObject({ dryRun: true });
		expect(apply.parameters.options).toMatchObject({
			cpmMin: 0.5,
			cpmMax: 10,
			maxChangePercent: 30,
			skipUnchanged: true,
		});
		expect(apply.parameters.options).not.toHaveProperty('dryRun');
		expect(String(apply.parameters.toolDescription)).toMatch(/Preview_ad_change.*first/);
	});

	const call = (name: string, args: IDataObject) => {
		const node = tools.find((t) => t.name === name);
		if (!node) throw new Error(name);
		return runAsTool({
			type: node.type.replace(`${PACKAGE_NAME}.`, '').replace(/Tool$/, ''),
			typeVersion: node.typeVersion,
			parameters: node.parameters,
			credentials: credentialsFor(sandbox()),
			calls: [args],
		});
	};

	test.each([
		[
			'Get statistics',
			{
				Period_From: '2026-11-01T00:00:00',
				Period_To: '2026-11-07T23:59:59',
				Period_Grouping_Unit: 'day',
				Grouping: 'campaign',
			},
		],
		['Get many ads', {}],
		['Get campaigns', {}],
		['Get cabinets', {}],
		['Get balance', {}],
	])('%s answers with items, called as the MCP Server Trigger calls it', async (name, args) => {
		const { calls } = await call(name, args);
		expect(calls[0].error).toBeUndefined();
		expect(calls[0].result?.length).toBeGreaterThan(0);
		expect(apiRequests(sandbox()).filter((r) => r.method === 'PUT')).toHaveLength(0);
	});

	test('Get ad, Preview, Apply, Apply again and Apply outside a bound', async () => {
		const { id, cpm } = activeAd();
		const got = await call('Get ad', { Ad_ID: String(id) });
		expect(got.calls[0].result?.[0]).toMatchObject({ ad_id: id });
		const asked = Math.round(cpm * 110) / 100;
		const preview = await call('Preview ad change', { Ad_ID: String(id), CPM: asked });
		const shown = preview.calls[0].result?.[0] as IDataObject;
		expect(shown).toMatchObject({
			dryRun: true,
			method: 'PUT',
			changes: { cpm: { from: cpm, to: asked } },
		});
		expect(apiWrites(sandbox())).toHaveLength(0);
		await call('Apply ad change', { Ad_ID: String(id), CPM: asked });
		expect(apiWrites(sandbox()).map((w) => w.body)).toEqual([shown.body]);
		const again = await call('Apply ad change', { Ad_ID: String(id), CPM: asked });
		expect(again.calls[0].result).toEqual([{ skipped: true, reason: 'unchanged', ad_id: id }]);
		sandbox().clearLog();
		const outside = await call('Apply ad change', { Ad_ID: String(id), CPM: 50 });
		expect(outside.calls[0].error).toContain('CPM Max');
		expect(apiRequests(sandbox())).toHaveLength(0);
	});
});

describe('examples/agents/telegram-team-bot.json', () => {
	const bot = listExamplesIn('agents').find((e) => e.file === 'agents/telegram-team-bot.json');
	if (!bot) throw new Error('examples/agents/telegram-team-bot.json is missing');
	const named = (name: string) => bot.nodes.find((n) => n.name === name);
	const botTools = bot.nodes.filter((n) => n.type.startsWith(`${PACKAGE_NAME}.`));

	test('Telegram Trigger on messages, only from the chat IDs the sticky note names', () => {
		const trigger = named('Telegram Trigger');
		expect(trigger?.parameters).toMatchObject({
			updates: ['message'],
			additionalFields: { chatIds: 'YOUR_CHAT_ID' },
		});
		const note = bot.nodes.find((n) => n.type === 'n8n-nodes-base.stickyNote');
		expect(String(note?.parameters.content)).toContain('`YOUR_CHAT_ID`');
	});

	test('the AI Agent has the read tools and Preview, no tool that writes, and answers in the same chat', () => {
		expect(botTools.map((t) => t.name)).toEqual(READ_TOOLS);
		for (const tool of botTools) {
			expect(bot.connections[tool.name]?.ai_tool?.[0]?.[0]?.node).toBe('AI Agent');
			if (tool.parameters.operation === 'update')
				expect(tool.parameters.options).toMatchObject({ dryRun: true });
		}
		expect(bot.connections['Chat model']?.ai_languageModel?.[0]?.[0]?.node).toBe('AI Agent');
		expect(bot.connections['AI Agent']?.main?.[0]?.[0]?.node).toBe('Answer in the chat');
		expect(named('Answer in the chat')?.parameters.chatId).toBe(
			"={{ $('Telegram Trigger').item.json.message.chat.id }}",
		);
	});
});
