/**
 * The probe: texts a key or a name may well be ("2026-11-20", "007", "1,5", "1e3", "TRUE", and a
 * key of our own form), written twice through the example's Google Sheets node with each cell
 * format into a spreadsheet with a decimal comma. RAW keeps each as the text sent, and a rerun
 * matches every key; USER_ENTERED stores what Sheets reads as typed, and a key whose shown text
 * differs from the text sent is never found again, so each rerun appends it once more.
 */
import { strict as assert } from 'node:assert';
import type { Checks } from '../lib/checks';
import type { RunData } from '../lib/workflows';
import type { Spreadsheet } from './googleStandIn';
import { byKey, describeCell, readTab, type SheetTable } from './sheetTable';
import { PROBE_TEXTS, type SheetFlow } from './workflows';

function probeTab(sheet: Spreadsheet) {
	const tab = sheet.tabs.find((t) => t.title === 'Probe');
	if (!tab) throw new Error(`${sheet.title} has no Probe tab`);
	return tab;
}

/** Each probe text with what its first row's key cell holds. */
function stored(table: SheetTable): Array<{ text: string; cell: string; kept: boolean }> {
	return PROBE_TEXTS.map((text, i) => {
		const cell = table.rows[i]?.cells.row_key;
		return { text, cell: describeCell(cell), kept: cell?.kind === 'text' && cell.value === text };
	});
}

export async function probeChecks(
	checks: Checks,
	run: (flow: SheetFlow) => Promise<RunData>,
	raw: SheetFlow,
	user: SheetFlow,
	rawSheet: Spreadsheet,
	userSheet: Spreadsheet,
): Promise<void> {
	console.log(
		`\n▶ The probe: ${PROBE_TEXTS.map((t) => JSON.stringify(t)).join(', ')} as row_key, twice in each format`,
	);
	const tables: Record<'RAW' | 'USER_ENTERED', SheetTable[]> = { RAW: [], USER_ENTERED: [] };
	for (const [flow, sheet] of [
		[raw, rawSheet],
		[user, userSheet],
	] as const) {
		for (let i = 0; i < 2; i++) {
			await run(flow);
			tables[flow.format].push(readTab(probeTab(sheet)));
		}
	}
	const rawFirst = stored(tables.RAW[0]);
	const userFirst = stored(tables.USER_ENTERED[0]);
	for (const [format, list] of [
		['RAW', rawFirst],
		['USER_ENTERED', userFirst],
	] as const) {
		console.log(
			`  ${format}: ${list.map((s) => `${JSON.stringify(s.text)} → ${s.cell}`).join(', ')}`,
		);
	}
	const rows = (format: 'RAW' | 'USER_ENTERED') => tables[format].map((t) => t.rows.length);
	const userDuplicates = [...new Set(byKey(tables.USER_ENTERED[1]).duplicates)];
	console.log(
		`  rows after the first and the second run: RAW ${rows('RAW').join(' → ')}, USER_ENTERED ${rows('USER_ENTERED').join(' → ')}${userDuplicates.length ? ` (appended again: ${userDuplicates.join(', ')})` : ''}`,
	);
	await checks.check('RAW keeps every probe text as the text sent, and a rerun adds no row', () => {
		assert.deepEqual(
			rawFirst.filter((s) => !s.kept),
			[],
		);
		assert.deepEqual(rows('RAW'), [PROBE_TEXTS.length, PROBE_TEXTS.length]);
		assert.deepEqual(byKey(tables.RAW[1]).duplicates, []);
	});
	await checks.check(
		'USER_ENTERED turns the date, the leading-zero and the decimal-comma texts into a date or a number, keeps a row_key of our form, and a rerun appends converted keys again',
		() => {
			const converted = userFirst.filter((s) => !s.kept).map((s) => s.text);
			for (const text of ['2026-11-20', '007', '1,5'])
				assert.ok(converted.includes(text), `${text} kept`);
			assert.ok(!converted.includes('c2101|d'), 'a key of our form was converted');
			assert.ok(rows('USER_ENTERED')[1] > PROBE_TEXTS.length, 'the rerun added no row');
		},
	);
}
