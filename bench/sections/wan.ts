/**
 * Measurement W: Stats Return All over a wide-area link. A latency proxy on 127.0.0.1 in front of
 * the sandbox adds a round-trip time to every exchange and one or two more to every new
 * connection (TCP, TLS). n8n's request helper opens a connection per request, so a sequential
 * pull pays the setup on every page; the keep-alive floor pays it once. The same workers and
 * engine setup as measurement 1, on fewer rows (about 20,000 in the full run).
 */
import { formatMs, median } from '../lib/measure';
import type { Line } from '../lib/report';
import { Child } from '../lib/rpc';
import type { Breakdown } from '../wan/breakdown';
import type { SubjectName } from '../stats/subjects';
import type { RunAnswer } from '../stats/worker';
import { SANDBOX_NOW, type RowsDigest, type StatsWorkload } from '../stats/workload';
import { sameRows, WrongData } from './stats';

interface Link {
	rttMs: number;
	setupRtts: number;
}

interface WanOptions {
	days: number;
	repetitions: number;
	links: Link[];
	/**
	 * Whether the 40 ms lines carry W1's goals. They are set for the full pull (about 20,000 rows in
	 * 42 pages); over a quick run's 11 pages the first page, which must come back before any part
	 * can start, is a fifth of the pull, so its ratios say nothing about them.
	 */
	w1Goals: boolean;
}

const SUBJECTS: SubjectName[] = ['ours', 'oursSequential', 'peer', 'floor'];
const SHORT: Partial<Record<SubjectName, string>> = {
	ours: 'Stats node',
	oursSequential: 'Stats node at 1',
	peer: 'HTTP Request node',
	floor: 'keep-alive floor',
};

interface WanRaw {
	workload: { days: number; rows: number; pages: number };
	/** Per link: each subject's times, and the connections one of its pulls opened (through the proxy). */
	links: Array<
		Link & {
			time: Record<string, number[]>;
			connections: Record<string, number>;
			/** One more pull of the Stats node, traced request by request (not a timed pull). */
			breakdown?: Breakdown;
		}
	>;
}

function linkName(link: Link): string {
	if (link.rttMs === 0) return 'RTT 0 (loopback, no proxy)';
	return `RTT ${link.rttMs} ms, ${link.setupRtts}-RTT connection setup`;
}

/** Median of the per-repetition ratios: the pulls of a repetition ran seconds apart, under the same load. */
function pairedRatio(a: number[], b: number[]): number {
	return median(a.map((value, i) => value / b[i]));
}

/** The traced pull: where one request's time goes, on average, and how full the gate was kept. */
function breakdownLine(link: Link, b: Breakdown): Line {
	const r = b.perRequest;
	const ms = (value: number) => `${value.toFixed(1)} ms`;
	return {
		id: 'W',
		what: `${linkName(link)}: one traced Stats pull, per request (mean of ${b.requests})`,
		goal: '',
		measured:
			`gate wait ${ms(r.gate)}; ours before n8n's helper ${ms(r.oursBefore)}; helper before the wire ${ms(r.helperBefore)}; ` +
			`on the wire until the headers ${ms(r.wire)}, then the body ${ms(r.body)}; helper after ${ms(r.helperAfter)}; ours after (parse) ${ms(r.oursAfter)}; ` +
			`between a part's pages ${ms(r.betweenPages)}. Pull ${formatMs(b.wallMs)}: first page back at ${formatMs(b.firstPageMs)}, ` +
			`next request at ${formatMs(b.partsStartMs)}; ${b.meanInFlight.toFixed(1)} requests in flight on average; ${formatMs(b.cpuMs)} of CPU`,
	};
}

export async function wanBench(
	options: WanOptions,
	log: (text: string) => void,
): Promise<{ lines: Line[]; raw: WanRaw }> {
	log('W. Stats Return All over a slow network (latency proxy)');
	const sandbox = new Child('sandboxServer.ts');
	const proxy = new Child('wan/proxyServer.ts');
	const workers = Object.fromEntries(
		SUBJECTS.map((subject) => [
			subject,
			new Child('stats/worker.ts', { execArgv: ['--expose-gc'] }),
		]),
	) as Record<SubjectName, Child>;
	const raw: WanRaw = { workload: { days: options.days, rows: 0, pages: 0 }, links: [] };
	let reference: RowsDigest | undefined;
	const check = (subject: SubjectName, got: RowsDigest) => {
		if (got.rows === 0) throw new WrongData(`${subject} returned no rows`);
		if (reference && !sameRows(got, reference)) {
			throw new WrongData(
				`${subject} returned other rows or another order: ${JSON.stringify(got)} instead of ${JSON.stringify(reference)}`,
			);
		}
		reference ??= got;
	};
	try {
		const direct = await sandbox.call<Omit<StatsWorkload, 'days'>>('start', { now: SANDBOX_NOW });
		const port = Number(new URL(direct.baseUrl).port);
		for (const link of options.links) {
			let address = direct;
			if (link.rttMs > 0) {
				const proxyPort = await proxy.call<number>('start', { port, ...link });
				const swap = (url: string) => url.replace(`:${port}/`, `:${proxyPort}/`);
				address = {
					...direct,
					baseUrl: swap(direct.baseUrl),
					clientApiUrl: swap(direct.clientApiUrl),
				};
			}
			const workload: StatsWorkload = { ...address, days: options.days };
			// A first pull per subject loads its code and fills the sandbox's result cache.
			for (const subject of SUBJECTS) {
				check(subject, await workers[subject].call<RowsDigest>('warm', { subject, workload }));
			}
			const time = Object.fromEntries(SUBJECTS.map((s) => [s, [] as number[]])) as Record<
				SubjectName,
				number[]
			>;
			const connections: Record<string, number> = {};
			for (let rep = 0; rep < options.repetitions; rep++) {
				const order = SUBJECTS.map((_, i) => SUBJECTS[(i + rep) % SUBJECTS.length]);
				for (const subject of order) {
					const before = link.rttMs > 0 ? await proxy.call<number>('connections') : 0;
					const answer = await workers[subject].call<RunAnswer>('run', { subject, workload });
					if (link.rttMs > 0)
						connections[subject] = (await proxy.call<number>('connections')) - before;
					await sandbox.call('clearLog');
					check(subject, answer.digest);
					time[subject].push(answer.ms);
				}
			}
			// After the timed pulls, so that the tracing's own cost is in none of them.
			const breakdown =
				link.rttMs > 0
					? await workers.ours.call<Breakdown>('traced', { subject: 'ours', workload })
					: undefined;
			await sandbox.call('clearLog');
			raw.links.push({ ...link, time, connections, breakdown });
			log(
				`  ${linkName(link)}: ${SUBJECTS.map((s) => `${s} ${formatMs(median(time[s]))}`).join(', ')}`,
			);
		}
	} finally {
		await Promise.all(Object.values(workers).map((worker) => worker.stop()));
		await proxy.call('stop').catch(() => undefined);
		await proxy.stop();
		await sandbox.call('stop').catch(() => undefined);
		await sandbox.stop();
	}
	const rows = (reference as RowsDigest).rows;
	raw.workload.rows = rows;
	raw.workload.pages = Math.ceil(rows / 500);
	log(
		`  ${rows.toLocaleString('en-US')} rows per pull, the same rows in the same order from every subject`,
	);

	const lines: Line[] = [];
	for (const link of raw.links) {
		const t = link.time as Record<SubjectName, number[]>;
		lines.push({
			id: 'W',
			what: `${linkName(link)}: ${rows.toLocaleString('en-US')} rows, ${raw.workload.pages} pages; same rows, same order from all`,
			goal: '',
			measured: SUBJECTS.map((s) => `${SHORT[s]} ${formatMs(median(t[s]))}`).join(', '),
		});
		const w1 = options.w1Goals && link.rttMs === 40 && link.setupRtts === 2;
		const w2 = link.rttMs === 0;
		lines.push(
			{
				id: w1 ? 'W1' : 'W',
				what: `${linkName(link)}: Stats node vs HTTP Request node + Split Out`,
				goal: w1 ? '≤ 0.35× peer' : '',
				measured: `${formatMs(median(t.ours))} vs ${formatMs(median(t.peer))}`,
				ratio: pairedRatio(t.ours, t.peer),
				...(w1 ? { limit: 0.35 } : {}),
			},
			{
				id: w1 ? 'W1' : w2 ? 'W2' : 'W',
				what: `${linkName(link)}: Stats node vs sequential undici keep-alive floor`,
				goal: w1 ? '≤ 0.55× floor' : w2 ? '≤ 1.4× floor' : '',
				measured: `${formatMs(median(t.ours))} vs ${formatMs(median(t.floor))}`,
				ratio: pairedRatio(t.ours, t.floor),
				...(w1 ? { limit: 0.55 } : w2 ? { limit: 1.4 } : {}),
			},
			...(link.breakdown ? [breakdownLine(link, link.breakdown)] : []),
			{
				id: w2 ? 'W2' : 'W',
				what: `${linkName(link)}: Stats node (default Requests at Once) vs the same with Requests at Once 1`,
				goal: w2 ? '≤ 1.0× (no slower)' : '',
				measured: `${formatMs(median(t.ours))} vs ${formatMs(median(t.oursSequential))}${link.rttMs > 0 ? `; connections a pull: ${link.connections.ours} vs ${link.connections.oursSequential}` : ''}`,
				ratio: pairedRatio(t.ours, t.oursSequential),
				...(w2 ? { limit: 1.0 } : {}),
			},
		);
	}
	return { lines, raw };
}
