/** The context an entry of expectations.ts gets, and small helpers for writing entries. */
import { strict as assert } from 'node:assert';
import type { LoggedRequest, Sandbox } from '../../test/sandbox';
import type { Example, Item, RunData } from './workflows';

export interface ExampleContext {
	example: Example;
	run: RunData;
	/** Output items of a node (its first output, last run); fails when the node did not run. */
	items(nodeName: string): Item[];
	/** A binary property of an output item, with its bytes as text. */
	file(
		nodeName: string,
		itemIndex?: number,
		key?: string,
	): { text: string; fileName?: string; mimeType?: string };
	/** A spreadsheet file (xlsx, …) of an output item, read with the library n8n itself uses. */
	sheet(
		nodeName: string,
		itemIndex?: number,
		key?: string,
	): { sheetNames: string[]; rows: unknown[][]; fileName?: string; mimeType?: string };
	/** API requests the sandbox received during this run, in order (control traffic left out). */
	requests: LoggedRequest[];
	/** The sandbox n8n talked to; `sandbox.data` is its state and ground truth after the run. */
	sandbox: Sandbox;
	/** When the run started. */
	startedAt: Date;
}

export interface ExampleExpectation {
	/** 'execute' (default): `n8n execute --id`. 'manual': POST /rest/workflows/:id/run, as the editor does. */
	run?: 'execute' | 'manual';
	/** What the check proves, printed with its result. */
	title: string;
	check(ctx: ExampleContext): void | Promise<void>;
}

/** A minimal RFC 4180 reader: quoted fields may hold commas, quotes and line breaks. */
export function parseCsv(text: string): string[][] {
	const rows: string[][] = [];
	let row: string[] = [];
	let field = '';
	let quoted = false;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (quoted) {
			if (c === '"' && text[i + 1] === '"') {
				field += '"';
				i++;
			} else if (c === '"') quoted = false;
			else field += c;
		} else if (c === '"') quoted = true;
		else if (c === ',') {
			row.push(field);
			field = '';
		} else if (c === '\n' || c === '\r') {
			if (c === '\r' && text[i + 1] === '\n') i++;
			row.push(field);
			rows.push(row);
			row = [];
			field = '';
		} else field += c;
	}
	if (field !== '' || row.length) rows.push([...row, field]);
	return rows;
}

/**
 * A CSV written by Convert to File holds exactly `rows`: the first row's keys as its header and one
 * line per row, in order.
 */
export function assertCsvOfRows(text: string, rows: Array<Record<string, unknown>>): void {
	assert.ok(rows.length > 0, 'no rows to compare the CSV with');
	// Convert to File starts the CSV with a UTF-8 byte order mark, for spreadsheet programs.
	const [header, ...lines] = parseCsv(text.replace(/^\uFEFF/, '').trimEnd());
	assert.deepEqual(header, Object.keys(rows[0]), 'CSV header');
	assert.equal(lines.length, rows.length, 'one CSV line per row');
	lines.forEach((line, index) => {
		const row = rows[index];
		assert.deepEqual(
			line,
			header.map((key) => String(row[key] ?? '')),
			`CSV line ${index + 2}`,
		);
	});
}

/** spec 2.1: the fields that arrive as decimal strings. */
export const DECIMAL_FIELDS = [
	'original_spent',
	'exchanged_spent',
	'ctr',
	'cpc',
	'cpm',
	'cpa',
	'cvr',
	'ad_cpm',
	'ad_budget',
];

/** A truth row as the node emits it with Numeric Values on: decimal strings become numbers. */
export function numeric(row: Record<string, unknown>): Record<string, unknown> {
	const out = { ...row };
	for (const key of DECIMAL_FIELDS) {
		if (typeof out[key] === 'string') out[key] = Number(out[key]);
	}
	return out;
}

export const DAY_MS = 24 * 60 * 60_000;

export interface TreeNode {
	id: string;
	code: string;
	children: TreeNode[];
}

export function flatten(nodes: TreeNode[]): TreeNode[] {
	return nodes.flatMap((node) => [node, ...flatten(node.children)]);
}

export function utcDay(date: Date, offsetDays = 0): string {
	return new Date(
		Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + offsetDays),
	)
		.toISOString()
		.slice(0, 10);
}
