/**
 * Landing each planned fault (scripts/month/faults.ts) on the running month, and what the month
 * records as it goes: memory at each day's end and the trigger's stored state.
 */
import { join } from 'node:path';
import { apiRequests } from '../../harness/sandbox';
import { readLog } from '../lib/logs';
import { heapAfterGc, inspectorUrl } from '../lib/inspector';
import { groupMemory } from '../lib/memory';
import { RestError } from '../lib/rest';
import { isTriggerPoll, type Executions } from './executions';
import {
	clearSandboxFault,
	HOUR,
	injectSandboxFault,
	NEW_PASSWORD,
	type FaultKind,
	type FaultRecord,
	type PlannedFault,
} from './faults';
import { n8nRss, type MemoryReading } from './report';
import { activated, START_TIMEOUT_MS, startWorker, type Month } from './setup';
import { SANDBOX_CREDENTIAL } from '../lib/workflows';
import { MINUTE } from './workflows';
import { clearWriteFault, injectWriteFault, prepareWriteFault } from './writeFaults';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const AD_LIST = '/api/v2/advertisement';

/** Calls n8n's REST API, signing in again when the session ended (it lasts 7 simulated days). */
export async function restCall<T>(
	m: Month,
	method: string,
	path: string,
	body?: unknown,
	timeoutMs?: number,
): Promise<T> {
	try {
		return await m.rest.request<T>(method, path, body, timeoutMs);
	} catch (error) {
		if (!(error instanceof RestError) || error.status !== 401) throw error;
		await m.rest.signIn();
		return await m.rest.request<T>(method, path, body, timeoutMs);
	}
}

/**
 * Kills the worker that runs this hour's Ads run once the run waits on the rate limit (9 requests
 * to the ad list sent), and starts a new worker in its place.
 */
async function killAdsWorker(
	m: Month,
	executions: Executions,
	before: number,
	requestsBefore: number,
): Promise<string> {
	const deadline = Date.now() + 90_000;
	for (;;) {
		const run = executions
			.since(before)
			.find((e) => e.workflowId === m.flows.ads.id && e.status === 'running');
		const sent = m.sandbox.requests
			.slice(requestsBefore)
			.filter((r) => r.path.startsWith(AD_LIST)).length;
		if (run && sent >= 9) {
			const line = new RegExp(`^Worker started execution ${run.id} `);
			const victim = m.workers.findIndex(({ worker }) =>
				readLog(worker.log.logFile).some((e) => line.test(e.message)),
			);
			if (victim < 0) return `no worker logged starting execution ${run.id}; none killed`;
			const { label, worker } = m.workers[victim];
			const pid = worker.spawned.child.pid ?? 0;
			executions.abandoned.add(run.id);
			process.kill(-pid, 'SIGKILL');
			m.workers.splice(victim, 1);
			const replacement = await startWorker(m);
			m.workers.push({ label: `${label}-replacement`, worker: replacement });
			return `${label} (pid ${pid}) killed while execution ${run.id} waited on the rate limit after ${sent} ad-list requests; a new worker started`;
		}
		if (Date.now() > deadline)
			return 'the Ads run never waited on the rate limit; no worker killed';
		await sleep(50);
	}
}

/**
 * Kills n8n main once the Stats Trigger's poll waits for its statistics answer (the sandbox holds
 * it), then starts main again as a service manager would, on the same database, Redis and port.
 * The poll never ends in main, so the trigger's stored state stays where the last poll left it.
 */
async function killMain(m: Month, requestsBefore: number): Promise<string> {
	const deadline = Date.now() + 60_000;
	while (
		!m.sandbox.requests.slice(requestsBefore).some((r) => isTriggerPoll(r) && r.fault === 'stall')
	) {
		if (Date.now() > deadline) {
			m.sandbox.faults.clear();
			return 'the Stats Trigger never polled; main not killed';
		}
		await sleep(20);
	}
	const pid = m.server.spawned.child.pid ?? 0;
	const adsPollHeld = m.sandbox.requests
		.slice(requestsBefore)
		.some((r) => r.path.startsWith(AD_LIST) && r.fault === 'stall');
	process.kill(-pid, 'SIGKILL');
	await Promise.race([m.server.spawned.exited, sleep(10_000)]);
	const declined = declineWhileDown(m);
	// The sync's statistics request, held too, is dropped when the hold ends and its retry passes.
	m.sandbox.faults.clear();
	const began = Date.now();
	m.server = await m.session.startServer(START_TIMEOUT_MS);
	m.rest = m.server.rest;
	m.mainLabel = 'main-restarted';
	await m.rest.signIn();
	await activated(m.rest, Object.values(m.flows), m.server.log.logFile);
	return `main (pid ${pid}) killed while the Stats Trigger's poll waited for its statistics answer${adsPollHeld ? " and the Ads Trigger's for the ad list" : ' (the Ads Trigger had not polled)'}; ${declined}; started again and its workflows active in ${Math.round((Date.now() - began) / 1000)} s`;
}

/** Moderation declines a running ad of the creatives' campaign while main is down. */
function declineWhileDown(m: Month): string {
	const ad = m.sandbox.data.ads.find((a) => a.status === 'active' && a.campaignId === 2201);
	if (!ad) return 'no active ad to decline while main was down';
	m.sandbox.data.moderation?.decideNow(ad, 'declined', m.sandbox.data.nowMs());
	return `ad ${ad.id} declined while main was down`;
}

/** What a fault that lands during the step needs switched on before the step's jump. */
export function prepareFault(m: Month, fault: PlannedFault): void {
	if (fault.kind === 'mainKilled') injectSandboxFault(m.sandbox, fault.kind);
	if (fault.kind === 'createAnswerLostWorkerKilled') prepareWriteFault(m, fault.kind);
}

async function fixPassword(m: Month): Promise<string> {
	m.credentialData.password = NEW_PASSWORD;
	await restCall(m, 'PATCH', `/rest/credentials/${SANDBOX_CREDENTIAL.id}`, {
		name: SANDBOX_CREDENTIAL.name,
		type: 'adCabinetApi',
		data: m.credentialData,
	});
	return 'the credential edited over the REST API (as the editor saves it) with the new password';
}

export async function injectFault(
	m: Month,
	fault: PlannedFault,
	hourStart: number,
	executions: Executions,
	before = 0,
	requestsBefore = 0,
): Promise<FaultRecord> {
	// A fault set up before the hour's jump meets the runs at minute 5; the others land now.
	const at = fault.when === 'before' ? hourStart + MINUTE * 60_000 : m.clock.now();
	let detail: string;
	switch (fault.kind) {
		case 'workerKilled':
			detail = await killAdsWorker(m, executions, before, requestsBefore);
			break;
		case 'mainKilled':
			detail = await killMain(m, requestsBefore);
			break;
		case 'redisRestart':
			detail = `Redis restarted between two runs, away ${await m.redisService.restart()} ms`;
			break;
		case 'postgresRestart':
			detail = `PostgreSQL restarted between two runs, away ${await m.pgService.restart()} ms`;
			break;
		case 'passwordFixed':
			detail = await fixPassword(m);
			break;
		case 'refreshExpiry':
			detail = "the first sign-in's refresh token runs out at this hour's runs";
			break;
		case 'createAnswerLost':
		case 'create5xx':
		case 'creativesWorkerKilled':
		case 'createAnswerLostWorkerKilled':
		case 'createAnswerLostAgain':
		case 'putAnswerLost':
			detail = await injectWriteFault(m, fault.kind, executions, before, requestsBefore);
			break;
		default:
			detail = injectSandboxFault(m.sandbox, fault.kind);
	}
	const from = fault.when === 'after' ? at : hourStart;
	const lastHour = fault.when === 'after' ? hourStart + HOUR : hourStart;
	console.log(`  ${new Date(at).toISOString().slice(0, 16)} fault ${fault.kind}: ${detail}`);
	return {
		kind: fault.kind,
		at: new Date(at).toISOString(),
		forcesSignIn: fault.forcesSignIn,
		fromMs: from,
		toMs: lastHour + (fault.lasts + 1) * HOUR,
		detail,
		recovery: [],
	};
}

export class Recorder {
	readonly memory: Record<string, MemoryReading[]> = {};
	triggerStateBytes: Array<{ day: number; bytes: number }> = [];
	/** API requests and answers of 429 each day (counted at each day's end). */
	readonly traffic: Array<{ day: number; requests: number; answers429: number }> = [];
	private counted = { requests: 0, answers429: 0 };

	constructor(
		private readonly m: Month,
		private readonly executions: Executions,
		/** Heap snapshots of every n8n process at the end of these days, written to `dir`. */
		private readonly snapshots?: { dir: string; days: number[] },
	) {}

	/** After the last step of a fault. */
	afterFault(kind: FaultKind): void {
		clearSandboxFault(this.m.sandbox, kind);
		if (kind === 'create5xx') clearWriteFault(this.m, kind);
	}

	async endOfDay(day: number): Promise<void> {
		const processes = [
			{ label: this.m.mainLabel, n8n: this.m.server },
			...this.m.workers.map(({ label, worker }) => ({ label, n8n: worker })),
		];
		for (const { label, n8n } of processes) {
			// Resident memory as the day left it first, then the live heap after a full collection.
			const pid = n8n.spawned.child.pid;
			const reading: MemoryReading = { day, rssMb: n8nRss(groupMemory(pid)) };
			(this.memory[label] ??= []).push(reading);
			const url = inspectorUrl(n8n.log.consoleFile);
			if (!url) continue;
			const snapshot = this.snapshots?.days.includes(day)
				? join(this.snapshots.dir, `${label}-day${day}.heapsnapshot`)
				: undefined;
			reading.heapMb = await heapAfterGc(url, snapshot);
			reading.rssAfterGcMb = n8nRss(groupMemory(pid));
		}
		this.triggerStateBytes.push({ day, bytes: await this.stateBytes() });
		const requests = apiRequests(this.m.sandbox);
		const now = {
			requests: requests.length,
			answers429: requests.filter((r) => r.status === 429).length,
		};
		this.traffic.push({
			day,
			requests: now.requests - this.counted.requests,
			answers429: now.answers429 - this.counted.answers429,
		});
		this.counted = now;
		await this.executions.refresh();
	}

	/** The size of the trigger's stored state (n8n keeps it as the workflow's static data). */
	async stateBytes(): Promise<number> {
		const rows = await this.m.n8nDb.query<{ bytes: number | null }>(
			'SELECT length("staticData"::text) AS bytes FROM workflow_entity WHERE id = $1',
			[this.m.flows.trigger.id],
		);
		return Number(rows[0]?.bytes ?? 0);
	}

	memoryLine(): string {
		return Object.entries(this.memory)
			.map(([name, list]) => {
				const last = list[list.length - 1];
				const heap = last?.heapMb === undefined ? '' : ` (live heap ${last.heapMb} MB)`;
				return `${name} ${last?.rssMb ?? '?'} MB${heap}`;
			})
			.join(', ');
	}
}
