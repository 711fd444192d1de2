/**
 * The MCP stage's cases of a tool call's one deadline (20 s from its start, every wait inside it
 * included), under the real service's rate limit, with the recipe as shipped. Each call must answer
 * within 25 s at the MCP client, with its result or "try again in N s", and the same call after N s
 * must succeed:
 *  - an Apply while another execution (a workflow's node, which waits as long as the limit asks)
 *    changes the same ad and holds it;
 *  - a Get ad whose request the API answers 429 with a Retry-After of 15 s, twice;
 *  - a Get ad that must sign in while the sign-in path is spent and the ad's path half spent
 *    (signInCheck.ts).
 * The slowest call of each case is reported, measured at the MCP client.
 */
import { strict as assert } from 'node:assert';
import { apiRequests } from '../../harness/sandbox';
import type { Sandbox } from '../../sandbox';
import { TOOL_ANSWER_BOUND_MS, tryAgainSeconds, waitUntil } from '../lib/tryAgain';
import type { N8nRest } from '../lib/rest';
import type { WorkflowJson, WorkflowNode } from '../lib/workflows';
import type { LineContext } from './checks';
import type { McpClient, ToolAnswer } from './client';
import { outcome, type DeadlineFigures } from './deadlineFigures';
import { signInCheck } from './signInCheck';

/** The webhook path of the workflow that plays the other execution. */
const OTHER_PATH = 'mcp-stage-other-change';

/** Where the other execution is started, on the n8n server at `serverUrl`. */
export function otherChangeUrl(serverUrl: string): string {
	return `${serverUrl}/webhook/${OTHER_PATH}`;
}

/**
 * Another execution that changes an ad: a Webhook (it answers at once) and Ads → Update with the
 * recipe's bounds, as a workflow's node, which waits for the rate limit as long as it takes.
 */
export function otherChangeWorkflow(credential: { id: string; name: string }): WorkflowJson {
	const nodes: Array<WorkflowNode & { id: string; position: number[]; webhookId?: string }> = [
		{
			id: '5b1f0e2a-0001-4c1e-9a51-000000000001',
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: '5b1f0e2a-0001-4c1e-9a51-0000000000aa',
			parameters: { httpMethod: 'POST', path: OTHER_PATH, responseMode: 'onReceived' },
		},
		{
			id: '5b1f0e2a-0002-4c1e-9a51-000000000002',
			name: 'Change CPM',
			type: 'n8n-nodes-ad-cabinet.adCabinetAds',
			typeVersion: 1.3,
			position: [220, 0],
			parameters: {
				resource: 'ad',
				operation: 'update',
				adId: { __rl: true, mode: 'id', value: '={{ $json.body.adId }}' },
				updateFields: { cpm: '={{ $json.body.cpm }}' },
				options: { cpmMin: 0.5, cpmMax: 10, maxChangePercent: 30, skipUnchanged: true },
			},
			credentials: { adCabinetApi: credential },
		},
	];
	return {
		id: 'adstatMcpOtherChange1',
		name: 'Another execution changes an ad (MCP stage)',
		nodes,
		connections: { Webhook: { main: [[{ node: 'Change CPM', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The PUTs on one ad's path that reached the API, with the CPM each asked for. */
function putsOn(sandbox: Sandbox, adId: number): Array<{ cpm: unknown; status: number }> {
	const path = new RegExp(`^/api/advertisement/[^/]+/${adId}/?$`);
	return apiRequests(sandbox)
		.filter((r) => r.method === 'PUT' && path.test(r.path))
		.map((r) => ({ cpm: (r.body as { cpm?: unknown } | undefined)?.cpm, status: r.status }));
}

/** Three active ads no other check uses, with room for +15% either way of their CPM. */
function pickAds(ctx: LineContext): [number, number, number] {
	const active = ctx.sandbox.data.ads.filter((a) => a.status === 'active');
	const cpmOf = (id: number) => Number(ctx.sandbox.data.adDetail(id)?.cpm);
	const fits = active
		.slice(1)
		.filter((a) => cpmOf(a.id) >= 0.5 && cpmOf(a.id) * 1.29 * 1.29 <= 9.5)
		.slice(2);
	assert.ok(fits.length >= 3, 'the sandbox has too few active ads for the deadline cases');
	return [fits[0].id, fits[1].id, fits[2].id];
}

/** Calls until one succeeds, each time after the N s the last answer named; at most `tries`. */
async function untilAnswered(
	call: () => Promise<ToolAnswer>,
	answers: ToolAnswer[],
	tries: number,
): Promise<void> {
	for (let n = 0; n < tries; n++) {
		const answer = await call();
		answers.push(answer);
		const wait = tryAgainSeconds(answer.text);
		if (wait === undefined) return;
		await waitUntil(Date.now() + wait * 1000 + 500);
	}
}

export async function deadlineChecks(
	ctx: LineContext,
	client: McpClient,
	figures: DeadlineFigures,
	webhookUrl: string,
	rest: N8nRest,
): Promise<void> {
	const { checks, sandbox } = ctx;
	const [heldAd, throttledAd, signInAd] = pickAds(ctx);

	await checks.check(
		`an Apply while another execution changes the same ad: it answers within ${TOOL_ANSWER_BOUND_MS / 1000} s with "try again in N s", nothing of it reaches the API, and the same Apply after N s succeeds`,
		async () => {
			const cpm = Number(sandbox.data.adDetail(heldAd)?.cpm);
			const answers: ToolAnswer[] = [];
			const record = () =>
				figures.cases.push({
					name: 'Apply while another execution changes the same ad',
					answers: answers.map(outcome),
					slowestMs: Math.max(...answers.map((a) => a.ms)),
				});
			// The ad's path spent by changes back and forth, until a change is told to try again.
			const apply = async (value: number) =>
				await client.call(
					'Apply_ad_change',
					{ Ad_ID: String(heldAd), CPM: value },
					{ sdkTimeout: true },
				);
			let spent = false;
			for (let n = 0; n < 12 && !spent; n++) {
				const answer = await apply(n % 2 ? cpm : round2(cpm * 1.1));
				spent = tryAgainSeconds(answer.text) !== undefined;
				if (!spent) assert.equal(answer.isError, false, answer.text);
			}
			assert.ok(spent, "twelve changes did not spend the ad's path");
			// The other execution: it holds the ad while its read waits for the path.
			const other = round2(cpm * 1.05);
			const started = await fetch(webhookUrl, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ adId: String(heldAd), cpm: other }),
			});
			assert.equal(started.status, 200, `the other execution did not start: ${started.status}`);
			await waitUntil(Date.now() + 2_000);
			const asked = round2(cpm * 1.15);
			const putsBefore = putsOn(sandbox, heldAd).length;
			try {
				const first = await apply(asked);
				answers.push(first);
				assert.ok(first.ms <= TOOL_ANSWER_BOUND_MS, `${first.ms} ms: ${first.text}`);
				const wait = tryAgainSeconds(first.text);
				assert.ok(wait !== undefined, `not told to try again: ${first.text}`);
				// The other execution's change lands; the refused Apply sent nothing, then or later.
				const deadline = Date.now() + 120_000;
				while (putsOn(sandbox, heldAd).length === putsBefore && Date.now() < deadline)
					await waitUntil(Date.now() + 500);
				await waitUntil(Date.now() + Math.max(0, wait * 1000 - first.ms) + 500);
				const puts = putsOn(sandbox, heldAd).slice(putsBefore);
				assert.deepEqual(
					puts.map((p) => Number(p.cpm)),
					[other],
					`PUTs: ${JSON.stringify(puts)}`,
				);
				await untilAnswered(async () => await apply(asked), answers, 2);
				const last = answers[answers.length - 1];
				assert.equal(last.isError, false, last.text);
				for (const answer of answers)
					assert.ok(answer.ms <= TOOL_ANSWER_BOUND_MS, `${answer.ms} ms: ${answer.text}`);
				assert.equal(Number(sandbox.data.adDetail(heldAd)?.cpm), asked);
			} finally {
				record();
			}
		},
	);

	await checks.check(
		`a Get ad whose request the API answers 429 with a Retry-After of 15 s, twice: each call answers within ${TOOL_ANSWER_BOUND_MS / 1000} s, and the same call after N s succeeds`,
		async () => {
			const answers: ToolAnswer[] = [];
			sandbox.faults.set({ rate: 0, kinds: ['429'], retryAfterSeconds: 15 });
			sandbox.faults.onNth(1, '429');
			sandbox.faults.onNth(2, '429');
			try {
				await untilAnswered(
					async () =>
						await client.call('Get_ad', { Ad_ID: String(throttledAd) }, { sdkTimeout: true }),
					answers,
					4,
				);
			} finally {
				sandbox.faults.clear();
				figures.cases.push({
					name: 'Get ad answered 429 with Retry-After 15 s, twice',
					answers: answers.map(outcome),
					slowestMs: Math.max(...answers.map((a) => a.ms)),
				});
			}
			for (const answer of answers)
				assert.ok(answer.ms <= TOOL_ANSWER_BOUND_MS, `${answer.ms} ms: ${answer.text}`);
			const last = answers[answers.length - 1];
			assert.equal(last.isError, false, last.text);
			assert.equal((last.json as Array<{ ad_id?: unknown }>)[0]?.ad_id, throttledAd);
		},
	);

	await signInCheck(ctx, client, figures, rest, signInAd);
}
