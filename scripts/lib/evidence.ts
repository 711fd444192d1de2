/**
 * The evidence the measuring runs leave: each writes its figures as one report in docs/evidence
 * (<name>.json), and docs/measured.md is rendered from the latest reports (`npm run measured`,
 * also run by each writer). Nothing on that page is typed by hand.
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import type { Checks } from './checks';
import { writeMeasured, writeWhole } from './measuredPage';
import type { Evidence, EvidenceGoal, Machine } from './evidenceTypes';

export type { Evidence } from './evidenceTypes';

export const EVIDENCE_DIR = join(__dirname, '..', '..', 'docs', 'evidence');

export function machine(): Machine {
	const cores = cpus();
	return {
		cpu: cores[0]?.model.trim() ?? 'unknown',
		cores: cores.length,
		memoryGb: Number((totalmem() / 1024 ** 3).toFixed(1)),
		os: `${platform()} ${release()}`,
		node: process.version,
		load: Number(loadavg()[0].toFixed(1)),
	};
}

/** The version of n8n's core the in-process harness runs (the devDependency). */
export function harnessN8nVersion(): string {
	const file = join(__dirname, '..', '..', 'node_modules', 'n8n-core', 'package.json');
	return `${(JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version} (n8n-core, in-process)`;
}

/** A stage's checks as goals: each check is a goal its run met or missed. */
function goalsFromChecks(checks: Checks, prefix = ''): EvidenceGoal[] {
	return checks.results.map((r) => ({
		goal: `${prefix}${r.name}`,
		figure: r.ok ? 'held' : (r.detail ?? 'failed').split('\n')[0].slice(0, 200),
		result: r.ok ? 'pass' : 'miss',
	}));
}

/** Writes the report and renders docs/measured.md anew from every report there. */
export function writeEvidence(evidence: Evidence, dir = EVIDENCE_DIR): string {
	const file = join(dir, `${evidence.name}.json`);
	writeWhole(file, `${JSON.stringify(evidence, null, '\t')}\n`);
	console.log(`Evidence written to ${file}`);
	console.log(`${writeMeasured(dir)} rendered from the reports`);
	return file;
}

/** A stage's report: its checks as goals, and the figures it prints as `what: figure` lines. */
export function stageEvidence(options: {
	name: string;
	title: string;
	command: string;
	started: number;
	n8n: string;
	checks: Checks;
	figures: string[];
}): Evidence {
	return {
		name: options.name,
		title: options.title,
		command: options.command,
		date: new Date().toISOString(),
		machine: machine(),
		n8n: options.n8n,
		seconds: Math.round((Date.now() - options.started) / 1000),
		goals: goalsFromChecks(options.checks),
		figures: options.figures.map((line) => {
			const at = line.indexOf(': ');
			return at < 0
				? { what: line, figure: '' }
				: { what: line.slice(0, at), figure: line.slice(at + 2) };
		}),
	};
}
