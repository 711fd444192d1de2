/**
 * What the recipes that change ads unattended must do when real n8n runs them against the sandbox;
 * part of the table in expectations.ts. The CPM rule is worked out again here from the sandbox's
 * own statistics, so a check fails when the recipe picks other ads or other CPMs.
 */
import { strict as assert } from 'node:assert';
import type { LoggedRequest } from '../../sandbox';
import type { ExampleExpectation } from './expectationContext';
import type { Example } from './workflows';

/** The values of the recipe's Settings node, as a user set them. */
function settingsOf(example: Example): Record<string, number | boolean> {
	const node = example.workflow.nodes.find((n) => n.name === 'Settings');
	assert.ok(node, 'the recipe has a Settings node');
	const { assignments } = node.parameters.assignments as {
		assignments: Array<{ name: string; value: number | boolean }>;
	};
	return Object.fromEntries(assignments.map((a) => [a.name, a.value]));
}

const cents = (n: number) => Math.round(n * 100) / 100;

/** The PUTs to ads, as `{ ad_id, cpm }`. */
function cpmPuts(requests: LoggedRequest[]): Array<{ ad_id: number; cpm: unknown }> {
	return requests
		.filter((r) => r.method === 'PUT')
		.map((r) => ({
			ad_id: Number(r.path.split('/').filter(Boolean).at(-1)),
			cpm: (r.body as { cpm?: unknown }).cpm,
		}));
}

export const SAFE_WRITE_EXPECTATIONS: Record<string, ExampleExpectation> = {
	'cpm-rule.json': {
		run: 'manual',
		title:
			"one PUT per ad of the campaign the rule picks from the last 24 hours' figures, with its new CPM within the bounds, each logged to the data table",
		dataTables: [
			{
				name: 'cpm_changes',
				columns: [
					{ name: 'ad_id', type: 'number' },
					{ name: 'field', type: 'string' },
					{ name: 'from_value', type: 'number' },
					{ name: 'to_value', type: 'number' },
					{ name: 'why', type: 'string' },
					{ name: 'dry_run', type: 'boolean' },
					{ name: 'run_at', type: 'string' },
				],
			},
		],
		check({ example, items, requests, sandbox }) {
			const s = settingsOf(example);
			assert.equal(s.dryRun, false, 'the recipe ships with Dry Run off');
			const pages = requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/stats/page');
			assert.ok(pages.length >= 1, 'the statistics are read');
			const query = pages[0].body as Record<string, unknown>;
			assert.deepEqual(query.grouping, ['campaign', 'ad']);
			const hours =
				(Date.parse(String(query.period_to)) - Date.parse(String(query.period_from))) / 3.6e6;
			assert.equal(hours, 24, 'the last 24 hours');

			// The rule, worked out again from the sandbox's rows for the same query. The CPM each ad
			// had before the run is the one the statistics gave n8n (the sandbox now has the new one).
			const before = new Map(
				items('Per ad').map((item) => [Number(item.json.ad_id), Number(item.json.ad_cpm)]),
			);
			const perAd = new Map<
				number,
				{ cpm: number; views: number; clicks: number; spent: number }
			>();
			for (const row of sandbox.data.statsRows(query)) {
				if (Number(row.campaign_id) !== s.campaignId) continue;
				const id = Number(row.ad_id);
				const ad = perAd.get(id) ?? { cpm: before.get(id) ?? NaN, views: 0, clicks: 0, spent: 0 };
				ad.views += Number(row.views);
				ad.clicks += Number(row.clicks);
				ad.spent += Number(row.original_spent);
				perAd.set(id, ad);
			}
			const expected: Array<{ ad_id: number; from: number; to: number }> = [];
			for (const [id, ad] of perAd) {
				if (ad.views < Number(s.minViews)) continue;
				const ctr = (ad.clicks / ad.views) * 100;
				const cpc = ad.clicks ? ad.spent / ad.clicks : null;
				const step =
					ctr < Number(s.ctrBelowPercent)
						? -Number(s.stepPercent)
						: cpc !== null && cpc < Number(s.cpcBelow)
							? Number(s.stepPercent)
							: 0;
				if (!step) continue;
				const paid = (ad.spent / ad.views) * 1000;
				const to = Math.min(
					Number(s.cpmMax),
					Math.max(Number(s.cpmMin), cents(paid * (1 + step / 100))),
				);
				expected.push({ ad_id: id, from: ad.cpm, to });
			}
			const moved = expected.filter((e) => e.to !== e.from);
			assert.ok(moved.length >= 2, `the rule moves at least two ads (${moved.length})`);
			assert.deepEqual(
				cpmPuts(requests).sort((a, b) => a.ad_id - b.ad_id),
				moved.map((e) => ({ ad_id: e.ad_id, cpm: e.to })).sort((a, b) => a.ad_id - b.ad_id),
				'one PUT per ad the rule moves, with its new CPM, and none for the others',
			);
			for (const e of moved) {
				assert.ok(
					e.to >= Number(s.cpmMin) && e.to <= Number(s.cpmMax),
					`ad ${e.ad_id}: ${e.to} within the bounds`,
				);
				assert.ok(
					Math.abs(e.to - e.from) / e.from <= Number(s.maxChangePercent) / 100,
					`ad ${e.ad_id}: ${e.from} → ${e.to} within Max Change %`,
				);
				assert.equal(
					sandbox.data.ad(e.ad_id)?.fields.cpm,
					e.to,
					`ad ${e.ad_id} now has CPM ${e.to}`,
				);
			}
			const logged = items('Log the change').map((item) => item.json);
			assert.deepEqual(
				logged.map((row) => [row.ad_id, row.field, row.from_value, row.to_value, row.dry_run]),
				moved.map((e) => [e.ad_id, 'cpm', e.from, e.to, false]),
				'each change is a row of the data table: ad, field, from, to, not a dry run',
			);
			for (const row of logged) assert.match(String(row.why), /is below/, 'each row says why');
			console.log(
				`    the rule moved ${moved.length} ads' CPM (${expected.length - moved.length} already at their new CPM)`,
			);
		},
		rerun: {
			title: 'in the same hour Skip Unchanged sends no PUT, and nothing is logged',
			check({ items, requests }) {
				assert.deepEqual(cpmPuts(requests), [], 'no PUT');
				const updates = items('Update CPM').map((item) => item.json);
				assert.ok(updates.length >= 2, 'the rule picked the same ads again');
				for (const update of updates)
					assert.equal(update.skipped, true, `ad ${String(update.ad_id)} skipped`);
				assert.deepEqual(items('Changed'), [], 'no change to log');
				console.log(`    run again: ${updates.length} ads skipped as unchanged, 0 PUTs`);
			},
		},
	},
};
