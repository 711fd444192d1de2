import type { AssignmentCollectionValue } from 'n8n-workflow';
import { itemsOf, listExamples, runExample, type ExampleWorkflow } from '../../harness';
import { credentialsFor } from '../../harness/sandbox';
import { cabinetMoney } from '../../sandbox/data/accounts';
import { useSandbox } from '../support/useSandbox';

function example(file: string): ExampleWorkflow {
	const found = listExamples().find((e) => e.file === file);
	if (!found) throw new Error(`${file} is missing`);
	return found;
}

const ALERT = 'Send alert (replace with Telegram, Slack or Email)';

describe('examples/balance-alert.json', () => {
	// A stopped clock: the balances the test computes are the ones the workflow read.
	const sandbox = useSandbox({ clock: 'frozen' });

	test('the thresholds edited in Alert settings decide the alerts, per currency; a currency without one is reported', async () => {
		const workflow = example('balance-alert.json');
		const usd = sandbox().data.cabinet('ACC06163');
		if (!usd) throw new Error('the USD cabinet is missing');
		const usdAvailable = cabinetMoney(sandbox().data, usd).available / 100;
		// The user raises USD above that cabinet's balance and removes RUB.
		const settings = workflow.nodes.find((node) => node.name === 'Alert settings');
		const assignments = (settings?.parameters.assignments as AssignmentCollectionValue).assignments
			.filter((a) => a.name !== 'thresholds.RUB')
			.map((a) => (a.name === 'thresholds.USD' ? { ...a, value: usdAvailable + 1 } : a));
		const edited = {
			...workflow,
			nodes: workflow.nodes.map((node) =>
				node === settings
					? { ...node, parameters: { ...node.parameters, assignments: { assignments } } }
					: node,
			),
		};

		const result = await runExample(edited, credentialsFor(sandbox()));
		expect(result.error).toBeUndefined();
		const alerts = itemsOf(result, ALERT).map((item) => item.json);
		expect(alerts.map((a) => [a.cabinet_id, a.currency, a.threshold])).toEqual([
			['ACC06163', 'USD', usdAvailable + 1],
			['ACC07021', 'EUR', 100],
			['ACC07355', 'RUB', null],
		]);
		expect(alerts[0].text).toBe(
			`Low balance: Tashkent Digital (ACC06163) has ${usdAvailable.toFixed(2)} USD available, below your alert threshold of ${usdAvailable + 1} USD. Top up the cabinet before its ads stop.`,
		);
		expect(alerts[2].text).toMatch(
			/^No balance alert threshold is set for RUB: Moscow Performance \(ACC07355\) has \d+\.\d\d RUB available\. Add thresholds\.RUB in Alert settings\.$/,
		);
	});
});

describe('examples/weekly-spend-by-campaign.json', () => {
	const sandbox = useSandbox({ clock: 'frozen' });

	test("one row per campaign: the week's statistics rows summed, with the campaign list's name and budget", async () => {
		const result = await runExample(
			example('weekly-spend-by-campaign.json'),
			credentialsFor(sandbox()),
		);
		expect(result.error).toBeUndefined();
		const stats = itemsOf(result, 'Last 7 days by campaign').map((item) => item.json);
		const campaigns = new Map(
			itemsOf(result, 'Campaigns').map((item) => [item.json.id, item.json] as const),
		);
		const rows = itemsOf(result, 'One row per campaign').map((item) => item.json);
		const ids = [...new Set(stats.map((row) => row.campaign_id))];
		expect(ids.length).toBeGreaterThan(1);
		expect(rows.map((row) => row.campaign_id)).toEqual(ids);
		for (const row of rows) {
			const days = stats.filter((s) => s.campaign_id === row.campaign_id);
			const cents = days.reduce(
				(sum, day) => sum + Math.round(Number(day.original_spent) * 100),
				0,
			);
			const campaign = campaigns.get(row.campaign_id);
			expect(days).toHaveLength(7);
			expect([row.week_spend, row.currency]).toEqual([cents / 100, days[0].original_currency]);
			expect([row.campaign_name, row.budget, row.cabinet_id]).toEqual([
				campaign?.name,
				campaign?.budget,
				campaign?.account_id,
			]);
		}
	});
});
