/**
 * `npm run bench` (full: median of 5+ repetitions) and `npm run bench -- --quick` (a smoke run under
 * a minute, smaller sizes). Prints every goal with its measured ratio and PASS/MISS, writes
 * bench/results.json (results.quick.json for --quick, results.partial.json with --only), and exits
 * 0 whatever the verdicts: a bench reports, it does not gate. It exits 1 only when a subject crashes
 * or returns wrong data.
 *
 *   --only stats,trigger,audience,load,wan,limited   run some sections only
 */
import { writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { formatBytes } from './lib/measure';
import { benchEvidence, renderTable, verdict, type Line } from './lib/report';
import { writeEvidence } from '../scripts/lib/evidence';
import { audienceBench } from './sections/audience';
import { loadSizeBench } from './sections/loadSize';
import { statsBench } from './sections/stats';
import { triggerBench } from './sections/trigger';
import { wanBench } from './sections/wan';
import { limitedBench } from './sections/limited';

const SECTIONS = ['stats', 'trigger', 'audience', 'load', 'wan', 'limited'] as const;
type Section = (typeof SECTIONS)[number];

function parseArgs(argv: string[]): { quick: boolean; only: Set<Section> } {
	let quick = false;
	let only = new Set<Section>(SECTIONS);
	for (let i = 0; i < argv.length; i++) {
		if (argv[i] === '--quick') quick = true;
		else if (argv[i] === '--only') {
			const names = (argv[++i] ?? '').split(',').filter(Boolean);
			const unknown = names.filter((name) => !(SECTIONS as readonly string[]).includes(name));
			if (unknown.length || names.length === 0)
				throw new Error(`--only takes some of ${SECTIONS.join(',')}`);
			only = new Set(names as Section[]);
		} else
			throw new Error(
				`unknown argument ${argv[i]}; usage: [--quick] [--only ${SECTIONS.join(',')}]`,
			);
	}
	return { quick, only };
}

function machine() {
	const cores = cpus();
	return {
		cpu: cores[0]?.model.trim() ?? 'unknown',
		cores: cores.length,
		memory: formatBytes(totalmem()),
		freeMemoryAtStart: formatBytes(freemem()),
		loadAverageAtStart: loadavg().map((x) => Number(x.toFixed(2))),
		os: `${platform()} ${release()}`,
		node: process.version,
	};
}

async function main(): Promise<number> {
	const { quick, only } = parseArgs(process.argv.slice(2));
	const started = Date.now();
	const log = (text: string) => console.log(text);
	const host = machine();
	log(
		`Benchmark (${quick ? 'quick' : 'full'}) on ${host.cpu}, ${host.cores} cores, ${host.memory}, Node ${host.node}, load ${host.loadAverageAtStart.join(' ')}`,
	);
	const lines: Line[] = [];
	const raw: Record<string, unknown> = {};
	let sectionStart = Date.now();
	const sectionDone = () => {
		log(`  (${((Date.now() - sectionStart) / 1000).toFixed(1)} s)`);
		sectionStart = Date.now();
	};
	if (only.has('stats')) {
		const result = await statsBench(
			quick
				? { days: 12, repetitions: 3, memoryRepetitions: 1 }
				: { days: 118, repetitions: 9, memoryRepetitions: 5 },
			log,
		);
		lines.push(...result.lines);
		raw.stats = result.raw;
		sectionDone();
	}
	if (only.has('trigger')) {
		const result = await triggerBench(
			quick
				? { polls: 3_000, adChangePolls: 300, realPolls: 40 }
				: { polls: 10_000, adChangePolls: 10_000, realPolls: 300 },
			log,
		);
		lines.push(...result.lines);
		raw.trigger = result.raw;
		sectionDone();
	}
	if (only.has('audience')) {
		const result = await audienceBench(
			quick ? { count: 300_000, repetitions: 3 } : { count: 1_000_000, repetitions: 7 },
			log,
		);
		lines.push(...result.lines);
		raw.audience = result.raw;
		sectionDone();
	}
	if (only.has('load')) {
		const result = loadSizeBench(quick ? 3 : 5, log);
		lines.push(...result.lines);
		raw.load = result.raw;
		sectionDone();
	}
	if (only.has('wan')) {
		const result = await wanBench(
			quick
				? {
						days: 6,
						repetitions: 2,
						w1Goals: false,
						links: [
							{ rttMs: 0, setupRtts: 0 },
							{ rttMs: 40, setupRtts: 2 },
						],
					}
				: {
						days: 23,
						repetitions: 5,
						w1Goals: true,
						links: [
							{ rttMs: 0, setupRtts: 0 },
							{ rttMs: 40, setupRtts: 1 },
							{ rttMs: 40, setupRtts: 2 },
							{ rttMs: 80, setupRtts: 2 },
						],
					},
			log,
		);
		lines.push(...result.lines);
		raw.wan = result.raw;
		sectionDone();
	}
	if (only.has('limited')) {
		const result = await limitedBench(
			quick ? { days: 15, repetitions: 1 } : { days: 15, repetitions: 3 },
			log,
		);
		lines.push(...result.lines);
		raw.limited = result.raw;
		sectionDone();
	}
	const table = renderTable(lines);
	log(`\n${table.text}\n`);
	const goals = lines.filter((line) => verdict(line) !== '');
	const missed = goals.filter((line) => verdict(line) === 'MISS');
	log(
		`${goals.length - missed.length} of ${goals.length} goals met${missed.length ? `; missed: ${missed.map((l) => l.id).join(', ')}` : ''}. ${((Date.now() - started) / 1000).toFixed(0)} s.`,
	);
	// Only a full run of every section replaces results.json and docs/evidence/bench.json.
	const partial = only.size < SECTIONS.length;
	const file = join(
		__dirname,
		quick ? 'results.quick.json' : partial ? 'results.partial.json' : 'results.json',
	);
	writeFileSync(
		file,
		`${JSON.stringify(
			{
				when: new Date().toISOString(),
				mode: quick ? 'quick' : 'full',
				machine: { ...host, loadAverageAtEnd: loadavg().map((x) => Number(x.toFixed(2))) },
				seconds: Math.round((Date.now() - started) / 1000),
				lines: lines.map((line) => ({ ...line, result: verdict(line) || undefined })),
				markdown: table.markdown,
				raw,
			},
			null,
			'\t',
		)}\n`,
	);
	log(`Results written to ${file}`);
	if (!quick && !partial) writeEvidence(benchEvidence(lines, started));
	return 0;
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error(error instanceof Error ? (error.stack ?? error.message) : error);
		process.exit(1);
	},
);
