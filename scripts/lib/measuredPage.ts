/**
 * docs/measured.md and its pictures, rendered from the reports in docs/evidence: every goal, its
 * figure, pass or miss, and the machine, date and n8n version of the run that measured it.
 */
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { BenchRatio, Evidence, MonthDays } from './evidenceTypes';
import { dayChart, ratioChart, type Series } from './svgCharts';

/** The reports in the order the page shows them; any other report follows by name. */
const ORDER = ['month', 'bench', 'twice', 'mcp', 'soak'];
const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b', '#e377c2', '#17becf'];

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
const anchorOf = (title: string) =>
	title
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s-]/gu, '')
		.trim()
		.replace(/\s/g, '-');

function machineText(e: Evidence): string {
	const m = e.machine;
	return `${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB, ${m.os}, Node ${m.node.replace(/^v/, '')}${m.load === undefined ? '' : `, load average ${m.load} at the end`}`;
}

/** The month's three pictures: memory, requests and 429s, executions failed with the faults. */
function monthPictures(days: MonthDays): Record<string, string> {
	const memory: Series[] = Object.entries(days.memory).flatMap(([name, readings], i) => {
		const color = COLORS[i % COLORS.length];
		const heaps = readings.filter((r) => r.heapMb !== undefined);
		return [
			{ name: `${name} RSS`, color, points: readings.map((r) => ({ x: r.day, y: r.rssMb })) },
			...(heaps.length
				? [
						{
							name: `${name} live heap`,
							color,
							dashed: true,
							points: heaps.map((r) => ({ x: r.day, y: r.heapMb ?? 0 })),
						},
					]
				: []),
		];
	});
	const marks = days.faults.map((f) => ({ x: f.day, label: f.kind }));
	return {
		'month-memory.svg': dayChart({
			title:
				'Memory of each n8n process at the end of each day (live heap: after a full collection)',
			yLabel: 'MB',
			series: memory,
		}),
		'month-requests.svg': dayChart({
			title: 'API requests and answers of 429 per day',
			yLabel: 'requests',
			series: [
				{
					name: 'requests',
					color: '#1f77b4',
					bars: true,
					points: days.traffic.map((t) => ({ x: t.day, y: t.requests })),
				},
				{
					name: '429 answers',
					color: '#d62728',
					bars: true,
					points: days.traffic.map((t) => ({ x: t.day, y: t.answers429 })),
				},
			],
		}),
		'month-executions.svg': dayChart({
			title: 'Executions failed per day (dashed: a fault injected that day)',
			yLabel: 'executions',
			series: [
				{
					name: 'executions failed',
					color: '#d62728',
					bars: true,
					points: days.executions.map((d) => ({ x: d.day, y: d.failed })),
				},
			],
			marks,
		}),
	};
}

function benchPicture(ratios: BenchRatio[]): Record<string, string> {
	return {
		'bench-ratios.svg': ratioChart(
			'Side by side: each subject against its floor or peer (black tick: the goal)',
			ratios.map((r) => ({ label: `${r.id} ${r.what}`, ratio: r.ratio, limit: r.limit })),
		),
	};
}

function picturesOf(e: Evidence): Record<string, string> {
	return {
		...(e.days ? monthPictures(e.days) : {}),
		...(e.ratios?.length ? benchPicture(e.ratios) : {}),
	};
}

function section(e: Evidence, pictureDir: string): string[] {
	const met = e.goals.filter((g) => g.result === 'pass').length;
	const lines = [
		`## ${e.title}`,
		'',
		`\`${e.command}\`: ${met} of ${e.goals.length} goals met. Run ${e.date.slice(0, 16).replace('T', ' ')} UTC, ${e.seconds} s, on ${machineText(e)}; n8n ${e.n8n}.`,
		'',
	];
	for (const file of Object.keys(picturesOf(e)))
		lines.push(`![${file.replace(/\.svg$/, '')}](${pictureDir}/${file})`, '');
	if (e.goals.length)
		lines.push(
			'| goal | figure | result |',
			'|---|---|---|',
			...e.goals.map((g) => `| ${cell(g.goal)} | ${cell(g.figure)} | ${g.result} |`),
			'',
		);
	if (e.figures.length)
		lines.push(
			'Figures for context:',
			'',
			...e.figures.map((f) => `- ${cell(f.what)}: ${cell(f.figure)}`),
			'',
		);
	return lines;
}

function sortReports(reports: Evidence[]): Evidence[] {
	const rank = (name: string) => (ORDER.includes(name) ? ORDER.indexOf(name) : ORDER.length);
	return [...reports].sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
}

/** The page, with its pictures linked from `pictureDir` (relative to the page). */
export function renderMeasured(reports: Evidence[], pictureDir = 'evidence'): string {
	const sorted = sortReports(reports);
	const lines = [
		'# Measured',
		'',
		'<!-- Rendered by `npm run measured` from the reports in docs/evidence; do not edit by hand. -->',
		'',
		'What the measuring runs found on the machine that ran them, each goal with its figure and whether it was met. Each run writes its own report into [evidence](evidence); `npm run measured` renders this page from the latest ones.',
		'',
		'| report | command | goals met | date (UTC) | n8n |',
		'|---|---|---|---|---|',
		...sorted.map(
			(e) =>
				`| [${e.title}](#${anchorOf(e.title)}) | \`${e.command}\` | ${e.goals.filter((g) => g.result === 'pass').length} of ${e.goals.length} | ${e.date.slice(0, 10)} | ${cell(e.n8n)} |`,
		),
		'',
	];
	if (!sorted.length) lines.push('No run has written a report yet.', '');
	for (const e of sorted) lines.push(...section(e, pictureDir));
	return `${lines.join('\n').trimEnd()}\n`;
}

/**
 * Writes a file whole or not at all (a new file renamed over the old): stages that run side by side
 * in CI each write their report and render the page, and none may read another's half-written file.
 */
export function writeWhole(file: string, text: string): void {
	const next = join(dirname(file), `.${process.pid}.next`);
	writeFileSync(next, text);
	renameSync(next, file);
}

/** Every report in `dir`, as the runs wrote them. */
export function readReports(dir: string): Evidence[] {
	return readdirSync(dir)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Evidence);
}

/** Writes the page one folder above `dir` (docs/measured.md for docs/evidence); returns its path. */
export function writeMeasured(dir: string): string {
	const reports = readReports(dir);
	for (const report of reports)
		for (const [file, svg] of Object.entries(picturesOf(report))) writeWhole(join(dir, file), svg);
	const page = join(dirname(dir), 'measured.md');
	writeWhole(page, renderMeasured(reports, relative(dirname(dir), dir)));
	return page;
}
