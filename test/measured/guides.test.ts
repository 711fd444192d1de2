/**
 * The guides read in minutes and quote only what the runs measured: each stays within its word
 * count, no table cell is longer than a terminal can show, no guide keeps the history of runs, the
 * README opens with its two commands, and every measured figure a guide quotes is on
 * docs/measured.md (rendered from the runs' own reports).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { holds, quotedFigures, runHistory, tableCells, wordCount } from '../support/guideRules';

const ROOT = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const GUIDES = [
	'README.md',
	'docs/production.md',
	'docs/development.md',
	'docs/agents.md',
	'docs/performance.md',
];
const WORD_LIMITS: Record<string, number> = {
	'README.md': 2500,
	'docs/production.md': 4000,
	'docs/development.md': 4000,
};

describe('the guides', () => {
	test.each(Object.entries(WORD_LIMITS))('%s stays within %i words', (file, limit) => {
		expect(wordCount(read(file))).toBeLessThanOrEqual(limit);
	});

	test.each(GUIDES)('%s has no table cell over 300 characters', (file) => {
		const long = tableCells(read(file)).filter((c) => c.cell.length > 300);
		expect(long.map((c) => `line ${c.line}: ${c.cell.length} characters`)).toEqual([]);
	});

	test.each(GUIDES)('%s keeps no commit hashes and no dated runs', (file) => {
		expect(runHistory(read(file))).toEqual([]);
	});

	test.each(GUIDES)('%s quotes no measured figure that docs/measured.md does not hold', (file) => {
		const page = read('docs/measured.md');
		const missing = quotedFigures(read(file)).filter((q) => !holds(page, q.figure));
		expect(missing.map((q) => `${q.figure} in "${q.sentence}"`)).toEqual([]);
	});

	test.each([...GUIDES, 'docs/measured.md'])(
		'the relative links of %s name files that exist',
		(file) => {
			const text = read(file).replace(/```[\s\S]*?```/g, '');
			const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
				.map((m) => m[1].split('#')[0])
				.filter((target) => target && !/^[a-z][a-z\d+.-]*:/i.test(target));
			const absent = targets.filter((target) => !existsSync(join(ROOT, dirname(file), target)));
			expect(absent).toEqual([]);
		},
	);

	test('the README opens with the two commands: try it, then test it', () => {
		const readme = read('README.md');
		const first = /```[a-z]*\n([\s\S]*?)```/.exec(readme);
		expect(first).not.toBeNull();
		expect(readme.slice(0, first?.index).match(/^## /m)).toBeNull();
		const commands = (first?.[1] ?? '')
			.split('\n')
			.map((line) => line.replace(/#.*$/, '').trim())
			.filter(Boolean);
		expect(commands).toEqual(['npm ci && npm run demo', 'npm test']);
	});
});

describe('what counts as a measured figure', () => {
	test('a result with a unit in a sentence that reports a measurement, and any ratio', () => {
		const text =
			'The full run took 2,321 s of real time. RSS grew 1.129× while the live heap grew 1.036×. The pull is 0.89× the peer.';
		expect(quotedFigures(text).map((q) => q.figure)).toEqual([
			'2,321 s',
			'1.129×',
			'1.036×',
			'0.89×',
		]);
	});

	test('rules and bounds are not results', () => {
		const text = [
			'The API allows 10 requests per 60 s for each user and path.',
			'Each attempt is bounded at 30 s and the whole renewal at 5 minutes.',
			"The live heap after a full collection grows at most 1.10× over a process's life.",
			'A tool call waits at most 20 s.',
			'Files up to 10 MB.',
		].join(' ');
		expect(quotedFigures(text)).toEqual([]);
	});

	test('the page holds a figure when it has the same number with the same unit', () => {
		const page = '| 1a Stats node vs floor | 1.36 s vs 1.04 s (1.31×) | miss |';
		expect(holds(page, '1.04 s')).toBe(true);
		expect(holds(page, '1.31x')).toBe(true);
		expect(holds(page, '1.3×')).toBe(false);
		expect(holds(page, '11.04 s')).toBe(false);
		expect(holds(page, '1.36 ms')).toBe(false);
	});

	test('commit hashes and dated runs are found; plain words and numbers are not', () => {
		expect(runHistory('Again on `c676825`, and the last full run on 92d8038.')).toEqual([
			'commit-like hash c676825',
			'commit-like hash 92d8038',
			'a dated run: "Again on"',
			'a dated run: "the last full run"',
		]);
		expect(runHistory('A row_key such as 2026-11-17|d|EUR|c2101, and 1,000,000 numbers.')).toEqual(
			[],
		);
	});
});
