/**
 * The balance alert checked against the API: each run of examples/balance-alert.json must alert
 * exactly the cabinets whose available balance, as the API gave it to that run, is below the
 * threshold of the cabinet's currency (or whose currency has no threshold), among the cabinets
 * that spent something in the 7 days before (the recipe takes each cabinet's currency from those
 * days' statistics, so a cabinet without any is not checked).
 *
 * The API's balances move with spend and with every ad that starts or stops, so they are read at
 * the moment the sandbox answers the run's cabinet list, not at the end of the hour.
 */
import type { Server } from 'node:http';
import type { Sandbox } from '../../sandbox';
import { cabinetMoney, visibleCabinets } from '../../sandbox/data/accounts';
import { SPEND } from '../../sandbox/metrics/metricSource';
import type { ExecutionRow } from './executions';
import type { Example } from '../lib/workflows';

const DAY_MS = 86_400_000;
/** The cabinet list's path as the sandbox's server sees it (no query, no trailing slash). */
const CABINET_LIST = /\/api\/accounts\/[a-z]+$/;
/** A message reaches the sink while its run is under way; n8n writes the run's end just after. */
const AFTER_END_MS = 5_000;

interface CabinetBalance {
	cabinetId: string;
	currency: string;
	available: number;
	/** Whether the cabinet spent anything in the 7 days before the answer. */
	spentInWeek: boolean;
}

/** The balances of the visible cabinets as the API answered them, at a simulated time. */
export interface BalanceSnapshot {
	atMs: number;
	cabinets: CabinetBalance[];
}

/** The recipe's thresholds by currency (its Alert settings node, `thresholds.<currency>`). */
export function thresholdsOf(flow: Example): Record<string, number> {
	const node = flow.workflow.nodes.find((n) => n.name === 'Alert settings');
	const list =
		(node?.parameters.assignments as { assignments?: Array<Record<string, unknown>> } | undefined)
			?.assignments ?? [];
	return Object.fromEntries(
		list
			.filter((a) => String(a.name).startsWith('thresholds.'))
			.map((a) => [String(a.name).slice('thresholds.'.length), Number(a.value)]),
	);
}

/** Records the balances each time the sandbox answers the cabinet list with 200. */
export class BalanceWatch {
	readonly snapshots: BalanceSnapshot[] = [];

	constructor(private readonly sandbox: Sandbox) {
		// The sandbox keeps its node:http server private; its answers are watched as they leave.
		const server = (sandbox as unknown as { http: { server: Server } }).http.server;
		server.on('request', (req, res) => {
			const path = (req.url ?? '').split('?')[0].replace(/\/$/, '');
			if (!CABINET_LIST.test(path)) return;
			res.once('finish', () => {
				if (res.statusCode === 200) this.snapshots.push(this.read());
			});
		});
	}

	/** The balances now: the same money the answer just sent was worked out from. */
	read(): BalanceSnapshot {
		const data = this.sandbox.data;
		const now = data.nowMs();
		return {
			atMs: now,
			cabinets: visibleCabinets(data).map((cabinet) => ({
				cabinetId: cabinet.account_id,
				currency: cabinet.currency,
				available: Math.round(cabinetMoney(data, cabinet).available) / 100,
				spentInWeek: data.ads.some(
					(ad) =>
						ad.accountId === cabinet.account_id &&
						data.metricsBetween(ad, now - 7 * DAY_MS, now)[SPEND] > 0,
				),
			})),
		};
	}
}

/** The cabinets a run given `snapshot` must alert, by the recipe's rule. */
export function cabinetsBelow(
	snapshot: BalanceSnapshot,
	thresholds: Record<string, number>,
): string[] {
	return snapshot.cabinets
		.filter((c) => c.spentInWeek)
		.filter((c) => thresholds[c.currency] === undefined || c.available < thresholds[c.currency])
		.map((c) => c.cabinetId)
		.sort();
}

interface BalanceAlert {
	/** Simulated ms the sink received it. */
	at: number;
	cabinetId: string;
}

/**
 * Per finished run of the balance workflow: the cabinets the API's last cabinet list of that run
 * put below the threshold (expected) against the alerts the sink received while it ran. A run
 * that failed is expected to alert nothing (the failure is the executions' goal); an alert outside
 * every run, or a second one for a cabinet in a run, is extra.
 */
export function balanceFigures(
	runs: ExecutionRow[],
	snapshots: BalanceSnapshot[],
	alerts: BalanceAlert[],
	thresholds: Record<string, number>,
) {
	const finished = runs
		.filter((r) => r.stoppedAt !== undefined && r.status !== 'running' && r.status !== 'new')
		.sort((a, b) => a.createdAt - b.createdAt);
	const claimed = new Set<BalanceAlert>();
	let expected = 0;
	let delivered = 0;
	let missing = 0;
	let extra = 0;
	const examples: string[] = [];
	const perRun: string[] = [];
	for (const run of finished) {
		const end = (run.stoppedAt as number) + AFTER_END_MS;
		const from = run.startedAt ?? run.createdAt;
		const answer = snapshots.filter((s) => s.atMs >= from && s.atMs <= end).at(-1);
		const want = run.status === 'success' && answer ? cabinetsBelow(answer, thresholds) : [];
		const got = alerts.filter((a) => !claimed.has(a) && a.at >= from && a.at <= end);
		for (const a of got) claimed.add(a);
		const gotIds = got.map((a) => a.cabinetId);
		const hit = want.filter((id) => gotIds.includes(id));
		const miss = want.filter((id) => !gotIds.includes(id));
		const more = gotIds.length - hit.length;
		expected += want.length;
		delivered += hit.length;
		missing += miss.length;
		extra += more;
		const day = new Date(run.createdAt).toISOString().slice(0, 10);
		perRun.push(`${day} ${want.join('+') || '-'}`);
		if (miss.length > 0) examples.push(`${day}: no alert for ${miss.join(', ')}`);
		if (more > 0)
			examples.push(
				`${day}: alerts for ${gotIds.join(', ')}, expected ${want.join(', ') || 'none'}`,
			);
	}
	const stray = alerts.filter((a) => !claimed.has(a));
	extra += stray.length;
	for (const a of stray.slice(0, 3))
		examples.push(`alert for ${a.cabinetId} at ${new Date(a.at).toISOString()} outside every run`);
	return {
		runs: finished.length,
		runsWithBalances: finished.filter((r) =>
			snapshots.some(
				(s) =>
					s.atMs >= (r.startedAt ?? r.createdAt) &&
					s.atMs <= (r.stoppedAt as number) + AFTER_END_MS,
			),
		).length,
		expected,
		delivered,
		missing,
		extra,
		/** Per run, its day and the cabinets it had to alert. */
		perRun,
		examples: examples.slice(0, 6),
	};
}
