/**
 * One subject in a process of its own, kept warm between repetitions. `run` pulls the statistics
 * once and answers the time, the rows' digest and the CPU time it used; the rows are dropped after.
 * `memory` (in a fresh process, started with --expose-gc) pulls once and measures what stays.
 */
import { collectGarbage, timed } from '../lib/measure';
import { serve } from '../lib/rpc';
import { traced, type Breakdown } from '../wan/breakdown';
import { RUN, type SubjectName } from './subjects';
import { digest, jsonBytes, type RowsDigest, type StatsWorkload } from './workload';

interface RunArgs {
	subject: SubjectName;
	workload: StatsWorkload;
}

export interface RunAnswer {
	ms: number;
	cpuMs: number;
	digest: RowsDigest;
}

export interface MemoryAnswer {
	digest: RowsDigest;
	/** Heap in use after GC with the result referenced, minus the same before the run. */
	heapGrowth: number;
	/** Peak resident set of the process, and its resident set just before the run. */
	maxRss: number;
	rssBefore: number;
	/** UTF-8 size of the rows as JSON, as held (ours turns decimal strings into numbers). */
	jsonBytes: number;
}

/** What the last `memory` pulled, referenced until `release`. */
const kept: unknown[] = [];

serve({
	run: async (raw) => {
		const { subject, workload } = raw as RunArgs;
		collectGarbage();
		const cpu = process.cpuUsage();
		const { ms, value } = await timed(() => RUN[subject](workload));
		const used = process.cpuUsage(cpu);
		const answer: RunAnswer = {
			ms,
			cpuMs: (used.user + used.system) / 1000,
			digest: digest(value.rows),
		};
		return answer;
	},
	memory: async (raw) => {
		const { subject, workload } = raw as RunArgs;
		// A one-day pull first loads the engine, the node types and the connection code, which a
		// running n8n has loaded already: only what the pull itself adds is measured.
		await RUN[subject]({ ...workload, days: 1 });
		collectGarbage();
		const heapBefore = process.memoryUsage().heapUsed;
		const rssBefore = process.memoryUsage().rss;
		const pulled = await RUN[subject](workload);
		kept.push(pulled);
		collectGarbage();
		const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
		const maxRss = process.resourceUsage().maxRSS * 1024;
		const bytes = jsonBytes(pulled.rows);
		const answer: MemoryAnswer = {
			digest: digest(pulled.rows),
			heapGrowth,
			maxRss,
			rssBefore,
			jsonBytes: bytes,
		};
		return answer;
	},
	/** One more pull with every request traced (bench/wan/breakdown.ts); not a timed pull. */
	traced: async (raw): Promise<Breakdown> => {
		const { subject, workload } = raw as RunArgs;
		collectGarbage();
		return (await traced(() => RUN[subject](workload))).breakdown;
	},
	/** Loads the subject's modules and opens its connections before anything is measured. */
	warm: async (raw) => {
		const { subject, workload } = raw as RunArgs;
		return digest((await RUN[subject](workload)).rows);
	},
	release: () => {
		kept.length = 0;
		return true;
	},
});
