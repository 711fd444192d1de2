import { strict as assert } from 'node:assert';
import type { Sandbox } from '../../sandbox';
import type { Checks } from '../lib/checks';
import { workerThatStarted } from '../lib/queueMode';
import type { N8nServer, N8nWorker } from '../lib/session';
import { step, type StageSetup } from '../lib/stage';
import { FILE, MAX_PAIRS, printPair, recipe, runPair, type Recipe } from './pair';

/** The rows of the recipe and its copy are marked with this pair number and on. */
export const COPY_PAIR = 11;
/** The rate limit's window for the ad list, and a second more. */
const LIST_WINDOW_MS = 61_000;
/** The copy pair's longest run: its reads may wait out the limit's block more than once. */
const COPY_PAIR_TIMEOUT_MS = 360_000;

/**
 * The case the records cannot see: the recipe and a copy of it (another workflow ID, so another
 * record row), started at the same instant on two workers. Each row then has one ad, or the run
 * whose ad came second fails with "Ad made twice" naming both ads; never two silent successes.
 */
export async function copyPair(
	started: number,
	checks: Checks,
	server: N8nServer,
	workers: N8nWorker[],
	sandbox: Sandbox,
	setUp: StageSetup,
	[original, copy]: [Recipe, Recipe],
): Promise<string> {
	const label = 'queue mode, the recipe and a copy of it (another workflow)';
	for (let attempt = 1; attempt <= MAX_PAIRS; attempt++) {
		const pair = await step(
			started,
			`Queue mode: ${FILE} and a copy of it started at once`,
			async () => {
				// The pairs before spent the ad list's 10 reads a minute: the window passes first, and
				// the two workflows, which pace apart (one process each), may meet the limit's 61 s block.
				await new Promise((resolve) => setTimeout(resolve, LIST_WINDOW_MS));
				const ran = await runPair(
					setUp.runtime,
					server.rest,
					sandbox,
					original,
					COPY_PAIR_TIMEOUT_MS,
					copy,
				);
				const on = ran.ids.map((id) => workerThatStarted(workers, id));
				printPair(
					ran,
					on.map((i) => (i < 0 ? 'no worker' : `worker ${i + 1}`)) as [string, string],
				);
				return { ran, on };
			},
		);
		const { ran, on } = pair;
		const twice = ran.rows.filter((_, row) => ran.adsPerRow[row] > 1);
		const errors = ran.runs.map((run) => run.data.resultData.error?.message ?? '');
		const reported = errors.filter((message) => message.startsWith('Ad made twice'));
		console.log(
			`  rows with two ads: ${twice.length}; runs that failed with "Ad made twice": ${reported.length}${reported.length ? ` (${reported[0].split('.')[0]})` : ''}`,
		);
		if (on[0] >= 0 && on[1] >= 0 && on[0] === on[1] && attempt < MAX_PAIRS) {
			console.log(
				'  both executions on one worker: Bull gave the pair to one worker; again with new rows',
			);
			const next = COPY_PAIR + attempt;
			[original, copy] = [recipe(next), recipe(next, true)];
			continue;
		}
		await checks.check(`${label}: never two silent successes for a row`, () => {
			assert.ok(
				ran.adsPerRow.every((n) => n >= 1),
				`ads per row: ${ran.adsPerRow.join(', ')}`,
			);
			if (twice.length === 0) return;
			assert.ok(
				reported.length > 0,
				`two ads for ${twice.length} rows and no run said so: ${errors.join('; ')}`,
			);
			const adsOf = (row: (typeof twice)[number]) =>
				sandbox.data.ads
					.filter(
						(ad) =>
							ad.status !== 'deleted' &&
							ad.fields.title === row.title &&
							ad.fields.text === row.text,
					)
					.map((ad) => String(ad.id));
			assert.ok(
				twice.some((row) =>
					reported.some((message) => adsOf(row).every((id) => message.includes(id))),
				),
				`no "Ad made twice" names both ads of a row with two: ${reported.join('; ')}`,
			);
		});
		return `${label}: ads per row ${ran.adsPerRow.join(', ')}; ${reported.length} run(s) failed "Ad made twice"; executions on ${on.map((i) => `worker ${i + 1}`).join(' and ')}.`;
	}
	return `${label}: no pair ran.`;
}
