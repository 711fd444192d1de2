/**
 * `npm run test:telegram`: the Telegram recipes, delivered. examples/alerts/ and examples/reports/
 * run in real n8n with n8n's own Telegram node and a Telegram API credential holding a made-up bot
 * token. Telegram is a local stand-in of the Bot API (telegramStandIn.ts) for api.telegram.org,
 * reached by that name inside a network namespace of the stage's own (scripts/lib/namespace.ts),
 * over HTTPS with a CA made here and trusted by n8n's Node alone. The statistics and balances come
 * from the sandbox API in its telegram form, with its clock stopped.
 *
 * Checks:
 *  1. the credential's Test (getMe) goes green through the stand-in;
 *  2. the balance alert sends one HTML message per cabinet below its threshold to the chat, writes
 *     each to the data table, and a second run the same day sends nothing;
 *  3. the weekly report sends one HTML message and one CSV document whose rows are the API's;
 *  4. the declined-ad recipe, after the sandbox declines one ad and holds another, sends one HTML
 *     message per ad its Ads Trigger gives, with the title, campaign, status and reasons;
 *  5. the team bot (examples/agents/telegram-team-bot.json), published: its trigger registers a
 *     webhook with the stand-in; a question delivered from the team chat makes the scripted model
 *     call the statistics tool, and the reply in the chat carries the sandbox's figures; a message
 *     from a chat not on its list gets no answer and no tool call;
 *  6. every call reached the stand-in with the bot's token, and Telegram refused none.
 * The declined-ad recipe runs only when this package has the Ads Trigger it starts from.
 *
 * With --queue it runs instead the declined-ad recipe active in queue mode, across a restart of
 * main (queueRun.ts).
 *
 * Flags: --keep (keep the work folder: n8n's user folder, the CA and logs), --queue.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Sandbox } from '../../sandbox';
import { Checks } from '../lib/checks';
import { repoPackageJson } from '../lib/installPackage';
import { runToSuccess } from '../lib/manualRun';
import { tail } from '../lib/processes';
import type { N8nRest } from '../lib/rest';
import type { N8nServer } from '../lib/session';
import {
	awayFromMidnight,
	finishStage,
	runOutsideNamespace,
	runStage,
	setUpInside,
	stageSession,
	type NamespacedStage,
} from '../lib/stage';
import { makeTestTls } from '../lib/testCa';
import { balanceChecks } from './balanceChecks';
import { declinedChecks } from './declinedChecks';
import { TelegramStandIn } from './telegramStandIn';
import { weeklyChecks } from './weeklyChecks';
import { queueStage } from './queueRun';
import { ModelServer } from '../lib/modelServer';
import { modelCredential, TEAM_CHAT, teamBotChecks, teamBotExample } from './teamBot';
import {
	ALERT_CHAT,
	recipeFlow,
	type RecipeFlow,
	RECIPES,
	REPORT_CHAT,
	SENT_TABLE,
	stageCredentials,
	TELEGRAM_BOT_CREDENTIAL,
	TELEGRAM_HOSTS,
	TOKEN,
} from './workflows';

const flags = new Set(process.argv.slice(2));
const STAGE: NamespacedStage = {
	name: 'telegram',
	hosts: TELEGRAM_HOSTS,
	setupEnv: 'AD_CABINET_TELEGRAM_SETUP',
	inside: 'AD_CABINET_TELEGRAM_NAMESPACE',
};

/** Whether this package has the Ads Trigger the declined-ad recipe starts from. */
function hasAdsTrigger(): boolean {
	const nodes = (repoPackageJson() as { n8n?: { nodes?: string[] } }).n8n?.nodes ?? [];
	return nodes.some((file) => /\/AdCabinetAdsTrigger\.node\.js$/.test(file));
}

/** Creates the data table the balance alert's note asks for, over REST as the editor does. */
async function createSentTable(
	rest: N8nRest,
): Promise<() => Promise<Array<Record<string, unknown>>>> {
	const project = await rest.request<{ id: string }>('GET', '/rest/projects/personal');
	const base = `/rest/projects/${project.id}/data-tables`;
	const table = await rest.request<{ id: string }>('POST', base, {
		name: SENT_TABLE,
		columns: [
			{ name: 'alert_key', type: 'string' },
			{ name: 'cabinet_id', type: 'string' },
			{ name: 'currency', type: 'string' },
			{ name: 'available_balance', type: 'number' },
			{ name: 'message_id', type: 'number' },
		],
	});
	return async () => {
		const page = await rest.request<{ data: Array<Record<string, unknown>> }>(
			'GET',
			`${base}/${table.id}/rows?take=1000`,
		);
		return page.data;
	};
}

async function inner(): Promise<number> {
	const setUp = setUpInside(STAGE);
	if (flags.has('--queue')) return await queueStage(setUp, flags.has('--keep'));
	const { started, runtime, work } = setUp;
	const checks = new Checks();
	let sandbox: Sandbox | undefined;
	let standIn: TelegramStandIn | undefined;
	let server: N8nServer | undefined;
	const model = new ModelServer();
	try {
		await model.start();
		const tlsDir = join(work, 'tls');
		mkdirSync(tlsDir, { recursive: true });
		const tls = makeTestTls(tlsDir, TELEGRAM_HOSTS, 'telegram stage');
		standIn = new TelegramStandIn(
			TOKEN,
			{ [ALERT_CHAT]: 'supergroup', [REPORT_CHAT]: 'private', [TEAM_CHAT]: 'supergroup' },
			tls.tls,
		);
		await standIn.listen(443);
		await awayFromMidnight();
		sandbox = await Sandbox.start({
			platform: 'telegram',
			rateLimit: 'off',
			restatements: 'off',
			now: new Date(),
		});
		console.log(
			`  Telegram stand-in https://${TELEGRAM_HOSTS[0]} on 127.0.0.1:443 (CA made now); sandbox API ${sandbox.baseUrl} (telegram form, clock stopped at ${sandbox.clock.now().toISOString()})`,
		);
		const withTrigger = hasAdsTrigger();
		const flows = {
			balance: recipeFlow(RECIPES.balance, ALERT_CHAT),
			weekly: recipeFlow(RECIPES.weekly, REPORT_CHAT),
			...(withTrigger ? { declined: recipeFlow(RECIPES.declined, ALERT_CHAT) } : {}),
		};
		const session = await stageSession(setUp, { NODE_EXTRA_CA_CERTS: tls.caFile });
		await session.importCredentials(
			[...stageCredentials(sandbox), modelCredential(model)],
			'telegram-credentials.json',
		);
		const teamBot = teamBotExample();
		await session.importExamples([...Object.values(flows).map((f) => f.example), teamBot]);
		await session.publishWorkflow(teamBot.id);
		server = await session.startServer();
		await server.rest.signIn();
		const rest = server.rest;

		await checks.check(
			"the Telegram credential's Test answers green: getMe with the bot's token through the stand-in",
			async () => {
				const result = await rest.request<{ status: string; message: string }>(
					'POST',
					'/rest/credentials/test',
					{
						credentials: TELEGRAM_BOT_CREDENTIAL,
					},
				);
				assert.equal(result.status, 'OK', result.message);
				// The team bot's trigger registers its webhook as n8n starts; the Test is the getMe.
				assert.deepEqual(
					standIn!.calls
						.filter((c) => !/Webhook/.test(c.method))
						.map((c) => [c.method, c.authorized, c.status]),
					[['getMe', true, 200]],
				);
			},
		);

		const run = (flow: RecipeFlow) => runToSuccess(runtime, rest, flow);

		const tableRows = await createSentTable(rest);
		await balanceChecks(checks, run, flows.balance, sandbox, standIn, tableRows);
		await weeklyChecks(checks, run, flows.weekly, sandbox, standIn);
		if (flows.declined) await declinedChecks(checks, run, flows.declined, sandbox, standIn);
		else
			console.log(
				`\n▶ ${RECIPES.declined}: not run, this package has no Ads Trigger (adCabinetAdsTrigger) yet`,
			);

		await teamBotChecks(checks, sandbox, standIn, model);

		await checks.check(
			"the stand-in: every call carried the bot's token and Telegram refused none",
			() => {
				const refused = standIn!.calls.filter((c) => !c.authorized || c.status !== 200);
				assert.deepEqual(
					refused.map((c) => `${c.method} ${c.status} ${c.description ?? ''}`),
					[],
				);
			},
		);
	} catch (error) {
		checks.fail('telegram stage', (error as Error).stack ?? String(error));
		if (server) console.log(`--- ${server.log.logFile}\n${tail(server.log.logFile, 30)}`);
	} finally {
		await server?.stop();
		await sandbox?.stop();
		await standIn?.stop();
		await model.stop();
	}
	return finishStage({
		stage: 'telegram',
		started,
		checks,
		ranIn: `n8n ${runtime.version} with its Telegram node and a local Telegram Bot API stand-in`,
		work,
		holds: "n8n's user folder, the CA and logs",
		keep: flags.has('--keep'),
	});
}

runStage(async () =>
	process.env[STAGE.inside] ? await inner() : await runOutsideNamespace(STAGE),
);
