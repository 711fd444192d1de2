/**
 * The sync stage's check of the Stats Trigger with Re-Check Last 2 Periods: each row restated in
 * its last 2 days is emitted once more, marked restated, with the figures it had; no other row is.
 */
import { strict as assert } from 'node:assert';
import type { IDataObject } from 'n8n-workflow';
import type { Checks } from '../lib/checks';
import { listExecutions, readExecution, sleep, UNFINISHED } from '../lib/executions';
import type { N8nRest } from '../lib/rest';
import type { N8nRuntime } from '../lib/runtime';
import { itemsOf } from '../lib/workflows';
import { dayOf } from './compare';
import { TRIGGER_NAMES } from './workflows';

const DAY_MS = 86_400_000;

export interface Restatement {
	day: string;
	campaign: number;
	at: number;
}

/** Waits for the trigger's poll after the last restatement, checks what it emitted; returns the closing line. */
export async function checkRecheckTrigger(
	checks: Checks,
	runtime: N8nRuntime,
	rest: N8nRest,
	triggerId: string,
	today: number,
	restated: Restatement[],
): Promise<string> {
	console.log('\n▶ The trigger with Re-Check Last 2 Periods');
	const lastRestatement = Math.max(...restated.map((r) => r.at));
	const tracked = new Set([dayOf(today - DAY_MS), dayOf(today - 2 * DAY_MS)]);
	const expected = restated
		.filter((r) => tracked.has(r.day))
		.map((r) => `${r.day}|d|EUR|c${r.campaign}`)
		.sort();
	const deadline = Date.now() + 70_000;
	let emitted: IDataObject[] = [];
	for (;;) {
		const executions = (await listExecutions(rest, triggerId)).filter(
			(e) => !UNFINISHED.has(e.status),
		);
		const polledAfter = executions.some((e) => Date.parse(e.createdAt) > lastRestatement);
		emitted = [];
		for (const e of executions.sort((a, b) => Number(a.id) - Number(b.id))) {
			const record = await readExecution(runtime, rest, e.id);
			emitted.push(
				...(itemsOf(record.run, TRIGGER_NAMES.received) ?? []).map(
					(item) => item.json as IDataObject,
				),
			);
		}
		const marked = emitted.filter((row) => row.restated === true);
		if ((polledAfter && marked.length >= expected.length) || Date.now() > deadline) break;
		await sleep(2_000);
	}
	const marked = emitted.filter((row) => row.restated === true);
	const firstEmitted = new Map(
		emitted.filter((row) => row.restated === false).map((row) => [String(row.row_key), row]),
	);
	const line = `${emitted.length - marked.length} rows emitted as they settled, ${marked.length} restated (${expected.length} restatements in its last 2 days, ${restated.length - expected.length} outside them)`;
	console.log(`  ${line}: ${marked.map((row) => String(row.row_key)).join(', ')}`);
	await checks.check(
		'the trigger emitted each restated row of its last 2 days once, marked restated with the figures it had, and no other',
		() => {
			assert.deepEqual(marked.map((row) => String(row.row_key)).sort(), expected);
			for (const row of marked) {
				const first = firstEmitted.get(String(row.row_key));
				assert.ok(first, `${String(row.row_key)} was not emitted before`);
				const previous = row.previous as IDataObject;
				assert.equal(previous.views, first.views);
				assert.notEqual(row.views, first.views);
			}
		},
	);
	return line;
}
