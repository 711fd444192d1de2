/**
 * The MCP stage under the real service's rate limit (10 requests per 60 s per URL path): a burst of
 * Get ad calls on a spent ad path, an Apply that meets a spent limit, the requests of "read, preview, apply" and the
 * daily bound of the recipe's Apply. The limit's wait is taken once per line: the other checks run
 * inside it, on other ads (each ad's path has a limit of its own).
 */
import { strict as assert } from 'node:assert';
import { apiRequests } from '../../harness/sandbox';
import type { Sandbox } from '../../sandbox';
import { TOOL_ANSWER_BOUND_MS, tryAgainSeconds, waitUntil } from '../lib/tryAgain';
import type { LineContext } from './checks';
import type { McpClient, ToolAnswer } from './client';

/** What the stage reports of the rate-limit checks on one n8n line. */
export interface LimitFigures {
	/** The CPM changes that spent the burst ad's path, as they answered. */
	spending: string[];
	/** The requests on the burst ad's path, as method and status. */
	spentBy?: string;
	/** The burst: how each call answered, in the order sent, and the slowest call. */
	burst: string[];
	burstSlowestMs?: number;
	/** The Apply sent while the ad's path was spent. */
	applyRefusal?: string;
	/** Requests that reached the sandbox for Get ad, Preview and Apply of one ad, by method. */
	readPreviewApply?: string;
	/** How the five +29% Applies answered. */
	dailyApplies: string[];
}

const BURST = 12;
/** Each Apply asks this much more than the CPM the ad has: under the recipe's Max Change % (30). */
const STEP = 1.29;

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The requests on one ad's path since the log was cleared, counted by method. */
function onAd(sandbox: Sandbox, adId: number) {
	const path = new RegExp(`^/api/advertisement/[^/]+/${adId}/?$`);
	const requests = apiRequests(sandbox).filter((r) => path.test(r.path));
	const count = (method: string) => requests.filter((r) => r.method === method).length;
	return { requests, gets: count('GET'), puts: count('PUT') };
}

function outcome(answer: ToolAnswer, done = 'the ad'): string {
	const wait = tryAgainSeconds(answer.text);
	if (wait !== undefined) return `try again in ${wait} s (${answer.ms} ms)`;
	if (answer.isError) return `error: ${answer.text.slice(0, 120)} (${answer.ms} ms)`;
	return `${done} (${answer.ms} ms)`;
}

/** The ads the checks use: active, none used by another check, with room for two +29% steps. */
function pickAds(ctx: LineContext): { burstAd: number; dailyAd: number; dailyCpm: number } {
	const active = ctx.sandbox.data.ads.filter((a) => a.status === 'active');
	const cpmOf = (id: number) => Number(ctx.sandbox.data.adDetail(id)?.cpm);
	// The first active ad belongs to the write and operation checks.
	const free = active.slice(1);
	const fits = free.filter((a) => cpmOf(a.id) >= 0.5 && cpmOf(a.id) * STEP * STEP <= 9.5);
	assert.ok(fits.length >= 2, 'the sandbox has too few active ads with a CPM under 5.7');
	return { burstAd: fits[0].id, dailyAd: fits[1].id, dailyCpm: cpmOf(fits[1].id) };
}

export async function limitChecks(
	ctx: LineContext,
	client: McpClient,
	figures: LimitFigures,
): Promise<void> {
	const { checks, sandbox } = ctx;
	const { burstAd, dailyAd, dailyCpm } = pickAds(ctx);
	const burstCpm = Number(sandbox.data.adDetail(burstAd)?.cpm);
	const getAd = { Ad_ID: String(burstAd) };
	// When a place on the burst ad's path is free again, as the refusals said.
	let freeAt = 0;
	// The burst ad's PUTs and CPM when the Apply was told to try again.
	let putsBefore = -1;
	let cpmBefore = 0;
	sandbox.clearLog();

	await checks.check(
		`the burst ad's path spent by CPM changes back and forth, then ${BURST} Get ad calls in a row (the MCP client's own 60 s timeout): each answers within ${TOOL_ANSWER_BOUND_MS / 1000} s, with the ad or "try again in N s"; no 429`,
		async () => {
			// Repeated reads of one ad in tool calls are answered from a read of seconds ago, so
			// reads alone do not spend its path: each change sends a PUT.
			const raised = round2(burstCpm * 1.1);
			for (let n = 0; n < 10; n++) {
				const change = { ...getAd, CPM: n % 2 ? burstCpm : raised };
				const answer = await client.call('Apply_ad_change', change, { sdkTimeout: true });
				figures.spending.push(outcome(answer, 'applied'));
				if (tryAgainSeconds(answer.text) !== undefined) break;
				assert.equal(answer.isError, false, answer.text);
			}
			const before = onAd(sandbox, burstAd).requests.length;
			const answers: ToolAnswer[] = [];
			for (let n = 0; n < BURST; n++)
				answers.push(await client.call('Get_ad', getAd, { sdkTimeout: true }));
			const at = Date.now();
			figures.burst = answers.map((answer) => outcome(answer));
			figures.burstSlowestMs = Math.max(...answers.map((a) => a.ms));
			const waits: number[] = [];
			for (const answer of answers) {
				assert.ok(answer.ms <= TOOL_ANSWER_BOUND_MS, `${answer.ms} ms: ${answer.text}`);
				const wait = tryAgainSeconds(answer.text);
				if (wait === undefined) assert.equal(answer.isError, false, answer.text);
				else {
					assert.equal(answer.isError, true, answer.text);
					waits.push(wait);
				}
			}
			assert.ok(waits.length > 0, `no call was told to try again: ${figures.burst.join('; ')}`);
			freeAt = Math.max(freeAt, at + Math.max(...waits) * 1000);
			const { requests } = onAd(sandbox, burstAd);
			figures.spentBy = requests
				.map((r, i) => `${i < before ? '' : 'burst: '}${r.method} ${r.status}`)
				.join(', ');
			const read = requests.length - before;
			assert.ok(read <= BURST - waits.length, `${read} reads for ${BURST - waits.length} answers`);
			assert.ok(!requests.some((r) => r.status === 429), `a 429: ${figures.spentBy}`);
		},
	);

	await checks.check(
		'an Apply on the spent ad path answers "try again in N s" at once, and no PUT is sent',
		async () => {
			const asked = round2(burstCpm * 1.1);
			const answer = await client.call(
				'Apply_ad_change',
				{ ...getAd, CPM: asked },
				{ sdkTimeout: true },
			);
			figures.applyRefusal = outcome(answer);
			const wait = tryAgainSeconds(answer.text);
			assert.ok(wait !== undefined, `not told to try again: ${answer.text}`);
			assert.equal(answer.isError, true);
			assert.ok(answer.ms <= TOOL_ANSWER_BOUND_MS, `${answer.ms} ms`);
			freeAt = Math.max(freeAt, Date.now() + wait * 1000);
			putsBefore = onAd(sandbox, burstAd).puts;
			cpmBefore = Number(sandbox.data.adDetail(burstAd)?.cpm);
			assert.equal(putsBefore, figures.spending.filter((s) => s.startsWith('applied')).length);
		},
	);

	// Inside the wait for the burst ad's path: another ad, whose path has its own limit.
	await checks.check(
		'Get ad, Preview, Apply of one ad: one GET and one PUT reach the API',
		async () => {
			const args = { Ad_ID: String(dailyAd), CPM: round2(dailyCpm * STEP) };
			for (const [tool, toolArgs] of [
				['Get_ad', { Ad_ID: args.Ad_ID }],
				['Preview_ad_change', args],
				['Apply_ad_change', args],
			] as const) {
				const answer = await client.call(tool, toolArgs);
				assert.equal(answer.isError, false, `${tool}: ${answer.text}`);
			}
			const { gets, puts } = onAd(sandbox, dailyAd);
			figures.readPreviewApply = `${gets} GET + ${puts} PUT`;
			figures.dailyApplies.push(`1: ${dailyCpm} → ${args.CPM} applied (after Get ad and Preview)`);
			assert.deepEqual({ gets, puts }, { gets: 1, puts: 1 });
		},
	);

	await checks.check(
		"four more Applies of +29%: Max Change % per Day (30) refuses each, naming the day's start value, the asked value and the bound; one PUT in all",
		async () => {
			for (let n = 2; n <= 5; n++) {
				const current = Number(sandbox.data.adDetail(dailyAd)?.cpm);
				const asked = round2(current * STEP);
				const answer = await client.call('Apply_ad_change', { Ad_ID: String(dailyAd), CPM: asked });
				const wait = tryAgainSeconds(answer.text);
				assert.equal(wait, undefined, `the rate limit interfered: ${answer.text}`);
				figures.dailyApplies.push(
					`${n}: ${current} → ${asked} ${answer.isError ? `refused: ${answer.text.slice(0, 200)}` : 'applied'}`,
				);
				assert.equal(answer.isError, true, `Apply ${n} of ${current} → ${asked}: ${answer.text}`);
				for (const part of [String(dailyCpm), String(asked), '30%'])
					assert.ok(answer.text.includes(part), `"${part}" not in: ${answer.text}`);
			}
			assert.equal(onAd(sandbox, dailyAd).puts, 1);
			assert.equal(Number(sandbox.data.adDetail(dailyAd)?.cpm), round2(dailyCpm * STEP));
		},
	);

	await checks.check(
		'after the N s it was told: no PUT ever reached the API for the refused Apply, and the same Get ad call succeeds',
		async () => {
			assert.ok(freeAt > 0, 'no wait was reported');
			await waitUntil(freeAt + 500);
			assert.equal(onAd(sandbox, burstAd).puts, putsBefore, 'a PUT reached the API later');
			assert.equal(Number(sandbox.data.adDetail(burstAd)?.cpm), cpmBefore);
			const again = await client.call('Get_ad', getAd, { sdkTimeout: true });
			figures.burst.push(`after the wait: ${outcome(again)}`);
			assert.equal(again.isError, false, again.text);
			assert.ok(again.ms <= TOOL_ANSWER_BOUND_MS, `${again.ms} ms`);
			assert.equal((again.json as Array<{ ad_id?: unknown }>)[0]?.ad_id, burstAd);
		},
	);
}
