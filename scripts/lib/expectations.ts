/**
 * What each example workflow must produce when real n8n runs it against the sandbox: one entry per
 * file in examples/. A file without an entry (or an entry without a file) fails the end-to-end stage.
 *
 * Every example is also held, without its entry having to say so, to: a successful run in which
 * every node ran, the same items on every node as the in-process harness's run of the same file,
 * and the same API requests (exampleChecks.ts). An entry adds what a user would check by eye,
 * computed from the sandbox's ground truth (`sandbox.data`) and the requests n8n sent (`requests`).
 *
 * To add one: `'<file>.json': { title: 'what it proves', check(ctx) { … } }`, plus `run: 'manual'`
 * when the workflow starts with the Stats Trigger or a Schedule Trigger (it then runs as the
 * editor's "Execute workflow" does, over REST: `n8n execute` does not poll, and starts only from a
 * Manual Trigger). The context is described in expectationContext.ts.
 */
import { strict as assert } from 'node:assert';
import { cabinetMoney, campaignItem, visibleCabinets } from '../../sandbox/data/accounts';
import { assertCsvOfRows, numeric } from './csvRows';
import type { Example } from './workflows';
import { utcDay, type ExampleExpectation } from './expectationContext';
import { SAFE_WRITE_EXPECTATIONS } from './safeWriteExpectations';
import { SHEET_EXPECTATIONS } from './sheetExpectations';
import { TELEGRAM_EXPECTATIONS } from './telegramExpectations';

/** A cabinet the examples name, in the real service's form the stage runs. */
const DE_CABINET = 'ACC07021';

/** A node's parameters as the example file saves them. */
function parametersOf(example: Example, nodeName: string): Record<string, unknown> {
	const node = example.workflow.nodes.find((n) => n.name === nodeName);
	assert.ok(node, `the example has a node "${nodeName}"`);
	return node.parameters;
}

/** The thresholds a user sets in the balance alert's "Alert settings" (fields `thresholds.<currency>`). */
function alertThresholds(example: Example): Map<string, number> {
	const { assignments } = parametersOf(example, 'Alert settings').assignments as {
		assignments: Array<{ name: string; value: unknown }>;
	};
	const thresholds = new Map<string, number>();
	for (const { name, value } of assignments) {
		const currency = /^thresholds\.([A-Z]+)$/.exec(name)?.[1];
		if (currency) thresholds.set(currency, Number(value));
	}
	return thresholds;
}

/** Money in hundredths, as the sandbox keeps it, summed exactly. */
function cents(value: unknown): number {
	return Math.round(Number(value) * 100);
}

export const EXPECTATIONS: Record<string, ExampleExpectation> = {
	'balance-alert.json': {
		run: 'manual',
		title:
			'an alert for exactly the spending cabinets whose available balance is below the threshold of their currency',
		check({ example, items, requests, sandbox }) {
			const thresholds = alertThresholds(example);
			assert.ok(thresholds.size > 0, 'Alert settings holds thresholds');
			const stats = requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/stats/page');
			assert.ok(stats.length >= 1, "the cabinets' currencies are read from the statistics");
			const query = stats[0].body as Record<string, unknown>;
			assert.deepEqual(query.grouping, ['cabinet']);
			// Cabinets with statistics in the window: the ones whose currency the workflow learns.
			const spending = new Set(
				sandbox.data.statsRows(query).map((row) => String(row.platform_cabinet_id)),
			);
			const checked = visibleCabinets(sandbox.data).filter((c) => spending.has(c.account_id));
			const truth = checked.map((cabinet) => ({
				cabinet,
				available: cabinetMoney(sandbox.data, cabinet).available / 100,
				threshold: thresholds.get(cabinet.currency),
			}));
			const below = truth.filter((t) => t.threshold === undefined || t.available < t.threshold);
			assert.ok(below.length >= 1, 'at least one cabinet is below its threshold');
			assert.ok(below.length < truth.length, 'at least one cabinet is above its threshold');

			const balances = items('Balance and threshold').map((item) => item.json);
			assert.deepEqual(
				balances,
				truth.map((t) => ({
					cabinet_id: t.cabinet.account_id,
					cabinet_name: t.cabinet.name,
					available_balance: t.available,
					currency: t.cabinet.currency,
					threshold: t.threshold ?? null,
				})),
				'each spending cabinet with its available balance, currency and threshold',
			);

			const alerts = items('Send alert (replace with Telegram, Slack or Email)').map((i) => i.json);
			assert.deepEqual(
				alerts.map((alert) => alert.cabinet_id),
				below.map((t) => t.cabinet.account_id),
				'one alert per cabinet below its threshold, and none for the others',
			);
			below.forEach(({ cabinet, available, threshold }, index) => {
				const text = String(alerts[index].text);
				for (const part of [
					cabinet.name,
					cabinet.account_id,
					`${available.toFixed(2)} ${cabinet.currency}`,
					`${threshold} ${cabinet.currency}`,
				]) {
					assert.ok(
						text.includes(part),
						`the alert for ${cabinet.account_id} names ${part}: ${text}`,
					);
				}
			});
		},
	},
	'weekly-spend-by-campaign.json': {
		run: 'manual',
		title:
			"one row per campaign with statistics in the last 7 whole days: the list's name and budget, the week's spend summed from the rows",
		check({ items, requests, sandbox, startedAt }) {
			const pages = requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/stats/page');
			assert.ok(pages.length >= 1, 'no statistics request reached the sandbox');
			const query = pages[0].body as Record<string, unknown>;
			assert.equal(query.period_grouping_unit, 'day');
			assert.deepEqual(query.grouping, ['campaign']);
			// Last N Days, 7, without today, in the workflow's timezone (UTC here).
			assert.equal(String(query.period_from).slice(0, 10), utcDay(startedAt, -7), 'period_from');
			assert.equal(String(query.period_to).slice(0, 10), utcDay(startedAt, -1), 'period_to');
			assert.ok(
				requests.some((r) => r.method === 'GET' && r.path === '/api/campaigns/'),
				'the campaign list is read',
			);

			const week = new Map<
				number,
				{ spend: number; exchanged: number; views: number; clicks: number; currency: unknown }
			>();
			for (const row of sandbox.data.statsRows(query).map(numeric)) {
				const id = Number(row.campaign_id);
				const sum = week.get(id) ?? {
					spend: 0,
					exchanged: 0,
					views: 0,
					clicks: 0,
					currency: row.original_currency,
				};
				sum.spend += cents(row.original_spent);
				sum.exchanged += cents(row.exchanged_spent);
				sum.views += Number(row.views);
				sum.clicks += Number(row.clicks);
				week.set(id, sum);
			}
			const listed = sandbox.data.campaigns.filter((c) =>
				visibleCabinets(sandbox.data).some((cabinet) => cabinet.account_id === c.account_id),
			);
			const expected = listed
				.filter((campaign) => week.has(campaign.id))
				.sort((a, b) => a.id - b.id)
				.map((campaign) => {
					const sum = week.get(campaign.id) ?? assert.fail();
					const cabinet = sandbox.data.cabinet(campaign.account_id) ?? assert.fail();
					const inList = campaignItem(
						sandbox.data,
						campaign,
						Number.NEGATIVE_INFINITY,
						sandbox.data.nowMs(),
					);
					return {
						campaign_id: campaign.id,
						campaign_name: campaign.name,
						cabinet_id: cabinet.account_id,
						cabinet_name: cabinet.name,
						status: inList.status,
						budget: inList.budget,
						week_spend: sum.spend / 100,
						currency: cabinet.currency,
						week_spend_exchanged: sum.exchanged / 100,
						exchange_currency: query.currency_code,
						week_views: sum.views,
						week_clicks: sum.clicks,
					};
				});
			assert.ok(expected.length >= 2, 'the sandbox has campaigns with statistics in the week');
			assert.equal(
				week.size,
				expected.length,
				'every campaign with statistics is in the campaign list',
			);

			const rows = items('One row per campaign').map((item) => item.json);
			const byId = [...rows].sort((a, b) => Number(a.campaign_id) - Number(b.campaign_id));
			assert.equal(
				new Set(rows.map((row) => row.campaign_id)).size,
				rows.length,
				'each campaign appears once',
			);
			assert.deepEqual(
				byId.map(({ week_from, week_to, ...row }) => {
					assert.deepEqual([week_from, week_to], [utcDay(startedAt, -7), utcDay(startedAt, -1)]);
					return row;
				}),
				expected,
				"each row: the campaign list's name, status and budget, the week's sums of the statistics rows",
			);
		},
	},
	...SHEET_EXPECTATIONS,
	...SAFE_WRITE_EXPECTATIONS,
	...TELEGRAM_EXPECTATIONS,
	'pixel-events-setup.json': {
		title:
			'each listed event exists in the cabinet with its title and type, listed once, with the base code',
		check({ items, requests, sandbox }) {
			const wanted = items('One item per event').map(
				(item) => item.json as { title: string; type: string },
			);
			const creates = requests.filter(
				(r) => r.method === 'POST' && r.path === '/api/pixel_events/',
			);
			assert.equal(creates.length, wanted.length, 'one create request per listed event');
			creates.forEach((request, index) => {
				assert.equal(request.status, 201, `event ${index + 1} created`);
				assert.deepEqual(request.body, { account_id: DE_CABINET, ...wanted[index] });
			});
			const inCabinet = sandbox.data.pixelEventsOf(DE_CABINET);
			for (const event of wanted) {
				const found = inCabinet.filter((e) => e.title === event.title);
				assert.equal(found.length, 1, `"${event.title}" exists once in cabinet ${DE_CABINET}`);
				assert.equal(found[0].type, event.type);
			}
			const listed = items('List events').map((item) => item.json.title);
			assert.equal(
				listed.length,
				inCabinet.length,
				'List events ran once and listed the whole cabinet',
			);
			for (const event of wanted)
				assert.ok(listed.includes(event.title), `"${event.title}" is listed`);
			const [code] = items('Base pixel code');
			assert.equal(code.json.code_snippet, sandbox.data.pixelCode(DE_CABINET)?.code_snippet);
		},
	},
	'stats-to-csv.json': {
		title: 'every daily campaign row of the last 7 days, as numbers, one CSV line each',
		check({ items, file, requests, sandbox, startedAt }) {
			const pages = requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/stats/page');
			assert.ok(pages.length >= 1, 'no statistics request reached the sandbox');
			assert.equal(requests.length, pages.length, 'only statistics pages are requested');
			const first = pages[0].body as Record<string, unknown>;
			assert.equal(first.period_grouping_unit, 'day');
			assert.deepEqual(first.grouping, ['campaign']);
			assert.equal(first.currency_code, 'EUR');
			// Last 7 Days in the workflow's timezone (UTC here): six days ago 00:00 to today 23:59:59.
			assert.equal(String(first.period_from).slice(0, 10), utcDay(startedAt, -6), 'period_from');
			assert.equal(String(first.period_to).slice(0, 10), utcDay(startedAt), 'period_to');
			for (const page of pages.slice(1)) {
				assert.deepEqual(
					Object.keys(page.body as object),
					['cursor'],
					'next pages send only the cursor',
				);
			}

			const truth = sandbox.data.statsRows(first).map(numeric);
			const rows = items('Stats by campaign').map((item) => item.json);
			assert.ok(truth.length > 0, 'the sandbox has no rows for the period');
			assert.equal(rows.length, truth.length, 'one item per statistics row (Return All)');
			rows.forEach((row, index) => {
				const { row_key: key, ...figures } = row;
				assert.deepEqual(figures, truth[index], `row ${index}`);
				assert.ok(
					String(key).endsWith(`|d|EUR|c${String(row.campaign_id)}`),
					`row ${index}: row_key ${String(key)} names the unit, currency and campaign`,
				);
			});

			const csv = file('CSV file');
			assert.equal(csv.fileName, 'ad-stats.csv');
			assert.match(csv.mimeType ?? '', /text\/csv/);
			assertCsvOfRows(csv.text, rows);
		},
	},
};
