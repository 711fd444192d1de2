/**
 * The production setup of the month: PostgreSQL 17 and Redis on real time; the sandbox (telegram
 * form: tokens living 1 hour and 30 days, 10 requests per 60 s per path, restatements on,
 * moderation on) and n8n 2.41.1 in queue mode (main and 2 workers) on the simulated clock; one
 * Username-and-Password credential; the seven workflows imported and active.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signInCredentialsFor } from '../../harness/sandbox';
import { Sandbox } from '../../sandbox';
import { INSPECT_OPTION } from '../lib/inspector';
import { readLog } from '../lib/logs';
import { startPostgres, type Postgres } from '../lib/postgres';
import { freePort } from '../lib/processes';
import { queueModeEnv } from '../lib/queueMode';
import type { N8nRest } from '../lib/rest';
import type { N8nServer, N8nSession, N8nWorker } from '../lib/session';
import { stageSession, type StageSetup } from '../lib/stage';
import { CREDENTIAL_TYPE, SANDBOX_CREDENTIAL, type Example } from '../lib/workflows';
import { REDIS_CLI, startRedis, type Redis } from '../lib/redis';
import { SimClock } from './clock';
import { Db, postgresReady, redisReady, restartable, type Restartable } from './services';
import { startSink, type WebhookSink } from '../lib/sink';
import {
	adsFlow,
	balanceFlow,
	DATA_TABLE,
	MONTH_POSTGRES,
	SYNC_TABLE,
	syncFlow,
	triggerFlow,
	type FlowName,
} from './workflows';
import {
	alertsFlow,
	CHANGES_COLUMNS,
	CHANGES_TABLE,
	cpmFlow,
	CREATIVES_DDL,
	creativesFlow,
	telegramCredential,
} from './writeFlows';
import { sameMomentTrigger } from './overlaps';

/** An advertiser of 120 ads: their statistics by ad stay near a hundred rows a day. */
const AD_COUNT = 120;

export interface Month {
	clock: SimClock;
	sandbox: Sandbox;
	sink: WebhookSink;
	postgres: Postgres;
	redis: Redis;
	pgService: Restartable;
	redisService: Restartable;
	session: N8nSession;
	server: N8nServer;
	/** Main's name in the memory readings: a main started again is another process. */
	mainLabel: string;
	workers: Array<{ label: string; worker: N8nWorker }>;
	rest: N8nRest;
	/** n8n's database and the sync table's. */
	n8nDb: Db;
	monthDb: Db;
	dataTable: string;
	/** The CPM rule's change log (an n8n data table). */
	changesTable: string;
	/** Every ad's CPM when the month starts, by ad id. */
	cpmAtStart: Map<number, number>;
	flows: Record<FlowName, Example>;
	credentialData: Record<string, unknown>;
}

async function importCredentials(
	session: N8nSession,
	work: string,
	data: Record<string, unknown>,
	postgres: Postgres,
	sinkUrl: string,
): Promise<void> {
	const file = join(work, 'month-credentials.json');
	writeFileSync(
		file,
		JSON.stringify([
			{ ...SANDBOX_CREDENTIAL, type: CREDENTIAL_TYPE, data },
			{
				...MONTH_POSTGRES,
				type: 'postgres',
				data: {
					host: '127.0.0.1',
					port: postgres.port,
					database: 'month',
					user: 'postgres',
					password: '',
					ssl: 'disable',
					allowUnauthorizedCerts: false,
					maxConnections: 10,
				},
			},
			telegramCredential(sinkUrl),
		]),
	);
	await session.command('import-credentials', ['import:credentials', `--input=${file}`], 120_000);
}

async function createDataTable(rest: N8nRest, name: string, columns: unknown[]): Promise<string> {
	const project = await rest.request<{ id: string }>('GET', '/rest/projects/personal');
	const table = await rest.request<{ id: string }>(
		'POST',
		`/rest/projects/${project.id}/data-tables`,
		{ name, columns },
	);
	return table.id;
}

async function createHoursTable(rest: N8nRest): Promise<string> {
	const columns = [
		['row_key', 'string'],
		['period_date', 'string'],
		['campaign_id', 'number'],
		['views', 'number'],
		['clicks', 'number'],
		['actions', 'number'],
		['exchanged_spent', 'number'],
		['restated', 'boolean'],
	].map(([name, type]) => ({ name, type }));
	return await createDataTable(rest, DATA_TABLE, columns);
}

/**
 * n8n publishes an activated workflow in the background, under a deadline timer: the clock may
 * jump only once every workflow is active and its triggers are set up.
 */
export async function activated(rest: N8nRest, flows: Example[], logFile: string): Promise<void> {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const states = await Promise.all(
			flows.map(
				async (f) =>
					await rest.request<{ active?: boolean; activeVersionId?: string | null }>(
						'GET',
						`/rest/workflows/${f.id}`,
					),
			),
		);
		const refused = readLog(logFile).find(
			(e) => e.level === 'error' && /activat|publication/i.test(e.message),
		);
		if (refused)
			throw new Error(`n8n did not activate a workflow: ${refused.message.split('\n')[0]}`);
		if (states.every((s) => s.active === true || Boolean(s.activeVersionId))) break;
		if (Date.now() > deadline) throw new Error('the workflows were not all active within 60 s');
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	// Publication finishes after the flag is set; give it a moment on a loaded machine.
	await new Promise((resolve) => setTimeout(resolve, 5_000));
}

/** How long n8n may take to answer its readiness check: minutes on a loaded 2-core machine. */
export const START_TIMEOUT_MS = 300_000;

export async function startWorker(month: Pick<Month, 'session'>): Promise<N8nWorker> {
	return await month.session.startWorker(
		{ brokerPort: await freePort(), healthPort: await freePort() },
		START_TIMEOUT_MS,
	);
}

/**
 * Starts everything; `startMs` is the simulated time the month starts at (a UTC midnight), and
 * `overlapHours` the hours at which the creatives workflow runs twice at once.
 */
export async function setUpMonth(
	setUp: StageSetup,
	startMs: number,
	refreshDays: number,
	started: Array<{ stop(): Promise<unknown> }>,
	overlapHours: number[],
): Promise<Month> {
	const { work, runtime } = setUp;
	// n8n starts 3 simulated minutes before the month: its first runs are those of 00:05.
	const clock = new SimClock(join(work, 'clock'), startMs - 3 * 60_000);
	const postgres = await startPostgres(join(work, 'postgres'));
	const pgService = restartable(postgres.spawned, postgres.consoleFile, 'SIGINT', () =>
		postgresReady(postgres.consoleFile),
	);
	started.push(pgService);
	const redis = await startRedis(join(work, 'redis'));
	const redisService = restartable(redis.spawned, redis.consoleFile, 'SIGTERM', () =>
		redisReady(REDIS_CLI, redis.port),
	);
	started.push(redisService);
	const sandbox = await Sandbox.start({
		platform: 'telegram',
		adCount: AD_COUNT,
		clock: 'real',
		now: new Date(clock.now()),
		refreshLifetimeSeconds: refreshDays * 86_400,
		moderation: true,
	});
	started.push(sandbox);
	clock.attach(sandbox);
	const sink = await startSink(() => clock.now());
	started.push(sink);

	const admin = new Db(runtime, postgres.port, 'postgres');
	await admin.query('CREATE DATABASE month');
	const monthDb = new Db(runtime, postgres.port, 'month');
	await monthDb.query(CREATIVES_DDL);
	await monthDb.query(
		`CREATE TABLE ${SYNC_TABLE} (row_key text PRIMARY KEY, period_date text, ad_id bigint, views bigint, clicks bigint, actions bigint, exchanged_spent numeric)`,
	);

	const session = await stageSession(setUp, {
		...queueModeEnv(postgres, redis),
		...clock.env(),
		N8N_LOG_LEVEL: 'info',
		// Each process's live heap is read through its inspector at each day's end (lib/inspector.ts).
		NODE_OPTIONS: INSPECT_OPTION,
	});
	const credentialData = { ...signInCredentialsFor(sandbox) } as Record<string, unknown>;
	await importCredentials(session, work, credentialData, postgres, sink.url);
	const campaigns = sandbox.data.campaigns.map((c) => c.name);
	const flows: Record<FlowName, Example> = {
		trigger: triggerFlow(new Date(startMs), sink.url),
		sync: syncFlow(),
		balance: balanceFlow(sink.url),
		ads: adsFlow(campaigns, sink.url),
		creatives: creativesFlow(
			overlapHours.length > 0 ? sameMomentTrigger(overlapHours, startMs) : undefined,
		),
		cpm: cpmFlow(),
		alerts: alertsFlow(),
	};
	await session.importExamples(Object.values(flows));

	const [server, ...workers] = (await Promise.all([
		session.startServer(START_TIMEOUT_MS),
		startWorker({ session }),
		startWorker({ session }),
	])) as [N8nServer, N8nWorker, N8nWorker];
	started.push(server, ...workers);
	const rest = server.rest;
	await rest.signIn();
	const dataTable = await createHoursTable(rest);
	const changesTable = await createDataTable(rest, CHANGES_TABLE, CHANGES_COLUMNS);
	for (const flow of Object.values(flows)) {
		const workflow = await rest.request<{ versionId: string }>('GET', `/rest/workflows/${flow.id}`);
		await rest.request('POST', `/rest/workflows/${flow.id}/activate`, {
			versionId: workflow.versionId,
		});
	}
	await activated(rest, Object.values(flows), server.log.logFile);
	return {
		clock,
		sandbox,
		sink,
		postgres,
		redis,
		pgService,
		redisService,
		session,
		server,
		mainLabel: 'main',
		workers: workers.map((worker, i) => ({ label: `worker${i + 1}`, worker })),
		rest,
		n8nDb: admin,
		monthDb,
		dataTable,
		changesTable,
		cpmAtStart: new Map(sandbox.data.ads.map((ad) => [ad.id, ad.fields.cpm])),
		flows,
		credentialData,
	};
}

/**
 * Wakes main and every worker after a jump. Rewriting the clock file does not wake a process that
 * sleeps in its event loop: the timers a jump passed fire only when something else wakes it, up
 * to a second later (measured: the hour's runs were queued 0.2 to 1.2 s after the jump). A request
 * to each process's health endpoint wakes it at once.
 */
export function wake(month: Pick<Month, 'server' | 'workers'>): void {
	const urls = [month.server.url, ...month.workers.map(({ worker }) => worker.url)];
	for (const url of urls) void fetch(`${url}/healthz`).catch(() => undefined);
}
