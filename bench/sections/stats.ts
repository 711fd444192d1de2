/**
 * Measurements 1 and 2: a Return All of ~100,000 statistics rows (200 cursor pages of 500) from the
 * sandbox, by the bare floor, n8n's HTTP helper, our Stats node and n8n's HTTP Request node.
 */
import { formatBytes, formatMs, median } from '../lib/measure';
import type { Line } from '../lib/report';
import { Child } from '../lib/rpc';
import { SUBJECT_LABEL, SUBJECTS, type SubjectName } from '../stats/subjects';
import type { MemoryAnswer, RunAnswer } from '../stats/worker';
import { SANDBOX_NOW, type RowsDigest, type StatsWorkload } from '../stats/workload';

interface StatsOptions {
	days: number;
	repetitions: number;
	memoryRepetitions: number;
}

interface Sample extends RunAnswer {
	handlerMs: number;
}

interface StatsRaw {
	workload: { days: number; rows: number; pages: number };
	time: Record<SubjectName, Sample[]>;
	memory: Partial<Record<SubjectName, MemoryAnswer[]>>;
}

/** Thrown when subjects disagree on the rows: the bench then exits non-zero. */
export class WrongData extends Error {}

export function sameRows(a: RowsDigest, b: RowsDigest): boolean {
	return (
		a.rows === b.rows &&
		a.viewsSum === b.viewsSum &&
		a.first === b.first &&
		a.last === b.last &&
		a.order === b.order
	);
}

async function startSandbox(): Promise<{ sandbox: Child; address: Omit<StatsWorkload, 'days'> }> {
	const sandbox = new Child('sandboxServer.ts');
	const address = await sandbox.call<Omit<StatsWorkload, 'days'>>('start', { now: SANDBOX_NOW });
	return { sandbox, address };
}

function checkDigest(
	subject: SubjectName,
	got: RowsDigest,
	reference: RowsDigest | undefined,
): RowsDigest {
	if (reference && !sameRows(got, reference)) {
		throw new WrongData(
			`${subject} returned different rows: ${JSON.stringify(got)} instead of ${JSON.stringify(reference)}`,
		);
	}
	if (got.rows === 0) throw new WrongData(`${subject} returned no rows`);
	return reference ?? got;
}

/** Times every subject, each warm in its own process, interleaved repetition by repetition. */
async function measureTime(
	options: StatsOptions,
	log: (text: string) => void,
): Promise<{ time: StatsRaw['time']; reference: RowsDigest }> {
	const { sandbox, address } = await startSandbox();
	const workload: StatsWorkload = { ...address, days: options.days };
	const workers = Object.fromEntries(
		SUBJECTS.map((subject) => [
			subject,
			new Child('stats/worker.ts', { execArgv: ['--expose-gc'] }),
		]),
	) as Record<SubjectName, Child>;
	const time = Object.fromEntries(SUBJECTS.map((s) => [s, [] as Sample[]])) as StatsRaw['time'];
	let reference: RowsDigest | undefined;
	try {
		for (const subject of SUBJECTS) {
			// The first pull also fills the sandbox's result cache, so no subject pays for it.
			reference = checkDigest(
				subject,
				await workers[subject].call<RowsDigest>('warm', { subject, workload }),
				reference,
			);
		}
		log(
			`  ${reference?.rows.toLocaleString('en-US')} rows per pull; ${options.repetitions} timed repetitions`,
		);
		for (let rep = 0; rep < options.repetitions; rep++) {
			// Each repetition starts with another subject, so none always runs first or last.
			const order = SUBJECTS.map((_, i) => SUBJECTS[(i + rep) % SUBJECTS.length]);
			for (const subject of order) {
				const before = await sandbox.call<number>('handlerTimeMs');
				const answer = await workers[subject].call<RunAnswer>('run', { subject, workload });
				const handlerMs = (await sandbox.call<number>('handlerTimeMs')) - before;
				await sandbox.call('clearLog');
				reference = checkDigest(subject, answer.digest, reference);
				time[subject].push({ ...answer, handlerMs });
			}
			log(
				`  repetition ${rep + 1}: ${order.map((s) => `${s} ${formatMs(time[s][rep].ms)}`).join(', ')}`,
			);
		}
	} finally {
		await Promise.all(Object.values(workers).map((worker) => worker.stop()));
		await sandbox.call('stop').catch(() => undefined);
		await sandbox.stop();
	}
	return { time, reference: reference as RowsDigest };
}

/** Each subject pulls once in a fresh process per repetition; what stays after GC is measured. */
async function measureMemory(
	options: StatsOptions,
	reference: RowsDigest,
	log: (text: string) => void,
): Promise<StatsRaw['memory']> {
	const { sandbox, address } = await startSandbox();
	const workload: StatsWorkload = { ...address, days: options.days };
	const subjects: SubjectName[] = ['floor', 'ours', 'peer'];
	const memory: StatsRaw['memory'] = {};
	try {
		for (let rep = 0; rep < options.memoryRepetitions; rep++) {
			for (const subject of subjects) {
				const child = new Child('stats/worker.ts', { execArgv: ['--expose-gc'] });
				try {
					const answer = await child.call<MemoryAnswer>('memory', { subject, workload });
					checkDigest(subject, answer.digest, reference);
					(memory[subject] ??= []).push(answer);
				} finally {
					await child.stop();
				}
				await sandbox.call('clearLog');
			}
			log(
				`  memory repetition ${rep + 1}: ${subjects
					.map((s) => `${s} heap +${formatBytes(memory[s]?.[rep].heapGrowth ?? 0)}`)
					.join(', ')}`,
			);
		}
	} finally {
		await sandbox.call('stop').catch(() => undefined);
		await sandbox.stop();
	}
	return memory;
}

/** Median of the per-repetition ratios: the two pulls of a pair ran seconds apart, under the same load. */
function pairedRatio(a: number[], b: number[]): number {
	return median(a.map((value, i) => value / b[i]));
}

export async function statsBench(
	options: StatsOptions,
	log: (text: string) => void,
): Promise<{ lines: Line[]; raw: StatsRaw }> {
	log('1. Stats Return All: time');
	const { time, reference } = await measureTime(options, log);
	log('2. Stats Return All: memory');
	const memory = await measureMemory(options, reference, log);

	const ms = (s: SubjectName) => time[s].map((x) => x.ms);
	const cpu = (s: SubjectName) => time[s].map((x) => x.cpuMs);
	const rows = reference.rows;
	const pages = Math.ceil(rows / 500);
	const lines: Line[] = [];
	for (const subject of SUBJECTS) {
		lines.push({
			id: '1',
			what: `${SUBJECT_LABEL[subject]}: ${rows.toLocaleString('en-US')} rows, ${pages} pages`,
			goal: '',
			measured: `${formatMs(median(ms(subject)))} (CPU ${formatMs(median(cpu(subject)))})`,
		});
	}
	lines.push(
		{
			id: '1a',
			what: 'Stats node vs bare undici floor (wall time)',
			goal: '≤ 1.15× floor',
			measured: `${formatMs(median(ms('ours')))} vs ${formatMs(median(ms('floor')))}`,
			ratio: pairedRatio(ms('ours'), ms('floor')),
			limit: 1.15,
		},
		{
			id: '1b',
			what: 'Stats node vs HTTP Request node + Split Out (wall time)',
			goal: '≤ 0.8× peer',
			measured: `${formatMs(median(ms('ours')))} vs ${formatMs(median(ms('peer')))}`,
			ratio: pairedRatio(ms('ours'), ms('peer')),
			limit: 0.8,
		},
		{
			id: '1c',
			what: "n8n's HTTP helper loop vs floor (the share of n8n's HTTP layer)",
			goal: '',
			measured: `${formatMs(median(ms('n8nHttp')))} vs ${formatMs(median(ms('floor')))}`,
			ratio: pairedRatio(ms('n8nHttp'), ms('floor')),
		},
		{
			id: '1d',
			what: 'Stats node vs floor, CPU time',
			goal: '',
			measured: `${formatMs(median(cpu('ours')))} vs ${formatMs(median(cpu('floor')))}`,
			ratio: pairedRatio(cpu('ours'), cpu('floor')),
		},
		{
			id: '1e',
			what: 'sandbox handler time per pull (is the sandbox the bottleneck?)',
			goal: '',
			measured: `${formatMs(median(time.floor.map((x) => x.handlerMs)))} of the floor's ${formatMs(median(ms('floor')))}`,
			ratio: pairedRatio(
				time.floor.map((x) => x.handlerMs),
				ms('floor'),
			),
		},
	);

	const api = memory.floor?.[0]?.jsonBytes ?? 0;
	const med = (s: SubjectName, pick: (m: MemoryAnswer) => number) =>
		median((memory[s] ?? []).map(pick));
	const peak = (m: MemoryAnswer) => m.maxRss - m.rssBefore;
	lines.push(
		{
			id: '2a',
			what: `Stats node heap growth after GC, result held, vs rows' JSON (${formatBytes(api)})`,
			goal: '≤ 2.5× JSON',
			measured: formatBytes(med('ours', (m) => m.heapGrowth)),
			ratio: med('ours', (m) => m.heapGrowth) / api,
			limit: 2.5,
		},
		{
			id: '2b',
			what: 'Stats node peak RSS growth during the pull vs rows’ JSON',
			goal: '≤ 2.5× JSON',
			measured: `${formatBytes(med('ours', peak))} (peak RSS ${formatBytes(med('ours', (m) => m.maxRss))})`,
			ratio: med('ours', peak) / api,
			limit: 2.5,
		},
	);
	for (const subject of ['floor', 'peer'] as const) {
		lines.push({
			id: '2',
			what: `${SUBJECT_LABEL[subject]}: heap growth / peak RSS growth`,
			goal: '',
			measured: `${formatBytes(med(subject, (m) => m.heapGrowth))} / ${formatBytes(med(subject, peak))}`,
			ratio: med(subject, (m) => m.heapGrowth) / api,
		});
	}
	return { lines, raw: { workload: { days: options.days, rows, pages }, time, memory } };
}
