/**
 * The agent stage under the real service's rate limit (10 requests per 60 s per URL path): a second
 * run in which the scripted model changes one ad's CPM back and forth until the ad's path is spent
 * (repeated reads of an ad in tool calls are answered from a read of seconds ago, so reads alone
 * would not spend it) and then asks for the ad 12 times at once. A tool call whose wait
 * for the limit would outlast an AI client's patience answers at once with "try again in N s"; the
 * model ends with an answer that carries that wait.
 */
import { strict as assert } from 'node:assert';
import { REAL_RATE_LIMIT, type Sandbox } from '../../sandbox';
import { apiRequests, type SandboxCredential } from '../../harness/sandbox';
import type { ChatRequest, ModelServer, Step } from '../lib/modelServer';
import { TOOL_ANSWER_BOUND_MS, tryAgainSeconds } from '../lib/tryAgain';
import type { RunData, WorkflowJson, WorkflowNode } from '../lib/workflows';
import { itemsOf } from '../lib/workflows';
import { AGENT_NODE, MODEL_NODE, agentConnections } from './workflow';

const PACED = { id: 'adCabinetPaced', name: 'Ad Cabinet sandbox, paced as the real service' };
const GET_AD = 'Get ad';
const CHANGE_CPM = 'Change CPM';
const BURST = 12;
/** CPM changes at most: each sends a PUT, so ten spend the ad's path whatever else is read. */
const MAX_CHANGES = 10;

/** The credential the burst's tools use: paced at the real limit, as a new credential is. */
export function pacedCredential(sandbox: SandboxCredential): object {
	return {
		...PACED,
		type: 'adCabinetApi',
		data: {
			...sandbox,
			rateLimitRequests: REAL_RATE_LIMIT.requests,
			rateLimitWindow: REAL_RATE_LIMIT.windowSeconds,
		},
	};
}

export function burstWorkflow(): WorkflowJson {
	const fromAI = (key: string, type = 'string') =>
		`={{ $fromAI('${key}', \`The ${key}\`, '${type}') }}`;
	const adId = { __rl: true, mode: 'id', value: fromAI('Ad_ID') };
	const tools: Record<string, Record<string, unknown>> = {
		[GET_AD]: { resource: 'ad', operation: 'get', adId },
		[CHANGE_CPM]: {
			resource: 'ad',
			operation: 'update',
			adId,
			updateFields: { cpm: fromAI('CPM', 'number') },
			options: { skipUnchanged: true },
		},
	};
	const nodes: WorkflowNode[] = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} },
		{
			name: AGENT_NODE,
			type: '@n8n/n8n-nodes-langchain.agent',
			typeVersion: 3.1,
			parameters: {
				promptType: 'define',
				text: 'Change the CPM of the ad back and forth, then read it.',
				options: { maxIterations: MAX_CHANGES + 5 },
			},
		},
		MODEL_NODE,
	];
	const connections = agentConnections();
	for (const [name, parameters] of Object.entries(tools)) {
		nodes.push({
			name,
			type: 'n8n-nodes-ad-cabinet.adCabinetAdsTool',
			typeVersion: 1,
			parameters,
			credentials: { adCabinetApi: { id: PACED.id, name: PACED.name } },
		});
		connections[name] = { ai_tool: [[{ node: AGENT_NODE, type: 'ai_tool', index: 0 }]] };
	}
	return {
		name: 'Ad Cabinet tools under the rate limit',
		nodes: nodes.map((node, i) => ({ ...node, position: [i * 200, 0] }) as WorkflowNode),
		connections,
		settings: { executionOrder: 'v1' },
	};
}

interface BurstTranscript {
	adId: number;
	/** CPM changes the model asked for, and how many of them were applied. */
	changes: number;
	applied: number;
	/** The tool results of the 12 Get ad calls, as the model received them. */
	results: string[];
	/** The wait the first "try again" result named. */
	wait?: number;
}

/** The text of the tool messages the model received, the last `count` of them. */
function toolTexts(request: ChatRequest, count: number): string[] {
	const tools = request.messages.filter((m) => m.role === 'tool');
	return tools
		.slice(-count)
		.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
}

/**
 * The model's steps: CPM changes of one ad, one at a time, back and forth, until the ad's path is
 * spent (a change told to try again) or MAX_CHANGES were applied; then 12 reads of the ad at once;
 * then an answer that carries the wait a read was told.
 */
export function burstScript(sandbox: Sandbox): { steps: Step[]; transcript: BurstTranscript } {
	const ad = sandbox.data.ads.find(
		(a) => a.status === 'active' && Number(sandbox.data.adDetail(a.id)?.cpm) * 1.1 <= 9.5,
	);
	assert.ok(ad, 'the sandbox has no active ad with a CPM under 8.6');
	const cpm = Number(sandbox.data.adDetail(ad.id)?.cpm);
	const raised = Math.round(cpm * 110) / 100;
	const transcript: BurstTranscript = { adId: ad.id, changes: 0, applied: 0, results: [] };
	const Ad_ID = String(ad.id);
	let phase: 'change' | 'burst' | 'done' = 'change';
	const step: Step = (request) => {
		if (phase === 'change' && transcript.changes > 0) {
			const [text] = toolTexts(request, 1);
			if (tryAgainSeconds(text) !== undefined) phase = 'burst';
			else if (text.includes('"error"')) throw new Error(`a CPM change failed: ${text}`);
			else if (++transcript.applied === MAX_CHANGES) phase = 'burst';
		}
		if (phase === 'change') {
			const CPM = transcript.changes++ % 2 ? cpm : raised;
			return { toolCalls: [{ name: 'Change_CPM', args: { Ad_ID, CPM } }] };
		}
		if (phase === 'burst') {
			phase = 'done';
			return {
				toolCalls: Array.from({ length: BURST }, () => ({ name: 'Get_ad', args: { Ad_ID } })),
			};
		}
		// n8n's agent hands each parallel call back as a call and result of its own.
		transcript.results = toolTexts(request, BURST);
		transcript.wait = transcript.results
			.map((text) => tryAgainSeconds(text))
			.find((wait) => wait !== undefined);
		return transcript.wait === undefined
			? { text: `Ad ${Ad_ID} read ${BURST} times.` }
			: {
					text: `The API's rate limit for this ad is spent for now, so I could not read ad ${Ad_ID}; try again in ${transcript.wait} s.`,
				};
	};
	return { steps: Array.from({ length: MAX_CHANGES + 3 }, () => step), transcript };
}

/** The burst run's checks, as [name, assertion] pairs; `asked` is the model's calls before the run. */
export function burstChecks(
	transcript: BurstTranscript,
	sandbox: Sandbox,
	model: ModelServer,
	asked: number,
	run: RunData,
): Array<[string, () => void]> {
	const onAd = () =>
		apiRequests(sandbox).filter((r) =>
			new RegExp(`^/api/advertisement/[^/]+/${transcript.adId}/?$`).test(r.path),
		);
	return [
		[
			`the model changed the CPM until the ad's path was spent (one PUT per change applied), then read the ad ${BURST} times at once, then answered`,
			() => {
				assert.deepEqual(model.problems, []);
				assert.equal(model.requests.length - asked, transcript.changes + 2);
				assert.equal(onAd().filter((r) => r.method === 'PUT').length, transcript.applied);
				assert.ok(!onAd().some((r) => r.status === 429), 'a 429 reached n8n');
			},
		],
		[
			`every Get ad call answered within ${TOOL_ANSWER_BOUND_MS / 1000} s, with the ad or "try again in N s"; no read was sent for a call told to try again`,
			() => {
				const runs = (run.data.resultData.runData[GET_AD] ?? []) as Array<{
					executionTime?: number;
				}>;
				assert.equal(runs.length, BURST, 'Get ad runs');
				for (const one of runs)
					assert.ok((one.executionTime ?? 0) <= TOOL_ANSWER_BOUND_MS, `${one.executionTime} ms`);
				assert.equal(transcript.results.length, BURST, 'tool results the model received');
				const refused = transcript.results.filter((text) => tryAgainSeconds(text) !== undefined);
				assert.ok(refused.length > 0, `no call was told to try again: ${transcript.results[0]}`);
				const lastPut = Math.max(
					...onAd()
						.filter((r) => r.method === 'PUT')
						.map((r) => r.seq),
				);
				const reads = onAd().filter((r) => r.method === 'GET' && r.seq > lastPut);
				assert.ok(
					reads.length <= BURST - refused.length,
					`${reads.length} reads after the changes`,
				);
			},
		],
		[
			"the agent's final answer carries the wait the tool reported",
			() => {
				assert.equal(run.status, 'success', JSON.stringify(run.data.resultData.error ?? {}));
				assert.ok(transcript.wait !== undefined, 'no wait reported');
				const answer = String(itemsOf(run, AGENT_NODE)?.[0]?.json.output);
				assert.ok(answer.includes(`try again in ${transcript.wait} s`), answer);
			},
		],
	];
}

/** Turns the sandbox's real limit on for the burst run (the first run has none, to wait on nothing). */
export function limitSandbox(sandbox: Sandbox): void {
	sandbox.rateLimiter.set({ ...REAL_RATE_LIMIT });
	sandbox.clearLog();
}
