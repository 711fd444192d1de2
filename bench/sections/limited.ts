/**
 * Measurement L: Stats Return All against an API that allows 10 requests per 3 s for each path
 * (the real service allows 10 per 60 s; the window is shortened so a run takes seconds). It blocks
 * a path for a window after the limit is passed, and a request sent during the block extends it.
 *
 * Compared: the Stats node with the credential's rate limit set; the least time the limit allows
 * (the last request may start only after floor((N - 1) / 10) windows, then takes one page's time);
 * the HTTP Request node with pagination at the interval a user would pick (window / limit); and the
 * same node with default settings. Every pull that finishes is checked for the same rows in the
 * same order; the sandbox counts its 429 answers.
 */
import { formatMs, median } from '../lib/measure';
import type { Line } from '../lib/report';
import { Child } from '../lib/rpc';
import type { RunAnswer } from '../stats/worker';
import { SANDBOX_NOW, type RowsDigest, type StatsWorkload } from '../stats/workload';
import { sameRows, WrongData } from './stats';

interface LimitedOptions {
	days: number;
	repetitions: number;
}

const LIMIT = { requests: 10, windowSeconds: 3 };
const WINDOW_MS = LIMIT.windowSeconds * 1000;

interface LimitedRaw {
	workload: { days: number; rows: number; pages: number };
	limit: typeof LIMIT;
	leastMs: number;
	pageMs: number;
	time: Record<string, number[]>;
	answered429: Record<string, number[]>;
	defaultPeer: Array<{ ms: number; error?: string; rows: number; answered429: number }>;
}

async function pause(ms: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, ms));
}

export async function limitedBench(
	options: LimitedOptions,
	log: (text: string) => void,
): Promise<{ lines: Line[]; raw: LimitedRaw }> {
	log(
		`L. Stats Return All under the API's rate limit (${LIMIT.requests} requests per ${LIMIT.windowSeconds} s per path)`,
	);
	const sandbox = new Child('sandboxServer.ts');
	const workers = {
		ours: new Child('stats/worker.ts', { execArgv: ['--expose-gc'] }),
		peer: new Child('stats/worker.ts', { execArgv: ['--expose-gc'] }),
		floor: new Child('stats/worker.ts', { execArgv: ['--expose-gc'] }),
	};
	const raw: LimitedRaw = {
		workload: { days: options.days, rows: 0, pages: 0 },
		limit: LIMIT,
		leastMs: 0,
		pageMs: 0,
		time: { ours: [], peerInterval: [], floor: [] },
		answered429: { ours: [], peerInterval: [] },
		defaultPeer: [],
	};
	let reference: RowsDigest | undefined;
	const check = (subject: string, got: RowsDigest) => {
		if (got.rows === 0) throw new WrongData(`${subject} returned no rows`);
		if (reference && !sameRows(got, reference)) {
			throw new WrongData(
				`${subject} returned other rows or another order than the unlimited pull`,
			);
		}
		reference ??= got;
	};
	try {
		const address = await sandbox.call<Omit<StatsWorkload, 'days'>>('start', { now: SANDBOX_NOW });
		const workload: StatsWorkload = { ...address, days: options.days };
		const paced: StatsWorkload = { ...workload, rateLimit: LIMIT };
		const interval: StatsWorkload = { ...workload, requestIntervalMs: WINDOW_MS / LIMIT.requests };
		// Warm every worker (and the sandbox's result cache) with the limit off.
		await sandbox.call('setRateLimit', null);
		check('floor', await workers.floor.call<RowsDigest>('warm', { subject: 'floor', workload }));
		check(
			'ours',
			await workers.ours.call<RowsDigest>('warm', { subject: 'ours', workload: paced }),
		);
		check('peer', await workers.peer.call<RowsDigest>('warm', { subject: 'peer', workload }));
		// One page's time, from the keep-alive floor without a limit.
		for (let rep = 0; rep < options.repetitions; rep++) {
			const answer = await workers.floor.call<RunAnswer>('run', { subject: 'floor', workload });
			check('floor', answer.digest);
			raw.time.floor.push(answer.ms);
		}
		const rows = (reference as RowsDigest).rows;
		const pages = Math.ceil(rows / 500);
		raw.workload.rows = rows;
		raw.workload.pages = pages;
		raw.pageMs = median(raw.time.floor) / pages;
		raw.leastMs = Math.floor((pages - 1) / LIMIT.requests) * WINDOW_MS + raw.pageMs;

		await sandbox.call('setRateLimit', LIMIT);
		const fresh = async () => {
			// A whole window with no request: the API's budget (and the block) start clean.
			await pause(WINDOW_MS + 1_000);
			await sandbox.call('setRateLimit', LIMIT);
		};
		for (let rep = 0; rep < options.repetitions; rep++) {
			await fresh();
			const ours = await workers.ours.call<RunAnswer>('run', { subject: 'ours', workload: paced });
			check('ours', ours.digest);
			raw.time.ours.push(ours.ms);
			raw.answered429.ours.push(await sandbox.call<number>('answered429'));

			await fresh();
			const peer = await workers.peer.call<RunAnswer>('run', {
				subject: 'peer',
				workload: interval,
			});
			check('peer', peer.digest);
			raw.time.peerInterval.push(peer.ms);
			raw.answered429.peerInterval.push(await sandbox.call<number>('answered429'));
		}
		// The HTTP Request node as it comes: no interval. Whatever happens is recorded.
		await fresh();
		const started = Date.now();
		try {
			const answer = await workers.peer.call<RunAnswer>('run', { subject: 'peer', workload });
			raw.defaultPeer.push({
				ms: answer.ms,
				rows: answer.digest.rows,
				answered429: await sandbox.call<number>('answered429'),
			});
		} catch (error) {
			raw.defaultPeer.push({
				ms: Date.now() - started,
				rows: 0,
				error: (error instanceof Error ? error.message : String(error))
					.split('\n')[0]
					.slice(0, 160),
				answered429: await sandbox.call<number>('answered429'),
			});
		}
	} finally {
		await Promise.all(Object.values(workers).map(async (worker) => await worker.stop()));
		await sandbox.call('stop').catch(() => undefined);
		await sandbox.stop();
	}
	const ours = median(raw.time.ours);
	const peer = median(raw.time.peerInterval);
	const fell = raw.defaultPeer[0];
	log(
		`  ${raw.workload.rows.toLocaleString('en-US')} rows, ${raw.workload.pages} pages: least ${formatMs(raw.leastMs)}, Stats node ${formatMs(ours)} (429s ${raw.answered429.ours.join('/')}), HTTP Request node at ${WINDOW_MS / LIMIT.requests} ms ${formatMs(peer)} (429s ${raw.answered429.peerInterval.join('/')}), HTTP Request node by default: ${fell.error ? `failed after ${formatMs(fell.ms)} (${fell.error})` : `${formatMs(fell.ms)}`}, 429s ${fell.answered429}`,
	);
	const most429 = Math.max(...raw.answered429.ours);
	const lines: Line[] = [
		{
			id: 'L1',
			what: `${raw.workload.pages} pages under ${LIMIT.requests} requests per ${LIMIT.windowSeconds} s: Stats node vs the least time the limit allows`,
			goal: '≤ 1.1× least, 0 answers of 429',
			measured: `${formatMs(ours)} vs ${formatMs(raw.leastMs)}; 429 answers: ${raw.answered429.ours.join(', ')}`,
			// A 429 fails the goal whatever the time.
			ratio: most429 > 0 ? Infinity : ours / raw.leastMs,
			limit: 1.1,
		},
		{
			id: 'L',
			what: `Same pull: HTTP Request node, pagination interval ${WINDOW_MS / LIMIT.requests} ms (window / limit)`,
			goal: '',
			measured: `${formatMs(peer)}; 429 answers: ${raw.answered429.peerInterval.join(', ')}`,
			ratio: ours / peer,
			note: 'ratio: Stats node / this',
		},
		{
			id: 'L',
			what: 'Same pull: HTTP Request node with default settings',
			goal: '',
			measured: fell.error
				? `failed after ${formatMs(fell.ms)} with ${fell.rows} rows: ${fell.error}; 429 answers: ${fell.answered429}`
				: `${formatMs(fell.ms)}, ${fell.rows} rows; 429 answers: ${fell.answered429}`,
		},
	];
	return { lines, raw };
}
