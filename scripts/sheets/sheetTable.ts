/**
 * A tab of the Google stand-in read as the stage compares it: the header row, then one record per
 * row with each cell as stored (its kind and value), beside the items the Stats node sent.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Cell } from './cells';
import type { Tab } from './googleStandIn';

interface SheetRow {
	/** 1-based row number in the sheet. */
	row: number;
	cells: Record<string, Cell | undefined>;
}

export interface SheetTable {
	header: string[];
	rows: SheetRow[];
}

export function readTab(tab: Tab): SheetTable {
	const header = (tab.rows[0] ?? []).map((cell) => (cell ? String(cell.value) : ''));
	const rows: SheetRow[] = [];
	for (let r = 1; r < tab.rows.length; r++) {
		const line = tab.rows[r];
		if (!line?.some((cell) => cell !== undefined)) continue;
		const cells: Record<string, Cell | undefined> = {};
		header.forEach((name, c) => (cells[name] = line[c]));
		rows.push({ row: r + 1, cells });
	}
	return { header, rows };
}

/** A copy of every cell, for "nothing changed" between two runs. */
export function snapshot(tab: Tab): string {
	return JSON.stringify(tab.rows);
}

/** The cell as the value it holds: text, number or boolean (a date as its serial number). */
export function valueOf(cell: Cell | undefined): unknown {
	return cell ? cell.value : undefined;
}

export function describeCell(cell: Cell | undefined): string {
	if (!cell) return 'an empty cell';
	return `${cell.kind} ${JSON.stringify(cell.value)}`;
}

/** The row of each key, and the keys held more than once. */
export function byKey(table: SheetTable): { rows: Map<string, SheetRow>; duplicates: string[] } {
	const rows = new Map<string, SheetRow>();
	const duplicates: string[] = [];
	for (const row of table.rows) {
		const key = String(valueOf(row.cells.row_key));
		if (rows.has(key)) duplicates.push(key);
		else rows.set(key, row);
	}
	return { rows, duplicates };
}

/**
 * Cells that do not hold exactly what the item sent: a text cell with the same text for a string,
 * a number cell with the same number for a number. Each as "key column: sent → stored".
 */
export function inexactCells(table: SheetTable, items: Array<Record<string, unknown>>): string[] {
	const { rows } = byKey(table);
	const found: string[] = [];
	for (const item of items) {
		const key = String(item.row_key);
		const row = rows.get(key);
		if (!row) {
			found.push(`${key}: no row`);
			continue;
		}
		for (const [column, sent] of Object.entries(item)) {
			const cell = row.cells[column];
			const kind =
				typeof sent === 'number' ? 'number' : typeof sent === 'boolean' ? 'boolean' : 'text';
			const exact =
				(sent === null || sent === '') && cell === undefined
					? true
					: cell?.kind === kind && isDeepStrictEqual(cell.value, sent);
			if (!exact) found.push(`${key} ${column}: ${JSON.stringify(sent)} → ${describeCell(cell)}`);
		}
	}
	return found;
}
