import { harnessN8nVersion, machine, type Evidence } from '../../scripts/lib/evidence';

/** One line of the bench's table: a goal with its measured ratio, or a figure given for context. */
export interface Line {
	id: string;
	what: string;
	/** The goal as a reader would say it, e.g. "≤ 1.15× floor"; empty for a context line. */
	goal: string;
	measured: string;
	/** The ratio the goal is about, when there is one. */
	ratio?: number;
	/** Upper bound for `ratio`; absent for a context line. */
	limit?: number;
	note?: string;
}

export function verdict(line: Line): 'PASS' | 'MISS' | '' {
	if (line.limit === undefined || line.ratio === undefined) return '';
	return line.ratio <= line.limit ? 'PASS' : 'MISS';
}

function ratioText(ratio: number | undefined): string {
	if (ratio === undefined || !Number.isFinite(ratio)) return '';
	return `${ratio.toFixed(2)}×`;
}

function pad(text: string, width: number): string {
	return text + ' '.repeat(Math.max(0, width - [...text].length));
}

/** The table as plain text, and as Markdown for the README. */
export function renderTable(lines: Line[]): { text: string; markdown: string } {
	const header = ['#', 'measurement', 'goal', 'measured', 'ratio', 'result'];
	const rows = lines.map((line) => [
		line.id,
		line.what,
		line.goal,
		line.measured,
		ratioText(line.ratio),
		verdict(line),
	]);
	const widths = header.map((h, c) =>
		Math.max([...h].length, ...rows.map((r) => [...r[c]].length)),
	);
	const text = [header, widths.map((w) => '-'.repeat(w)), ...rows]
		.map((r) =>
			r
				.map((cell, c) => pad(cell, widths[c]))
				.join('  ')
				.trimEnd(),
		)
		.join('\n');
	const md = [
		`| ${header.join(' | ')} |`,
		`|${header.map(() => '---').join('|')}|`,
		...rows.map((r) => `| ${r.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`),
	].join('\n');
	return { text, markdown: md };
}

/** A goal with a bound in units ("≤ 8 KB"), whose ratio is a share of that bound, not a side-by-side ratio. */
const ABSOLUTE_GOAL = /^≤ [\d.,]+ ?(B|KB|MB|ms|s)$/;

const withRatio = (line: Line) =>
	line.ratio === undefined || !Number.isFinite(line.ratio) || ABSOLUTE_GOAL.test(line.goal)
		? ''
		: ` (${line.ratio.toFixed(2)}×)`;

/** The full run's report for docs/measured.md: each goal with its figure, the rest as context. */
export function benchEvidence(lines: Line[], started: number): Evidence {
	const goals = lines.filter((line) => verdict(line) !== '');
	return {
		name: 'bench',
		title: 'Benchmark',
		command: 'npm run bench',
		date: new Date().toISOString(),
		machine: machine(),
		n8n: harnessN8nVersion(),
		seconds: Math.round((Date.now() - started) / 1000),
		goals: goals.map((line) => ({
			goal: `${line.id} ${line.what}: ${line.goal}`,
			figure: `${line.measured}${withRatio(line)}`,
			result: verdict(line) === 'PASS' ? 'pass' : 'miss',
		})),
		figures: lines
			.filter((line) => verdict(line) === '')
			.map((line) => ({
				what: `${line.id} ${line.what}`,
				figure: `${line.measured}${withRatio(line)}`,
			})),
		ratios: lines
			.filter(
				(line) =>
					line.ratio !== undefined && Number.isFinite(line.ratio) && !ABSOLUTE_GOAL.test(line.goal),
			)
			.map((line) => ({ id: line.id, what: line.what, ratio: line.ratio ?? 0, limit: line.limit })),
	};
}
