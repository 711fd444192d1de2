/**
 * The Telegram recipes as the stage imports them: each file of examples/alerts/ and
 * examples/reports/ as it is, with the one edit its sticky note asks of a user (the chat ID in
 * place of `YOUR_CHAT_ID`), and every run's data saved so that the checks can read it.
 */
import { credentialsFor } from '../../harness/sandbox';
import type { Sandbox } from '../../sandbox';
import {
	CREDENTIAL_TYPE,
	readWorkflow,
	SANDBOX_CREDENTIAL,
	exampleId,
	type Example,
	type WorkflowNode,
} from '../lib/workflows';

const CHAT_PLACEHOLDER = 'YOUR_CHAT_ID';
const TELEGRAM_TYPE = 'n8n-nodes-base.telegram';
/** The credential id and name the recipes refer to. */
const TELEGRAM_CREDENTIAL = { id: 'telegramBot', name: 'Telegram bot' };
export const TELEGRAM_HOSTS = ['api.telegram.org'];
/** A made-up bot token of the Bot API's form (bot id, colon, 35 characters). */
export const TOKEN = '7000000001:AAHstageMadeUpTokenNotARealBot0042';

/** The bot's credential as n8n stores it: Telegram's own address, which the namespace sends to the stand-in. */
export const TELEGRAM_BOT_CREDENTIAL = {
	...TELEGRAM_CREDENTIAL,
	type: 'telegramApi',
	data: { accessToken: TOKEN, baseUrl: 'https://api.telegram.org' },
};

/** The two credentials the stage imports into n8n: the sandbox API's and the bot's. */
export function stageCredentials(sandbox: Sandbox) {
	return [
		{ ...SANDBOX_CREDENTIAL, type: CREDENTIAL_TYPE, data: credentialsFor(sandbox) },
		TELEGRAM_BOT_CREDENTIAL,
	];
}
/** A group for the alerts and a private chat for the report, as a user would pick them. */
export const ALERT_CHAT = '-1001234567890';
export const REPORT_CHAT = '123456789';
/** The data table the balance alert keeps its sent alerts in, as its sticky note names it. */
export const SENT_TABLE = 'balance_alerts_sent';

export const RECIPES = {
	balance: 'alerts/balance-alert-to-telegram.json',
	weekly: 'reports/weekly-report-to-telegram.json',
	declined: 'alerts/ad-declined-to-telegram.json',
} as const;

export interface RecipeFlow {
	example: Example;
	/** The node a manual run starts from. */
	trigger: WorkflowNode;
	chatId: string;
}

/** The recipe with its chat ID filled in, as a user imports and edits it. */
export function recipeFlow(file: string, chatId: string): RecipeFlow {
	const workflow = readWorkflow(file);
	const telegram = workflow.nodes.filter((n) => n.type === TELEGRAM_TYPE);
	if (!telegram.length) throw new Error(`${file} has no Telegram node`);
	for (const node of telegram) {
		if (node.parameters.chatId !== CHAT_PLACEHOLDER)
			throw new Error(`${file}: "${node.name}" does not send to ${CHAT_PLACEHOLDER}`);
		node.parameters = { ...node.parameters, chatId };
	}
	const fed = new Set(
		Object.values(workflow.connections as Record<string, { main: Array<Array<{ node: string }>> }>)
			.flatMap((c) => c.main.flat())
			.map((c) => c.node),
	);
	const trigger = workflow.nodes.find(
		(n) => n.type !== 'n8n-nodes-base.stickyNote' && !fed.has(n.name),
	);
	if (!trigger) throw new Error(`${file} has no trigger`);
	workflow.settings = { ...(workflow.settings as object), saveDataSuccessExecution: 'all' };
	// The import writes one file per workflow into one folder: the recipe's folder joins its name.
	const example = { file: file.replace('/', '-'), id: exampleId(`telegram/${file}`), workflow };
	return { example, trigger, chatId };
}

/** A node of the recipe by name. */
export function nodeNamed(flow: RecipeFlow, name: string): WorkflowNode {
	const node = flow.example.workflow.nodes.find((n) => n.name === name);
	if (!node) throw new Error(`${flow.example.file} has no node "${name}"`);
	return node;
}
