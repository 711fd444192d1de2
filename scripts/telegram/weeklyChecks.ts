/**
 * The weekly report recipe: the CSV document Telegram received holds one row per campaign with the
 * figures of the statistics the API answered for the 7 days before today, and the message lists
 * those rows, the biggest spend first, in HTML.
 */
import { strict as assert } from 'node:assert';
import type { Sandbox } from '../../sandbox';
import type { Checks } from '../lib/checks';
import { parseCsv } from '../lib/csvRows';
import { firstPages } from '../lib/statsRows';
import { escapeHtml } from '../lib/telegramExpectations';
import type { RunData } from '../lib/workflows';
import type { TelegramStandIn } from './telegramStandIn';
import type { RecipeFlow } from './workflows';

const DAY_MS = 86_400_000;
const COLUMNS = [
	'week_from',
	'week_to',
	'campaign_id',
	'campaign_name',
	'spend',
	'currency',
	'views',
	'clicks',
	'ctr',
	'cpc',
];

interface CampaignWeek {
	campaign_id: number;
	campaign_name: string;
	cents: number;
	currency: string;
	views: number;
	clicks: number;
}

/** The API's rows for the query the Stats node sent, summed per campaign. */
function apiWeeks(sandbox: Sandbox): CampaignWeek[] {
	const pages = firstPages(sandbox.requests, 'day');
	assert.ok(pages.length, 'no statistics request reached the sandbox');
	const rows = sandbox.data.statsRows(pages[pages.length - 1].body);
	const weeks = new Map<number, CampaignWeek>();
	for (const row of rows) {
		const id = Number(row.campaign_id);
		const week = weeks.get(id) ?? {
			campaign_id: id,
			campaign_name: String(row.campaign_name),
			cents: 0,
			currency: String(row.exchange_currency),
			views: 0,
			clicks: 0,
		};
		week.cents += Math.round(Number(row.exchanged_spent) * 100);
		week.views += Number(row.views);
		week.clicks += Number(row.clicks);
		weeks.set(id, week);
	}
	return [...weeks.values()];
}

const near = (a: number, b: number) => Math.abs(a - b) <= 0.01 + 1e-9;

export async function weeklyChecks(
	checks: Checks,
	run: (flow: RecipeFlow) => Promise<RunData>,
	flow: RecipeFlow,
	sandbox: Sandbox,
	standIn: TelegramStandIn,
): Promise<void> {
	console.log('\n▶ Weekly report');
	const before = standIn.calls.length;
	await run(flow);
	const calls = standIn.calls.slice(before);
	const today = Math.floor(sandbox.clock.now().getTime() / DAY_MS) * DAY_MS;
	const from = new Date(today - 7 * DAY_MS).toISOString().slice(0, 10);
	const to = new Date(today - DAY_MS).toISOString().slice(0, 10);
	const api = apiWeeks(sandbox);
	const document = calls.find((c) => c.method === 'sendDocument')?.document;
	const csv = parseCsv((document?.content.toString('utf8') ?? '').replace(/^\uFEFF/, '').trimEnd());
	const [header, ...lines] = csv;
	const rows = lines.map((line) => Object.fromEntries(header.map((h, i) => [h, line[i]])));
	console.log(
		`  the stand-in received ${calls.map((c) => `${c.method} (${c.status})`).join(', ')}; the API holds ${api.length} campaigns for ${from} to ${to}; the CSV ${document?.fileName ?? '(none)'} has ${rows.length} rows`,
	);
	const lines0 = (calls[0]?.fields.text ?? '').split('\n');
	console.log(
		`  the message (${lines0.length} lines) begins ${JSON.stringify(lines0.slice(0, 2).join('\n'))}`,
	);
	await checks.check(
		'weekly report: one message and one document, both to the chat, both Parse Mode HTML',
		() => {
			assert.deepEqual(
				calls.map((c) => [c.method, c.status, c.fields.chat_id, c.fields.parse_mode]),
				[
					['sendMessage', 200, flow.chatId, 'HTML'],
					['sendDocument', 200, flow.chatId, 'HTML'],
				],
			);
			assert.equal(calls[1].fields.caption, `Ad spend by campaign, ${from} to ${to}`);
			assert.deepEqual(
				[document?.fileName, document?.mimeType],
				[`ad-report-${from}.csv`, 'text/csv'],
			);
		},
	);
	await checks.check(
		"weekly report: the CSV's rows are the API's, one per campaign: spend, views and clicks summed, CTR and CPC from them",
		() => {
			assert.ok(api.length > 1, `${api.length} campaigns in the period`);
			assert.deepEqual(header, COLUMNS);
			assert.deepEqual(
				rows.map((r) => r.campaign_id).sort(),
				api.map((w) => String(w.campaign_id)).sort(),
			);
			for (const week of api) {
				const row = rows.find((r) => r.campaign_id === String(week.campaign_id));
				const where = `campaign ${week.campaign_id}`;
				assert.deepEqual(
					[row?.week_from, row?.week_to, row?.campaign_name, Number(row?.spend), row?.currency],
					[from, to, week.campaign_name, week.cents / 100, week.currency],
					where,
				);
				assert.deepEqual(
					[Number(row?.views), Number(row?.clicks)],
					[week.views, week.clicks],
					where,
				);
				const ctr = week.views ? (week.clicks / week.views) * 100 : 0;
				assert.ok(near(Number(row?.ctr), ctr), `${where}: CTR ${row?.ctr}, the API's ${ctr}`);
				if (week.clicks) {
					const cpc = week.cents / 100 / week.clicks;
					assert.ok(near(Number(row?.cpc), cpc), `${where}: CPC ${row?.cpc}, the API's ${cpc}`);
				} else assert.equal(row?.cpc, '', `${where}: no clicks, so no CPC`);
			}
		},
	);
	await checks.check(
		'weekly report: the message is a heading and one line per campaign of the CSV, the biggest spend first',
		() => {
			const text = calls[0]?.fields.text ?? '';
			const top = [...rows].sort((x, y) => Number(y.spend) - Number(x.spend)).slice(0, 30);
			const money = (n: string, currency: string) => `${Number(n).toFixed(2)} ${currency}`;
			const count = (n: string) => Number(n).toLocaleString('en-US');
			assert.deepEqual(text.split('\n'), [
				`<b>Ad spend by campaign, ${from} to ${to}</b>`,
				...top.map(
					(r) =>
						`<b>${escapeHtml(r.campaign_name)}</b>: ${money(r.spend, r.currency)}, ${count(r.views)} views, ${count(r.clicks)} clicks, CTR ${Number(r.ctr).toFixed(2)}%, CPC ${r.cpc === '' ? '–' : money(r.cpc, r.currency)}`,
				),
				...(rows.length > 30 ? [`…and ${rows.length - 30} more campaigns in the CSV.`] : []),
			]);
		},
	);
}
