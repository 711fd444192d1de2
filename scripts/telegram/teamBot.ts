/**
 * The team bot recipe (examples/agents/telegram-team-bot.json) in the telegram stage: published
 * with the team chat's ID in its trigger, a scripted model (scripts/lib/modelServer.ts) in place of
 * the chat model, and messages delivered by the Bot API stand-in to the webhook the trigger
 * registered.
 */
import { strict as assert } from 'node:assert';
import type { Sandbox } from '../../sandbox';
import { apiRequests } from '../../harness/sandbox';
import type { Checks } from '../lib/checks';
import { lastToolResults, type ModelServer, type Step } from '../lib/modelServer';
import { exampleId, readWorkflow, type Example } from '../lib/workflows';
import type { TelegramStandIn } from './telegramStandIn';

const BOT_RECIPE = 'agents/telegram-team-bot.json';
/** The team's group, put in the trigger's Restrict to Chat IDs; and a chat that is not on it. */
export const TEAM_CHAT = '-1009876543210';
const OTHER_CHAT = '555000111';
const CHAT_PLACEHOLDER = 'YOUR_CHAT_ID';
const MODEL_CREDENTIAL = { id: 'openAiAccount', name: 'OpenAI account' };

/** The recipe as a user edits it: the team chat's ID in place of the placeholder. */
export function teamBotExample(): Example {
	const workflow = readWorkflow(BOT_RECIPE);
	const trigger = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.telegramTrigger');
	const fields = trigger?.parameters.additionalFields as Record<string, unknown> | undefined;
	if (fields?.chatIds !== CHAT_PLACEHOLDER)
		throw new Error(`${BOT_RECIPE}: the trigger does not restrict to ${CHAT_PLACEHOLDER}`);
	fields.chatIds = TEAM_CHAT;
	workflow.settings = { ...(workflow.settings as object), saveDataSuccessExecution: 'all' };
	return { file: BOT_RECIPE.replace('/', '-'), id: exampleId(`telegram/${BOT_RECIPE}`), workflow };
}

/** The chat model's credential, pointed at the scripted model. */
export function modelCredential(model: ModelServer) {
	return {
		...MODEL_CREDENTIAL,
		type: 'openAiApi',
		data: { apiKey: 'sk-scripted-model', url: model.apiUrl },
	};
}

interface Question {
	text: string;
	campaign: string;
	day: string;
}

/** The campaign the team asks about, and yesterday (UTC, on the sandbox's clock). */
function question(sandbox: Sandbox): Question {
	const day = new Date(sandbox.clock.now().getTime() - 86_400_000).toISOString().slice(0, 10);
	const [row] = statsOf(sandbox, day);
	assert.ok(row, `the sandbox has no statistics for ${day}`);
	const campaign = String(row.campaign_name);
	return { text: `How much did ${campaign} spend yesterday?`, campaign, day };
}

function statsOf(sandbox: Sandbox, day: string): Array<Record<string, unknown>> {
	return sandbox.data.statsRows({
		period_from: `${day}T00:00:00Z`,
		period_to: `${day}T23:59:59Z`,
		period_grouping_unit: 'day',
		grouping: ['campaign'],
		currency_code: 'EUR',
		order_by: 'period',
	}) as Array<Record<string, unknown>>;
}

/** The model: asks the statistics tool for yesterday by campaign, then answers from its rows. */
function script(q: Question): Step[] {
	return [
		(request) => {
			const asked = JSON.stringify(request.messages);
			assert.ok(asked.includes(q.campaign), 'the question did not reach the model');
			return {
				toolCalls: [
					{
						name: 'Get_statistics',
						args: {
							Period_From: `${q.day}T00:00:00`,
							Period_To: `${q.day}T23:59:59`,
							Period_Grouping_Unit: 'day',
							Grouping: 'campaign',
						},
					},
				],
			};
		},
		(request) => {
			const rows = lastToolResults(request)
				.flatMap((result) => (Array.isArray(result) ? result : [result]))
				.map((item) => ((item as { json?: unknown }).json ?? item) as Record<string, unknown>);
			const row = rows.find((r) => r.campaign_name === q.campaign);
			if (!row) return { text: `I found no figures for ${q.campaign} yesterday.` };
			return {
				text: `${q.campaign} spent ${String(row.exchanged_spent)} ${String(row.exchange_currency)} yesterday (${q.day}): ${String(row.views)} views, ${String(row.clicks)} clicks.`,
			};
		},
	];
}

async function until<T>(what: string, get: () => T | undefined, timeoutMs = 90_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = get();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`${what}: nothing after ${timeoutMs / 1000}s`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

export async function teamBotChecks(
	checks: Checks,
	sandbox: Sandbox,
	standIn: TelegramStandIn,
	model: ModelServer,
): Promise<void> {
	console.log(`\n▶ ${BOT_RECIPE}`);
	const q = question(sandbox);
	model.script = script(q);
	await checks.check(
		'the team bot, published, registered its webhook with Telegram for messages',
		async () => {
			const webhook = await until('setWebhook', () => standIn.webhook);
			assert.match(webhook.allowedUpdates, /message/);
			assert.ok(webhook.secret, 'no secret token');
		},
	);
	await checks.check(
		"a question in the team chat: the model calls the statistics tool and the reply in the chat carries the sandbox's figures",
		async () => {
			sandbox.clearLog();
			const sentBefore = standIn.sent('sendMessage').length;
			assert.equal(await standIn.deliver(TEAM_CHAT, q.text), 200);
			const reply = await until('a reply in the team chat', () =>
				standIn
					.sent('sendMessage')
					.slice(sentBefore)
					.find((c) => c.fields.chat_id === TEAM_CHAT),
			);
			const expected = statsOf(sandbox, q.day).find((r) => r.campaign_name === q.campaign);
			assert.ok(expected);
			const text = reply.fields.text ?? '';
			for (const figure of [expected.exchanged_spent, expected.views, expected.clicks])
				assert.ok(text.includes(String(Number(figure))), `${String(figure)} not in "${text}"`);
			assert.equal(model.requests.length, 2, 'the model was asked twice: the question, the rows');
			assert.ok(apiRequests(sandbox).length > 0, 'no request reached the sandbox');
			console.log(`  the bot answered: ${text}`);
		},
	);
	await checks.check(
		'a message from a chat not on the list gets no answer and calls no tool',
		async () => {
			sandbox.clearLog();
			const sentBefore = standIn.calls.length;
			const asked = model.requests.length;
			assert.equal(await standIn.deliver(OTHER_CHAT, q.text), 200);
			await new Promise((resolve) => setTimeout(resolve, 5_000));
			assert.deepEqual(
				standIn.calls.slice(sentBefore).map((c) => c.method),
				[],
			);
			assert.equal(model.requests.length, asked, 'the model was asked');
			assert.equal(apiRequests(sandbox).length, 0, 'requests reached the sandbox');
		},
	);
}
