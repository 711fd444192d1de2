import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderMeasured, writeMeasured } from '../../scripts/lib/measuredPage';
import type { Evidence } from '../../scripts/lib/evidenceTypes';
import { memoryGoals } from '../../scripts/month/report';

const machine = { cpu: 'Test CPU', cores: 2, memoryGb: 8, os: 'linux 6.1', node: 'v24.1.0' };

/** A month of three days, as the month's report code writes it (made up here, never committed). */
const month: Evidence = {
	name: 'month',
	title: 'A month in queue mode',
	command: 'npm run test:month',
	date: '2026-12-01T10:00:00.000Z',
	machine,
	n8n: '2.41.1, queue mode',
	seconds: 2400,
	goals: [
		{ goal: 'failedOutsideFaults is 0', figure: '0', result: 'pass' },
		{
			goal: 'live heap after a full collection grows at most 1.10x',
			figure: '1.2x',
			result: 'miss',
		},
	],
	figures: [{ what: 'executions', figure: '2976' }],
	days: {
		memory: {
			main: [
				{ day: 1, rssMb: 410, heapMb: 150 },
				{ day: 2, rssMb: 430, heapMb: 151 },
				{ day: 3, rssMb: 445, heapMb: 152 },
			],
			'worker 1': [
				{ day: 1, rssMb: 360 },
				{ day: 2, rssMb: 371 },
				{ day: 3, rssMb: 380 },
			],
		},
		traffic: [
			{ day: 1, requests: 900, answers429: 0 },
			{ day: 2, requests: 950, answers429: 3 },
			{ day: 3, requests: 910, answers429: 0 },
		],
		executions: [
			{ day: 1, runs: 96, failed: 0 },
			{ day: 2, runs: 96, failed: 4 },
			{ day: 3, runs: 96, failed: 0 },
		],
		faults: [{ day: 2, kind: 'passwordChanged' }],
	},
};

const bench: Evidence = {
	name: 'bench',
	title: 'Benchmark',
	command: 'npm run bench',
	date: '2026-12-02T08:00:00.000Z',
	machine,
	n8n: '2.41.1 (n8n-core, in-process)',
	seconds: 230,
	goals: [
		{
			goal: '1a Stats node vs floor: ≤ 1.15× floor',
			figure: '1.2 s vs 1.0 s (1.20×)',
			result: 'miss',
		},
	],
	figures: [],
	ratios: [{ id: '1a', what: 'Stats node vs floor', ratio: 1.2, limit: 1.15 }],
};

describe('docs/measured.md, rendered from the reports', () => {
	test('every goal with its figure and result, and each run with its machine, date and n8n version', () => {
		const page = renderMeasured([bench, month]);
		// The month comes first whatever the order the reports were read in.
		expect(page.indexOf('## A month in queue mode')).toBeLessThan(page.indexOf('## Benchmark'));
		expect(page).toContain(
			'| live heap after a full collection grows at most 1.10x | 1.2x | miss |',
		);
		expect(page).toContain('| failedOutsideFaults is 0 | 0 | pass |');
		expect(page).toContain(
			'| [A month in queue mode](#a-month-in-queue-mode) | `npm run test:month` | 1 of 2 | 2026-12-01 | 2.41.1, queue mode |',
		);
		expect(page).toContain(
			'Test CPU, 2 cores, 8 GB, linux 6.1, Node 24.1.0; n8n 2.41.1, queue mode.',
		);
		expect(page).toContain('- executions: 2976');
		expect(page).toContain('![month-memory](evidence/month-memory.svg)');
		expect(page).toContain('![bench-ratios](evidence/bench-ratios.svg)');
	});

	test("a shared machine's load is named beside the machine", () => {
		const loaded = { ...bench, machine: { ...machine, load: 3.3 } };
		expect(renderMeasured([loaded])).toContain('Node 24.1.0, load average 3.3 at the end; n8n');
	});

	test('the month draws its days: memory and live heap, requests and 429s, failures with the faults', () => {
		const dir = mkdtempSync(join(tmpdir(), 'measured-'));
		const evidence = join(dir, 'evidence');
		mkdirSync(evidence);
		writeFileSync(join(evidence, 'month.json'), JSON.stringify(month));
		writeMeasured(evidence);
		expect(readdirSync(evidence).sort()).toEqual([
			'month-executions.svg',
			'month-memory.svg',
			'month-requests.svg',
			'month.json',
		]);
		const memory = readFileSync(join(evidence, 'month-memory.svg'), 'utf8');
		expect(memory).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
		for (const name of ['main RSS', 'main live heap', 'worker 1 RSS'])
			expect(memory).toContain(`>${name}</text>`);
		// worker 1 has no heap readings: no line for it.
		expect(memory).not.toContain('worker 1 live heap');
		expect(memory).toContain('<title>main live heap, day 3: 152</title>');
		const requests = readFileSync(join(evidence, 'month-requests.svg'), 'utf8');
		expect(requests).toContain('<title>429 answers, day 2: 3</title>');
		const failures = readFileSync(join(evidence, 'month-executions.svg'), 'utf8');
		expect(failures).toContain('<title>executions failed, day 2: 4</title>');
		expect(failures).toContain('>passwordChanged</text>');
		expect(readFileSync(join(dir, 'measured.md'), 'utf8')).toContain(
			'![month-requests](evidence/month-requests.svg)',
		);
	});

	test('the benchmark draws its ratios, a missed goal in red beside its bound', () => {
		const dir = mkdtempSync(join(tmpdir(), 'measured-'));
		const evidence = join(dir, 'evidence');
		mkdirSync(evidence);
		writeFileSync(join(evidence, 'bench.json'), JSON.stringify(bench));
		writeMeasured(evidence);
		const svg = readFileSync(join(evidence, 'bench-ratios.svg'), 'utf8');
		expect(svg).toContain('fill="#d62728"><title>1a Stats node vs floor: 1.20×</title>');
		expect(svg).toContain('>1.20×</text>');
	});
});

describe("the month's memory goals", () => {
	test('the live heap decides a leak; RSS has a looser bound of its own', () => {
		const [heap, rss] = memoryGoals({ heapGrowth: 1.04, growth: 1.37 });
		expect(heap).toMatchObject({
			goal: 'live heap after a full collection grows at most 1.10x',
			met: true,
		});
		expect(rss).toMatchObject({ goal: 'RSS grows at most 1.5x', met: true });
		expect(memoryGoals({ heapGrowth: 1.11, growth: 1.2 })[0].met).toBe(false);
		expect(memoryGoals({ heapGrowth: 1.05, growth: 1.51 })[1].met).toBe(false);
	});

	test('no live heap read is a missed goal, not a pass', () => {
		const [heap] = memoryGoals({ heapGrowth: 0, growth: 1.1 });
		expect(heap.met).toBe(false);
		expect(heap.why).toMatch(/no process's live heap was read/);
	});
});
