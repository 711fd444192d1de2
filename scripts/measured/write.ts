/** Reads every report in docs/evidence and writes docs/measured.md and the pictures beside them. */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { picturesOf, renderMeasured } from './render';
import type { Evidence } from './types';

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
		for (const [file, svg] of Object.entries(picturesOf(report)))
			writeFileSync(join(dir, file), svg);
	const page = join(dirname(dir), 'measured.md');
	writeFileSync(page, renderMeasured(reports, relative(dirname(dir), dir)));
	return page;
}
