/**
 * examples/ads-from-sheet-rerun-safe.json in real n8n with n8n's own Google Sheets node: Get rows →
 * the rows without an ad_id → Ad Cabinet Ads Create (Skip Identical) → Update Row writing ad_id back
 * on `key`. Its pinned sample data is taken off, as a user does, and both Sheets nodes point at a
 * tab of the Google stand-in. Checks:
 *  1. the first run creates one ad per row and writes each ad's id into its row;
 *  2. a second run creates nothing and changes no cell;
 *  3. on six new rows, n8n is killed (SIGKILL) once about half the creates have reached the API,
 *     before any ad_id is written back; after a restart the rerun ends with exactly one ad per row
 *     and every row holds its ad's id: the ads made before the kill are found, not made again.
 */
import { strict as assert } from 'node:assert';
import { apiRequests } from '../../harness/sandbox';
import type { Sandbox } from '../../sandbox';
import type { Checks } from '../lib/checks';
import type { N8nRest } from '../lib/rest';
import type { N8nServer } from '../lib/session';
import { exampleId, readWorkflow, type Example } from '../lib/workflows';
import type { Spreadsheet, Tab } from './googleStandIn';
import { readTab, valueOf } from './sheetTable';
import type { SheetFlow } from './workflows';

const FILE = 'ads-from-sheet-rerun-safe.json';
export const CREATIVES_TAB = 'Creatives';
const HEADER = ['key', 'title', 'text', 'url', 'ad_id'];
/** The campaign the example's Create ad node names. */
const CAMPAIGN = 2201;
/** Rows per batch: the first two runs use one batch, the killed run and its rerun another. */
const ROWS = 6;
/** The sandbox answers this late during the killed run, so that the creates come one by one. */
const SLOW_ANSWER_MS = 700;

interface Creative {
	key: string;
	title: string;
	text: string;
	url: string;
}

function creatives(batch: string): Creative[] {
	return Array.from({ length: ROWS }, (_, i) => ({
		key: `${batch}-${i + 1}`,
		title: `Sheet ad ${batch} ${i + 1}`,
		text: `Creative ${i + 1} of batch ${batch}, launched from a sheet.`,
		url: i % 2 ? 'https://t.me/berlin_startups' : 'https://t.me/de_gaming_hub',
	}));
}

/** Writes the header and the rows into the tab, as a user types them (text cells). */
function fill(tab: Tab, rows: Creative[]): void {
	const text = (value: string) => ({ kind: 'text' as const, value });
	tab.rows = [
		HEADER.map(text),
		...rows.map((row) => [text(row.key), text(row.title), text(row.text), text(row.url)]),
	];
}

/** The example as a user sets it up: its pinned sample data taken off, both Sheets nodes aimed. */
export function rerunSafeFlow(sheet: Spreadsheet): SheetFlow {
	const workflow = readWorkflow(FILE);
	delete workflow.pinData;
	const sheetsNodes = workflow.nodes.filter((n) => n.type === 'n8n-nodes-base.googleSheets');
	assert.equal(sheetsNodes.length, 2, `${FILE} reads and writes through two Google Sheets nodes`);
	for (const node of sheetsNodes)
		node.parameters = {
			...node.parameters,
			documentId: { __rl: true, value: sheet.id, mode: 'id' },
			sheetName: { __rl: true, value: CREATIVES_TAB, mode: 'name' },
		};
	const trigger = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.scheduleTrigger');
	assert.ok(trigger, `${FILE} starts with a Schedule Trigger`);
	workflow.settings = { ...(workflow.settings as object), saveDataSuccessExecution: 'all' };
	const example: Example = { file: `sheets-${FILE}`, id: exampleId(`sheets/${FILE}`), workflow };
	return { example, format: 'RAW', trigger, sheetsNode: sheetsNodes[1] };
}

interface Context {
	checks: Checks;
	sandbox: Sandbox;
	sheet: Spreadsheet;
	flow: SheetFlow;
	server: N8nServer;
	/** A manual run to its end, asserted successful. */
	run: (flow: SheetFlow) => Promise<unknown>;
	/** `n8n start` again after the kill; the stage stops whichever server is current at its end. */
	restart: () => Promise<N8nServer>;
}

/** The ads of the campaign made from these rows (not deleted), by row key. */
function adsOf(sandbox: Sandbox, rows: Creative[]): Map<string, number[]> {
	return new Map(
		rows.map((row) => [
			row.key,
			sandbox.data.ads
				.filter(
					(ad) =>
						ad.status !== 'deleted' &&
						ad.campaignId === CAMPAIGN &&
						ad.fields.title === row.title &&
						ad.fields.text === row.text &&
						ad.fields.promote_url === row.url,
				)
				.map((ad) => ad.id),
		]),
	);
}

/** The ad_id column of the tab, by key ('' where empty). */
function idsInSheet(tab: Tab): Map<string, string> {
	return new Map(
		readTab(tab).rows.map((row) => [
			String(valueOf(row.cells.key)),
			String(valueOf(row.cells.ad_id) ?? ''),
		]),
	);
}

const createsSince = (sandbox: Sandbox, from: number) =>
	apiRequests(sandbox)
		.slice(from)
		.filter((r) => r.method === 'POST' && /^\/api\/advertisement\/[^/]+\/$/.test(r.path));

/** Exactly one ad per row, and the sheet holds each one's id. */
function assertOnePerRow(sandbox: Sandbox, tab: Tab, rows: Creative[]): void {
	const ads = adsOf(sandbox, rows);
	const ids = idsInSheet(tab);
	for (const row of rows) {
		const found = ads.get(row.key) ?? [];
		assert.equal(found.length, 1, `row ${row.key}: ${found.length} ads (${found.join(', ')})`);
		assert.equal(ids.get(row.key), String(found[0]), `row ${row.key}: the sheet's ad_id`);
	}
}

/** Starts a manual run over REST as the editor does, without waiting for it. */
async function startRun(rest: N8nRest, flow: SheetFlow): Promise<void> {
	const workflowData = await rest.request<Record<string, unknown>>(
		'GET',
		`/rest/workflows/${flow.example.id}`,
	);
	await rest.request('POST', `/rest/workflows/${flow.example.id}/run`, {
		workflowData,
		triggerToStartFrom: { name: flow.trigger.name },
	});
}

export async function rerunSafeChecks(ctx: Context): Promise<N8nServer> {
	const { checks, sandbox, sheet, flow } = ctx;
	const tab = sheet.tabs.find((t) => t.title === CREATIVES_TAB);
	assert.ok(tab, `the spreadsheet has a tab ${CREATIVES_TAB}`);
	const figures: Record<string, number> = {};

	console.log(`\n▶ ${FILE}: ${ROWS} rows without an ad_id; run, then run again`);
	const first = creatives('a');
	fill(tab, first);
	let mark = sandbox.requests.length;
	await ctx.run(flow);
	figures.run = createsSince(sandbox, mark).length;
	await checks.check(
		`${FILE}, run 1: one ad per row (${ROWS}), and each row holds its ad's id`,
		() => {
			assert.equal(figures.run, ROWS);
			assertOnePerRow(sandbox, tab, first);
		},
	);
	const cells = JSON.stringify(tab.rows);
	mark = sandbox.requests.length;
	await ctx.run(flow);
	figures.rerun = createsSince(sandbox, mark).length;
	await checks.check(`${FILE}, run 2: no ad created, no cell changed`, () => {
		assert.equal(figures.rerun, 0);
		assert.equal(JSON.stringify(tab.rows), cells);
		assertOnePerRow(sandbox, tab, first);
	});

	console.log(
		`\n▶ ${FILE}: ${ROWS} new rows; n8n killed once ${ROWS / 2} creates reached the API, then restarted and the workflow run again`,
	);
	const second = creatives('b');
	fill(tab, second);
	mark = sandbox.requests.length;
	sandbox.data.answerDelayMs = SLOW_ANSWER_MS;
	let server = ctx.server;
	try {
		await startRun(server.rest, flow);
		const deadline = Date.now() + 60_000;
		while (createsSince(sandbox, mark).length < ROWS / 2) {
			assert.ok(Date.now() < deadline, 'the creates did not reach the API within 60 s');
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
		const pid = server.spawned.child.pid ?? assert.fail('n8n has no pid');
		process.kill(-pid, 'SIGKILL');
		figures.unansweredAtKill = createsSince(sandbox, mark).filter((r) => !r.status).length;
		await server.spawned.exited;
		figures.sentBeforeKill = createsSince(sandbox, mark).length;
		// The create in flight when n8n died is still carried out by the API; n8n never hears of it.
		await new Promise((resolve) => setTimeout(resolve, 2 * SLOW_ANSWER_MS));
	} finally {
		sandbox.data.answerDelayMs = 0;
	}
	figures.madeBeforeKill = [...adsOf(sandbox, second).values()].filter((ids) => ids.length).length;
	figures.idsBeforeRerun = [...idsInSheet(tab).values()].filter(Boolean).length;
	console.log(
		`  n8n (pid ${String(server.spawned.child.pid)}) killed: ${figures.sentBeforeKill} creates had reached the API (${figures.unansweredAtKill} of them not answered yet), ${figures.madeBeforeKill} ads exist, ${figures.idsBeforeRerun} ad_ids in the sheet`,
	);
	server = await ctx.restart();
	mark = sandbox.requests.length;
	await ctx.run(flow);
	figures.afterRestart = createsSince(sandbox, mark).length;
	await checks.check(
		`${FILE}, killed and rerun: exactly one ad per row (${ROWS}), none made twice, every row holds its ad's id`,
		() => {
			assert.ok(
				figures.madeBeforeKill > 0 && figures.madeBeforeKill < ROWS,
				`${figures.madeBeforeKill} ads made before the kill`,
			);
			assert.equal(figures.idsBeforeRerun, 0, 'no ad_id was written back before the kill');
			assert.equal(figures.afterRestart, ROWS - figures.madeBeforeKill);
			assertOnePerRow(sandbox, tab, second);
		},
	);
	console.log(
		`  ads created: run ${figures.run}, rerun ${figures.rerun}, killed run ${figures.madeBeforeKill} + rerun after restart ${figures.afterRestart} = ${figures.madeBeforeKill + figures.afterRestart} for ${ROWS} rows`,
	);
	return server;
}
