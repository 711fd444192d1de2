/**
 * The rules a guide keeps: a reader's length, table cells a terminal can show, no history of runs,
 * and no measured figure that the evidence page (docs/measured.md) does not hold.
 */

/** Words as `wc -w` counts them. */
export const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** The cells of every Markdown table row, with their line numbers. */
export function tableCells(text: string): Array<{ line: number; cell: string }> {
	const out: Array<{ line: number; cell: string }> = [];
	text.split('\n').forEach((row, i) => {
		if (!/^\s*\|.*\|\s*$/.test(row) || /^\s*\|[\s:|-]+\|\s*$/.test(row)) return;
		const cells = row
			.trim()
			.slice(1, -1)
			.split(/(?<!\\)\|/);
		for (const cell of cells) out.push({ line: i + 1, cell: cell.trim() });
	});
	return out;
}

/** Words that say a sentence reports what a run measured, not a rule of the product. */
const MEASUREMENT =
	/\b(measured|measures|took|grew|growth|peak|median|resident|RSS|heap|faster|slower|slowest|fastest|on average|in (?:our|the|one|a) (?:test|run|stage|month)s?|last run|full run|benchmark)\b/i;
/** A number with the unit of a measurement. */
const FIGURE =
	/(?<![\w.])(\d[\d,]*(?:\.\d+)?)\s?(×|x(?![\w])|ms(?![\w])|µs|s(?![\w])|seconds?|minutes?|min(?![\w])|%|MB|KB|GB|B(?![\w]))/g;
/** Words before a figure that make it a bound or a setting rather than a result. */
const BOUND =
	/(at most|up to|no more than|under|below|within|bounded at|limit of|bound of|default|every|per|≤|<=|goal|allowed|set to|waits?|after|for)\s*$/i;

interface QuotedFigure {
	figure: string;
	sentence: string;
}

/** Splits text into sentences, list items and table cells. */
const sentences = (text: string) =>
	text
		.replace(/`[^`]*`/g, (code) => code.replace(/[.!?]/g, ' '))
		.split(/(?<=[.!?;])\s+|\n\s*\n|\n(?=\s*(?:[-*]|\d+\.) )|\|/)
		.map((s) => s.replace(/\s+/g, ' ').trim())
		.filter(Boolean);

/**
 * The measured figures a text quotes: a number with a unit (×, ms, s, minutes, %, MB, …) in a
 * sentence that reports a measurement, and any ratio (×), unless words before it make it a bound.
 */
export function quotedFigures(text: string): QuotedFigure[] {
	const out: QuotedFigure[] = [];
	for (const sentence of sentences(text)) {
		const reports = MEASUREMENT.test(sentence);
		for (const match of sentence.matchAll(FIGURE)) {
			const ratio = match[2] === '×' || match[2] === 'x';
			if (!reports && !ratio) continue;
			if (BOUND.test(sentence.slice(Math.max(0, (match.index ?? 0) - 24), match.index))) continue;
			out.push({ figure: match[0], sentence });
		}
	}
	return out;
}

/** Whether the evidence page holds a figure: the same number with the same unit. */
export function holds(page: string, figure: string): boolean {
	const [, number, unit] = /^(\S+?)\s?(\D+)$/.exec(figure) ?? [];
	if (!number) return false;
	const units = unit === 'x' || unit === '×' ? '[x×]' : unit.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	const escaped = number.replace(/[.,]/g, (c) => `\\${c}`);
	return new RegExp(`(?<![\\d.,])${escaped}\\s?${units}`).test(page);
}

/** Commit hashes and the history of runs, which belong in the reports, not in a guide. */
export function runHistory(text: string): string[] {
	const found: string[] = [];
	for (const m of text.matchAll(
		/(?<![\w/.-])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![\w-])/g,
	))
		found.push(`commit-like hash ${m[0]}`);
	for (const m of text.matchAll(
		/\b(the last (?:full )?run|the full run|again on|the run before it|last run:|an earlier run|in a trial run)\b/gi,
	))
		found.push(`a dated run: "${m[0]}"`);
	return found;
}
