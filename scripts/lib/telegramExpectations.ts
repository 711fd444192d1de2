/**
 * The Telegram recipes (examples/alerts/, examples/reports/) in the end-to-end stage. Telegram and
 * the data table the balance alert keeps are not there, so each recipe runs with its delivery
 * replaced, as `npm run demo` and the in-process recipe tests replace it: each Telegram node becomes
 * a Set node that outputs what it would send (chat_id, the text or caption n8n's expression gives,
 * parse_mode), each data table node a pass-through. `npm run test:telegram` runs them as they are,
 * against a stand-in of the Bot API. Part of the table in expectations.ts.
 */
import { strict as assert } from 'node:assert';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Sandbox } from '../../sandbox';
import { cabinetMoney } from '../../sandbox/data/accounts';
import { setAdStatus } from '../../sandbox/handlers/adStatusControl';
import { assertCsvOfRows } from './csvRows';
import { utcDay, type ExampleExpectation } from './expectationContext';
import {
	EXAMPLES_DIR,
	exampleId,
	readWorkflow,
	type Example,
	type WorkflowNode,
} from './workflows';

const TELEGRAM = 'n8n-nodes-base.telegram';
const DATA_TABLE = 'n8n-nodes-base.dataTable';
/** What a user replaces in each Telegram node (the recipes' sticky notes say so). */
const CHAT_PLACEHOLDER = 'YOUR_CHAT_ID';

/** A Telegram node as a Set node giving what it would send; a data table node as a pass-through. */
function withoutDelivery(node: WorkflowNode): WorkflowNode {
	// Neither a Set node nor a pass-through has a credential or a webhook.
	const rest: WorkflowNode & { webhookId?: string } = { ...node };
	delete rest.credentials;
	delete rest.webhookId;
	if (node.type === DATA_TABLE)
		return { ...rest, type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} };
	if (node.type !== TELEGRAM) return node;
	const p = node.parameters;
	const extra = (p.additionalFields ?? {}) as Record<string, unknown>;
	const field = (name: string, value: unknown) => ({
		id: name,
		name,
		value: String(value ?? ''),
		type: 'string',
	});
	const isDocument = p.operation === 'sendDocument';
	return {
		...rest,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		parameters: {
			assignments: {
				assignments: [
					field('method', isDocument ? 'sendDocument' : 'sendMessage'),
					field('chat_id', p.chatId),
					field(isDocument ? 'caption' : 'text', isDocument ? extra.caption : p.text),
					field('parse_mode', extra.parse_mode),
					// The file a document would carry: the name of the item's binary property it sends.
					...(isDocument
						? [
								field(
									'document',
									`={{ $binary.${String(p.binaryPropertyName ?? 'data')}.fileName }}`,
								),
							]
						: []),
				],
			},
			options: {},
		},
	};
}

/** The recipes of examples/alerts/ and examples/reports/, named `<folder>/<file>`, delivery replaced. */
export function telegramRecipeExamples(): Example[] {
	return ['alerts', 'reports'].flatMap((folder) =>
		readdirSync(join(EXAMPLES_DIR, folder))
			.filter((file) => file.endsWith('.json'))
			.sort()
			.map((name) => {
				const file = `${folder}/${name}`;
				const workflow = readWorkflow(file);
				return {
					file,
					id: exampleId(file),
					workflow: { ...workflow, nodes: workflow.nodes.map(withoutDelivery) },
				};
			}),
	);
}

/** What the Bot API's HTML needs escaped in a name. */
export const escapeHtml = (text: string): string =>
	text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c] ?? c);

/** The thresholds a user sets in the balance alert's "Alert settings", by currency. */
function thresholdsOf(example: Example): Map<string, number> {
	const node = example.workflow.nodes.find((n) => n.name === 'Alert settings');
	const { assignments } = node?.parameters.assignments as {
		assignments: Array<{ name: string; value: unknown }>;
	};
	return new Map(
		assignments.map(({ name, value }) => [name.replace(/^thresholds\./, ''), Number(value)]),
	);
}

/** Moderation's reasons for the ad the declined-ad recipe meets, with what HTML must escape. */
export const REASONS = [
	{ reason: 'The landing page does not open' },
	{ reason: 'Claims like "100% <guaranteed> & free" are not allowed' },
];

/**
 * Two stopped ads of the cabinets the token may read: one to decline, one to hold. Stopped, so that
 * no running ad stops and no balance moves for the examples that run after this one.
 */
function moderated(sandbox: Sandbox) {
	const [declined, held] = sandbox.data.ads.filter(
		(ad) => ad.status === 'stopped' && sandbox.data.cabinet(ad.accountId)?.permitted === true,
	);
	assert.ok(declined && held, 'the sandbox has fewer than two stopped ads');
	return { declined, held };
}

export const TELEGRAM_EXPECTATIONS: Record<string, ExampleExpectation> = {
	'alerts/balance-alert-to-telegram.json': {
		run: 'manual',
		title:
			'what reaches "Send to Telegram": one HTML message to YOUR_CHAT_ID per cabinet below the threshold of its currency, the text the rule gives from the API\'s balances',
		check({ example, items, sandbox }) {
			const thresholds = thresholdsOf(example);
			const balances = items('Balance and threshold').map((item) => item.json);
			assert.ok(balances.length > 0, 'no cabinet was checked');
			const due = balances.filter((b) => {
				const cabinet = sandbox.data.cabinet(String(b.cabinet_id));
				assert.ok(cabinet, `cabinet ${String(b.cabinet_id)} is not the sandbox's`);
				const available = cabinetMoney(sandbox.data, cabinet).available / 100;
				const threshold = thresholds.get(cabinet.currency) ?? null;
				assert.deepEqual(
					[b.cabinet_name, b.currency, b.available_balance, b.threshold],
					[cabinet.name, cabinet.currency, available, threshold],
					`${cabinet.account_id}: the API's name, currency and balance, the recipe's threshold`,
				);
				return threshold === null || available < threshold;
			});
			assert.ok(due.length > 0, 'no cabinet is below its threshold: nothing would be checked');
			assert.deepEqual(
				items('Send to Telegram').map((item) => item.json),
				due.map((b) => {
					const who = `${escapeHtml(String(b.cabinet_name))} (${String(b.cabinet_id)}) has ${Number(b.available_balance).toFixed(2)} ${String(b.currency)} available`;
					const text =
						b.threshold === null
							? `<b>No balance threshold for ${String(b.currency)}</b>\n${who}. Add thresholds.${String(b.currency)} in Alert settings.`
							: `<b>Low balance</b>\n${who}, below your alert threshold of ${Number(b.threshold)} ${String(b.currency)}. Top up the cabinet before its ads stop.`;
					return { method: 'sendMessage', chat_id: CHAT_PLACEHOLDER, text, parse_mode: 'HTML' };
				}),
			);
		},
	},
	'reports/weekly-report-to-telegram.json': {
		run: 'manual',
		title:
			"what reaches Telegram: a CSV of the API's 7 days before today, one row per campaign (spend, views and clicks summed), and an HTML message listing them, the biggest spend first, both to YOUR_CHAT_ID",
		check({ items, file, requests, sandbox, startedAt }) {
			const stats = requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/stats/page');
			assert.ok(stats.length >= 1, 'no statistics request reached the sandbox');
			const query = stats[stats.length - 1].body as Record<string, unknown>;
			const truth = new Map<number, { cents: number; views: number; clicks: number }>();
			for (const row of sandbox.data.statsRows(query)) {
				const week = truth.get(Number(row.campaign_id)) ?? { cents: 0, views: 0, clicks: 0 };
				week.cents += Math.round(Number(row.exchanged_spent) * 100);
				week.views += Number(row.views);
				week.clicks += Number(row.clicks);
				truth.set(Number(row.campaign_id), week);
			}
			const rows = items('One row per campaign').map((item) => item.json);
			assert.ok(rows.length > 1, `${rows.length} campaigns in the period`);
			assert.deepEqual(
				rows.map((r) => Number(r.campaign_id)).sort(),
				[...truth.keys()].sort(),
				'one row per campaign the API has figures for',
			);
			const from = utcDay(startedAt, -7);
			const to = utcDay(startedAt, -1);
			for (const row of rows) {
				const week = truth.get(Number(row.campaign_id));
				assert.deepEqual(
					[row.week_from, row.week_to, row.spend, row.views, row.clicks],
					[from, to, (week?.cents ?? 0) / 100, week?.views, week?.clicks],
					`campaign ${String(row.campaign_id)}`,
				);
			}
			const csv = file('CSV file');
			assert.deepEqual([csv.fileName, csv.mimeType], [`ad-report-${from}.csv`, 'text/csv']);
			assertCsvOfRows(csv.text, rows);
			const money = (n: unknown, currency: unknown) =>
				`${Number(n).toFixed(2)} ${String(currency)}`;
			const count = (n: unknown) => Number(n).toLocaleString('en-US');
			const top = [...rows].sort((x, y) => Number(y.spend) - Number(x.spend)).slice(0, 30);
			const text = [
				`<b>Ad spend by campaign, ${from} to ${to}</b>`,
				...top.map(
					(r) =>
						`<b>${escapeHtml(String(r.campaign_name))}</b>: ${money(r.spend, r.currency)}, ${count(r.views)} views, ${count(r.clicks)} clicks, CTR ${Number(r.ctr).toFixed(2)}%, CPC ${r.cpc === null ? '–' : money(r.cpc, r.currency)}`,
				),
				...(rows.length > 30 ? [`…and ${rows.length - 30} more campaigns in the CSV.`] : []),
			].join('\n');
			assert.deepEqual(
				items('Send summary').map((item) => item.json),
				[{ method: 'sendMessage', chat_id: CHAT_PLACEHOLDER, text, parse_mode: 'HTML' }],
			);
			const sent = items('Send CSV');
			assert.deepEqual(
				sent.map((item) => item.json),
				[
					{
						method: 'sendDocument',
						chat_id: CHAT_PLACEHOLDER,
						caption: `Ad spend by campaign, ${from} to ${to}`,
						parse_mode: 'HTML',
						document: csv.fileName,
					},
				],
				'the CSV file goes with the caption',
			);
		},
	},
	'alerts/ad-declined-to-telegram.json': {
		run: 'manual',
		prepare(sandbox) {
			const { declined, held } = moderated(sandbox);
			setAdStatus(sandbox.data, String(declined.id), {
				status: 'declined',
				decline_reason: REASONS,
			});
			setAdStatus(sandbox.data, String(held.id), { status: 'on_hold' });
		},
		title:
			'"Fetch Test Event" gives the ad moderation declined (with its reasons) and the one on hold; what reaches "Send to Telegram" is one HTML message each to YOUR_CHAT_ID with the title, campaign, status and each reason, escaped',
		check({ items, sandbox }) {
			const { declined, held } = {
				declined: sandbox.data.ads.find((ad) => ad.status === 'declined'),
				held: sandbox.data.ads.find((ad) => ad.status === 'on_hold'),
			};
			assert.ok(declined && held, 'the sandbox holds the declined ad and the one on hold');
			const emitted = items('Ad declined or on hold').map((item) => item.json);
			assert.deepEqual(
				emitted.map((e) => [e.ad_id, e.status, e.previous_status]).sort(),
				[
					[declined.id, 'declined', null],
					[held.id, 'on_hold', null],
				].sort(),
				'the two ads, and no previous status (Fetch Test Event keeps no state)',
			);
			const reasons = emitted.find((e) => e.ad_id === declined.id)?.decline_reason;
			assert.deepEqual(reasons, REASONS, "the declined ad's reasons, from its detail");
			assert.deepEqual(
				items('Send to Telegram').map((item) => item.json),
				emitted.map((e) => {
					const isDeclined = e.status === 'declined';
					const text = [
						`<b>Ad ${isDeclined ? 'declined' : 'on hold'}</b>: ${escapeHtml(String(e.title))} (ad ${String(e.ad_id)})`,
						`Campaign: ${escapeHtml(String(e.campaign_name))}`,
						`Status: ${String(e.status)}`,
						...(isDeclined
							? ['Reasons:', ...REASONS.map((r) => `• ${escapeHtml(r.reason)}`)]
							: ['No reason given.']),
					].join('\n');
					return { method: 'sendMessage', chat_id: CHAT_PLACEHOLDER, text, parse_mode: 'HTML' };
				}),
			);
		},
	},
};
