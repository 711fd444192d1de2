/**
 * The balance alert recipe, run twice on one day: the first run sends one HTML message per cabinet
 * below its currency's threshold (the cabinet's name, balance and currency as the sandbox holds
 * them) and writes each to the data table; the second sends nothing.
 */
import { strict as assert } from 'node:assert';
import type { AssignmentCollectionValue } from 'n8n-workflow';
import type { Sandbox } from '../../sandbox';
import { cabinetMoney } from '../../sandbox/data/accounts';
import type { Checks } from '../lib/checks';
import { escapeHtml } from '../lib/telegramExpectations';
import { itemsOf, type RunData } from '../lib/workflows';
import type { TelegramStandIn } from './telegramStandIn';
import { nodeNamed, type RecipeFlow } from './workflows';

interface Balance {
	cabinet_id: string;
	cabinet_name: string;
	available_balance: number;
	currency: string;
	threshold: number | null;
}

/** The thresholds the recipe's Alert settings hold, by currency. */
function thresholdsOf(flow: RecipeFlow): Record<string, number> {
	const settings = nodeNamed(flow, 'Alert settings').parameters
		.assignments as AssignmentCollectionValue;
	return Object.fromEntries(
		settings.assignments.map((a) => [a.name.replace(/^thresholds\./, ''), Number(a.value)]),
	);
}

/** The message a cabinet's alert must be, written here from the rule, not from the recipe. */
function expectedText(b: Balance): string {
	const who = `${escapeHtml(b.cabinet_name)} (${b.cabinet_id}) has ${b.available_balance.toFixed(2)} ${b.currency} available`;
	return b.threshold === null
		? `<b>No balance threshold for ${b.currency}</b>\n${who}. Add thresholds.${b.currency} in Alert settings.`
		: `<b>Low balance</b>\n${who}, below your alert threshold of ${b.threshold} ${b.currency}. Top up the cabinet before its ads stop.`;
}

export async function balanceChecks(
	checks: Checks,
	run: (flow: RecipeFlow) => Promise<RunData>,
	flow: RecipeFlow,
	sandbox: Sandbox,
	standIn: TelegramStandIn,
	tableRows: () => Promise<Array<Record<string, unknown>>>,
): Promise<void> {
	const today = sandbox.clock.now().toISOString().slice(0, 10);
	const thresholds = thresholdsOf(flow);
	console.log(`\n▶ Balance alert, run 1 (thresholds ${JSON.stringify(thresholds)})`);
	const before = standIn.calls.length;
	const run1 = await run(flow);
	const sent1 = standIn.calls.slice(before).filter((c) => c.method === 'sendMessage');
	const balances = (itemsOf(run1, 'Balance and threshold') ?? []).map(
		(i) => i.json as unknown as Balance,
	);
	const due = balances.filter(
		(b) => b.threshold === null || b.available_balance < Number(b.threshold),
	);
	console.log(
		`  ${balances.length} cabinets checked, ${due.length} below their threshold (${due.map((b) => `${b.cabinet_id} ${b.available_balance} ${b.currency}`).join(', ')}); the stand-in received ${sent1.length} sendMessage`,
	);
	for (const call of sent1)
		console.log(`  sent to ${call.fields.chat_id}: ${JSON.stringify(call.fields.text)}`);
	await checks.check(
		"balance alert: each cabinet's balance, currency and threshold are the sandbox's and the recipe's",
		() => {
			assert.ok(balances.length > 0, 'no cabinet was checked');
			for (const b of balances) {
				const cabinet = sandbox.data.cabinet(b.cabinet_id);
				assert.ok(cabinet, `cabinet ${b.cabinet_id} is not the sandbox's`);
				assert.deepEqual(
					[b.cabinet_name, b.currency, b.available_balance, b.threshold],
					[
						cabinet.name,
						cabinet.currency,
						cabinetMoney(sandbox.data, cabinet).available / 100,
						thresholds[cabinet.currency] ?? null,
					],
					b.cabinet_id,
				);
			}
		},
	);
	await checks.check(
		'balance alert, run 1: one message per cabinet below its threshold, to the chat, Parse Mode HTML, the text as the rule writes it',
		() => {
			assert.ok(due.length > 0, 'no cabinet is below its threshold: nothing would be checked');
			assert.deepEqual(
				sent1.map((c) => ({ status: c.status, ...c.fields })),
				due.map((b) => ({
					status: 200,
					chat_id: flow.chatId,
					text: expectedText(b),
					parse_mode: 'HTML',
					disable_web_page_preview: 'true',
				})),
			);
		},
	);
	await checks.check(
		`balance alert, run 1: each alert sent is a row of the data table, keyed by cabinet and day (${today}), with Telegram's message id`,
		async () => {
			const rows = await tableRows();
			assert.deepEqual(
				rows.map((r) => [r.alert_key, r.cabinet_id, r.currency, r.message_id]),
				due.map((b, i) => [
					`${b.cabinet_id}|${today}`,
					b.cabinet_id,
					b.currency,
					sent1[i]?.messageId,
				]),
			);
		},
	);

	console.log('\n▶ Balance alert, run 2 (the same day)');
	const again = standIn.calls.length;
	const run2 = await run(flow);
	const sent2 = standIn.calls.slice(again);
	const passed = itemsOf(run2, 'Not sent today?') ?? [];
	console.log(
		`  ${(itemsOf(run2, 'Alert text') ?? []).length} cabinets below their threshold, ${passed.length} not yet alerted today; the stand-in received ${sent2.length} calls`,
	);
	await checks.check(
		'balance alert, run 2 on the same day: nothing is sent, the data table is unchanged',
		async () => {
			assert.equal(run2.status, 'success');
			assert.equal((itemsOf(run2, 'Alert text') ?? []).length, due.length);
			assert.equal(passed.length, 0);
			assert.deepEqual(
				sent2.map((c) => c.method),
				[],
			);
			assert.equal((await tableRows()).length, due.length);
		},
	);
}
