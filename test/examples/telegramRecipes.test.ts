import type { AssignmentValue, IConnections, INode } from 'n8n-workflow';
import { itemsOf, listExamples, listExamplesIn, runExample, runWorkflow } from '../../harness';
import type { ExampleWorkflow } from '../../harness';
import { credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';

const recipes = [...listExamplesIn('alerts'), ...listExamplesIn('reports')];

function recipe(file: string): ExampleWorkflow {
	const found = recipes.find((r) => r.file === file);
	if (!found) throw new Error(`examples/${file} is missing`);
	return found;
}

const TELEGRAM = 'n8n-nodes-base.telegram';
const DATA_TABLE = 'n8n-nodes-base.dataTable';

/**
 * The recipe as the harness can run it (it has no Telegram and no data table): each Telegram node
 * becomes a Set node that outputs what it would send (chat_id, text or caption, parse_mode), each
 * data table node a pass-through. `npm run test:telegram` runs the recipes as they are in real n8n.
 */
function withoutDelivery(example: ExampleWorkflow): ExampleWorkflow {
	const nodes = example.nodes.map((node): INode => {
		if (node.type === DATA_TABLE)
			return { ...node, type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} };
		if (node.type !== TELEGRAM) return node;
		const p = node.parameters as Record<string, unknown>;
		const extra = p.additionalFields as Record<string, unknown>;
		const field = (name: string, value: unknown): AssignmentValue => ({
			id: name,
			name,
			value: String(value),
			type: 'string',
		});
		return {
			...node,
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: {
				assignments: {
					assignments: [
						field('chat_id', p.chatId),
						field('text', p.operation === 'sendDocument' ? extra.caption : p.text),
						field('parse_mode', extra.parse_mode),
					],
				},
				options: {},
			},
		};
	});
	return { ...example, nodes };
}

describe('the Telegram recipes (examples/alerts/, examples/reports/; run for real by npm run test:telegram)', () => {
	const sandbox = useSandbox({ clock: 'frozen' });

	test('every Telegram node sends to the YOUR_CHAT_ID placeholder with Parse Mode HTML set, no n8n attribution, and a note says to replace it', () => {
		expect(recipes.map((r) => r.file).sort()).toEqual([
			'alerts/ad-declined-to-telegram.json',
			'alerts/balance-alert-to-telegram.json',
			'reports/weekly-report-to-telegram.json',
		]);
		for (const example of recipes) {
			const telegram = example.nodes.filter((n) => n.type === TELEGRAM);
			expect([example.file, telegram.length > 0]).toEqual([example.file, true]);
			for (const node of telegram) {
				expect([example.file, node.typeVersion, node.parameters]).toMatchObject([
					example.file,
					1.2,
					{
						resource: 'message',
						chatId: 'YOUR_CHAT_ID',
						additionalFields: { parse_mode: 'HTML' },
					},
				]);
				if (node.parameters.operation === 'sendMessage')
					expect(node.parameters.additionalFields).toMatchObject({ appendAttribution: false });
				expect(Object.keys(node.credentials ?? {})).toEqual(['telegramApi']);
			}
			const notes = example.nodes
				.filter((n) => n.type === 'n8n-nodes-base.stickyNote')
				.map((n) => String(n.parameters.content));
			expect([example.file, notes.some((n) => n.includes('`YOUR_CHAT_ID`'))]).toEqual([
				example.file,
				true,
			]);
		}
	});

	test('balance alert: the same cabinets as examples/balance-alert.json, as HTML, each keyed by cabinet and day for the data table', async () => {
		const example = recipe('alerts/balance-alert-to-telegram.json');
		const original = listExamples().find((e) => e.file === 'balance-alert.json');
		if (!original) throw new Error('examples/balance-alert.json is missing');
		const credentials = credentialsFor(sandbox());
		const before = await runExample(original, credentials);
		const alerts = itemsOf(before, 'Send alert (replace with Telegram, Slack or Email)');
		const result = await runExample(withoutDelivery(example), credentials);
		expect(result.error).toBeUndefined();
		const keyed = itemsOf(result, 'Alert text').map((i) => i.json);
		const sent = itemsOf(result, 'Send to Telegram').map((i) => i.json);
		expect(alerts.length).toBeGreaterThan(0);
		expect(keyed.map((a) => [a.cabinet_id, a.currency, a.threshold])).toEqual(
			alerts.map((a) => [a.json.cabinet_id, a.json.currency, a.json.threshold]),
		);
		const today = sandbox().clock.now().toISOString().slice(0, 10);
		expect(keyed.map((a) => a.alert_key)).toEqual(keyed.map((a) => `${a.cabinet_id}|${today}`));
		const eur = keyed.findIndex((a) => a.cabinet_id === 'ACC07021');
		expect(sent[eur]).toEqual({
			chat_id: 'YOUR_CHAT_ID',
			parse_mode: 'HTML',
			text: `<b>Low balance</b>\nBerlin Growth GmbH (ACC07021) has ${Number(keyed[eur].available_balance).toFixed(2)} EUR available, below your alert threshold of 100 EUR. Top up the cabinet before its ads stop.`,
		});
		// The data table nodes sit around the delivery: the check before it, the record after it.
		const tables = example.nodes.filter((n) => n.type === DATA_TABLE);
		expect(tables.map((n) => [n.name, n.parameters.operation])).toEqual([
			['Not sent today?', 'rowNotExists'],
			['Remember it was sent', 'insert'],
		]);
		const note = String(
			example.nodes.find((n) => n.name === 'About this workflow')?.parameters.content,
		);
		const columns = Object.keys(
			(tables[1].parameters.columns as { value: Record<string, unknown> }).value,
		);
		for (const column of columns)
			expect([column, note.includes(`\`${column}\``)]).toEqual([column, true]);
		expect(note).toContain('`balance_alerts_sent`');
	});

	test("weekly report: one CSV row per campaign with the week's spend, views, clicks, CTR and CPC, and one HTML message listing them", async () => {
		const result = await runExample(
			withoutDelivery(recipe('reports/weekly-report-to-telegram.json')),
			credentialsFor(sandbox()),
		);
		expect(result.error).toBeUndefined();
		const stats = itemsOf(result, 'Last 7 days by campaign').map((i) => i.json);
		const rows = itemsOf(result, 'One row per campaign').map((i) => i.json);
		const ids = [...new Set(stats.map((s) => s.campaign_id))];
		expect(ids.length).toBeGreaterThan(1);
		expect(rows.map((r) => r.campaign_id)).toEqual(ids);
		for (const row of rows) {
			const days = stats.filter((s) => s.campaign_id === row.campaign_id);
			const cents = days.reduce((sum, d) => sum + Math.round(Number(d.exchanged_spent) * 100), 0);
			const views = days.reduce((sum, d) => sum + Number(d.views), 0);
			const clicks = days.reduce((sum, d) => sum + Number(d.clicks), 0);
			expect(row).toMatchObject({ spend: cents / 100, currency: 'EUR', views, clicks });
			expect(row.ctr).toBeCloseTo(views ? (clicks / views) * 100 : 0, 2);
			if (clicks) expect(row.cpc).toBeCloseTo(cents / 100 / clicks, 2);
			else expect(row.cpc).toBeNull();
		}
		const [file] = itemsOf(result, 'CSV file');
		const lines = Buffer.from(file.binary?.data.data ?? '', 'base64')
			.toString('utf8')
			.replace(/^\uFEFF/, '')
			.split('\n')
			.filter(Boolean);
		expect(lines).toHaveLength(rows.length + 1);
		expect(lines[0].split(',')).toEqual(Object.keys(rows[0]));
		const [message] = itemsOf(result, 'Send summary').map((i) => i.json);
		const text = String(message.text).split('\n');
		expect(message.parse_mode).toBe('HTML');
		expect(text[0]).toBe(`<b>Ad spend by campaign, ${rows[0].week_from} to ${rows[0].week_to}</b>`);
		const top = [...rows].sort((x, y) => Number(y.spend) - Number(x.spend)).slice(0, 30);
		expect(text.slice(1, top.length + 1)).toEqual(
			top.map((r) => expect.stringContaining(`: ${Number(r.spend).toFixed(2)} EUR, `)),
		);
	});

	test('ad declined: the title, campaign, new status and each reason, HTML-escaped; the trigger watches declined and on hold', async () => {
		const example = recipe('alerts/ad-declined-to-telegram.json');
		const trigger = example.nodes.find((n) => n.type.endsWith('.adCabinetAdsTrigger'));
		expect(trigger?.type).toBe('n8n-nodes-ad-cabinet.adCabinetAdsTrigger');
		expect(trigger?.parameters).toMatchObject({
			event: 'statusChanged',
			toStatuses: ['declined', 'on_hold'],
		});
		const send = withoutDelivery(example).nodes.find((n) => n.name === 'Send to Telegram');
		if (!trigger || !send) throw new Error('the trigger or Send to Telegram is missing');
		const ad = {
			ad_id: 41,
			title: 'Rust & <Go> course',
			campaign_name: 'Autumn sale',
			status: 'declined',
			previous_status: 'on_moderation',
			decline_reason: [{ reason: 'The link leads to a page that does not open' }, 'Text in CAPS'],
		};
		const input = {
			...trigger,
			type: 'harness.input',
			typeVersion: 1,
			parameters: { items: JSON.stringify([{ json: ad }]) },
		};
		const connections = {
			[trigger.name]: { main: [[{ node: send.name, type: 'main', index: 0 }]] },
		};
		const result = await runWorkflow({
			nodes: [input, send],
			connections: connections as IConnections,
		});
		expect(itemsOf(result, send.name).map((i) => i.json.text)).toEqual([
			[
				'<b>Ad declined</b>: Rust &amp; &lt;Go&gt; course (ad 41)',
				'Campaign: Autumn sale',
				'Status: on_moderation → declined',
				'Reasons:',
				'• The link leads to a page that does not open',
				'• Text in CAPS',
			].join('\n'),
		]);
	});
});
