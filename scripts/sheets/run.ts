/**
 * `npm run test:sheets`: the spreadsheet job, proven. examples/sync/stats-sync-to-google-sheet.json
 * (Schedule → Ad Cabinet Stats, Last 3 Days with today, Simplify → Google Sheets Append or Update
 * Row on `row_key`) runs in real n8n with n8n's own Google Sheets node and a service-account
 * credential whose RSA key is made here. Google is a local stand-in (googleStandIn.ts) for
 * oauth2.googleapis.com and sheets.googleapis.com, reached by those names inside a network
 * namespace of the stage's own (namespace.ts), over HTTPS with a CA made here and trusted by n8n's
 * Node alone. The statistics come from the sandbox API in its telegram form.
 *
 * Checks, for the example as it is (Cell Format RAW):
 *  1. the first run writes every row of the period, one per row_key, with the API's figures;
 *  2. a rerun changes no cell and adds no row;
 *  3. after the sandbox restates campaign-days, the next run updates those rows in place;
 *  4. every key and figure reads back exactly as sent (text stays text, numbers stay numbers).
 * Then the same workflow with Cell Format USER_ENTERED, and a probe of texts a sheet may convert
 * (a date, a leading zero, a decimal comma) through the same node in both formats: what each
 * format stores, and what a rerun does to keys that were converted.
 *
 * Flags: --keep (keep the work folder: n8n's user folder, keys and logs).
 */
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { credentialsFor } from '../../harness/sandbox';
import { Sandbox } from '../../sandbox';
import { runToSuccess } from '../lib/manualRun';
import { Checks } from '../lib/checks';
import { tail } from '../lib/processes';
import type { N8nServer } from '../lib/session';
import {
	awayFromMidnight,
	finishStage,
	runOutsideNamespace,
	runStage,
	setUpInside,
	stageSession,
	type NamespacedStage,
} from '../lib/stage';
import { CREDENTIAL_TYPE, itemsOf, SANDBOX_CREDENTIAL, type RunData } from '../lib/workflows';
import { apiRows, firstPages } from '../lib/statsRows';
import { figuresByIdentity } from '../lib/rowFigures';
import { GoogleStandIn, type Spreadsheet } from './googleStandIn';
import { GOOGLE_HOSTS, makeKeys } from './keys';
import { probeChecks } from './probe';
import { CREATIVES_TAB, rerunSafeChecks, rerunSafeFlow } from './rerunSafe';
import { standInChecks } from './standInChecks';
import { byKey, inexactCells, readTab, snapshot, valueOf } from './sheetTable';
import {
	cellFormatOf,
	exampleFlow,
	GOOGLE_CREDENTIAL,
	probeFlow,
	readExample,
	sheetsNodeOf,
	type SheetFlow,
} from './workflows';

const flags = new Set(process.argv.slice(2));
const STAGE: NamespacedStage = {
	name: 'sheets',
	hosts: GOOGLE_HOSTS,
	setupEnv: 'AD_CABINET_SHEETS_SETUP',
	inside: 'AD_CABINET_SHEETS_NAMESPACE',
};
const DAY_MS = 86_400_000;
const TAB = 'Ad stats';
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The truth for the period the Stats node asked for: identity (day/campaign) → figures. */
function apiRowsNow(sandbox: Sandbox): Map<string, string> {
	const pages = firstPages(sandbox.requests, 'day');
	assert.ok(pages.length, 'no statistics request reached the sandbox');
	return apiRows(sandbox, pages[pages.length - 1].body);
}

/** What the sheet holds, by the same identity and figures (read from its cells). */
function sheetRows(sheet: Spreadsheet): Map<string, string> {
	return figuresByIdentity(
		readTab(sheet.tabs[0]).rows.map((row) =>
			Object.fromEntries(
				Object.entries(row.cells).map(([column, cell]) => [column, valueOf(cell)]),
			),
		),
	);
}

function changedKeys(before: Map<string, string>, after: Map<string, string>): string[] {
	return [...new Set([...before.keys(), ...after.keys()])]
		.filter((identity) => before.get(identity) !== after.get(identity))
		.sort();
}

async function inner(): Promise<number> {
	const setUp = setUpInside(STAGE);
	const { started, runtime, work } = setUp;
	const checks = new Checks();
	let sandbox: Sandbox | undefined;
	let standIn: GoogleStandIn | undefined;
	let server: N8nServer | undefined;
	const format = cellFormatOf(sheetsNodeOf(readExample()));
	const other = format === 'RAW' ? 'USER_ENTERED' : 'RAW';
	try {
		const keysDir = join(work, 'keys');
		mkdirSync(keysDir, { recursive: true });
		const keys = makeKeys(keysDir);
		standIn = new GoogleStandIn(keys.account, keys.tls);
		await standIn.listen(443);
		// A European agency's spreadsheet: decimal comma, as in de_DE (and ru_RU).
		const sheets = {
			RAW: standIn.addSpreadsheet('Ad stats (Raw)', 'de_DE', [TAB, 'Probe']),
			USER_ENTERED: standIn.addSpreadsheet('Ad stats (User Entered)', 'de_DE', [TAB, 'Probe']),
		};
		const creatives = standIn.addSpreadsheet('Creatives', 'de_DE', [CREATIVES_TAB]);
		await awayFromMidnight();
		sandbox = await Sandbox.start({
			platform: 'telegram',
			rateLimit: 'off',
			restatements: 'off',
			now: new Date(),
		});
		const today = Math.floor(sandbox.clock.now().getTime() / DAY_MS) * DAY_MS;
		console.log(
			`  Google stand-in https://{${GOOGLE_HOSTS.join(',')}} on 127.0.0.1:443 (CA and service-account key made now); sandbox API ${sandbox.baseUrl} (telegram form, clock stopped at ${sandbox.clock.now().toISOString()})`,
		);
		console.log(`  the example's Cell Format: ${format}`);

		const flows = {
			main: exampleFlow(sheets[format].id, TAB, format),
			other: exampleFlow(sheets[other].id, TAB, other),
			probeRaw: probeFlow(sheets.RAW.id, 'Probe', 'RAW'),
			probeUser: probeFlow(sheets.USER_ENTERED.id, 'Probe', 'USER_ENTERED'),
			rerunSafe: rerunSafeFlow(creatives),
		};
		const session = await stageSession(setUp, { NODE_EXTRA_CA_CERTS: keys.caFile });
		await session.importCredentials(
			[
				{ ...SANDBOX_CREDENTIAL, type: CREDENTIAL_TYPE, data: credentialsFor(sandbox) },
				{
					...GOOGLE_CREDENTIAL,
					type: 'googleApi',
					data: {
						email: keys.account.email,
						privateKey: keys.account.privateKeyPem,
						impersonate: false,
						httpNode: false,
					},
				},
			],
			'sheets-credentials.json',
		);
		await session.importExamples(Object.values(flows).map((f) => f.example));
		server = await session.startServer();
		await server.rest.signIn();

		const run = (flow: SheetFlow) => runToSuccess(runtime, server!.rest, flow);
		const statsName = flows.main.example.workflow.nodes.find((n) =>
			n.type.endsWith('.adCabinetStats'),
		)!.name;
		const sent = (result: RunData) => (itemsOf(result, statsName) ?? []).map((i) => i.json);
		const tab = sheets[format].tabs[0];

		// 1. The first run.
		console.log(`\n▶ Run 1 (${format}): the sheet is empty`);
		const items1 = sent(await run(flows.main));
		let api = apiRowsNow(sandbox);
		const table1 = readTab(tab);
		const keys1 = byKey(table1);
		console.log(
			`  the Stats node gave ${items1.length} rows (the API holds ${api.size} for the period); the sheet holds ${table1.rows.length} rows under a header of ${table1.header.length} columns, ${keys1.duplicates.length} duplicates`,
		);
		await checks.check(
			`first run (${format}): the sheet holds every row of the period once, with the API's figures`,
			() => {
				assert.ok(api.size > 5, `${api.size} rows in the period`);
				assert.equal(items1.length, api.size);
				assert.deepEqual(table1.header.slice().sort(), Object.keys(items1[0]).sort());
				assert.deepEqual(keys1.duplicates, []);
				assert.deepEqual(
					[...keys1.rows.keys()].sort(),
					items1.map((i) => String(i.row_key)).sort(),
				);
				assert.deepEqual(changedKeys(api, sheetRows(sheets[format])), []);
			},
		);

		// 2. The same rows again.
		console.log(`\n▶ Run 2 (${format}): nothing changed in the API`);
		const before2 = snapshot(tab);
		await run(flows.main);
		const table2 = readTab(tab);
		await checks.check(`rerun (${format}): no cell changed, no row added, 0 duplicates`, () => {
			assert.equal(table2.rows.length, table1.rows.length);
			assert.deepEqual(byKey(table2).duplicates, []);
			assert.ok(snapshot(tab) === before2, 'the cells differ from the first run');
		});

		// 3. Restatements.
		console.log('\n▶ The sandbox restates campaign-days of the period; run 3');
		const rowOf = new Map(table2.rows.map((r) => [String(valueOf(r.cells.row_key)), r.row]));
		const campaignsOn = (day: number) =>
			[...api.keys()]
				.filter((id) => id.startsWith(dayOf(day)))
				.map((id) => Number(id.split('/')[1]));
		const targets: Array<[number, number]> = [
			[today - DAY_MS, campaignsOn(today - DAY_MS)[0]],
			[today - 2 * DAY_MS, campaignsOn(today - 2 * DAY_MS)[1]],
		];
		for (const [day, campaign] of targets)
			sandbox.data.forceRestatement({ day: dayOf(day), campaign_id: campaign });
		const api3 = apiRowsNow(sandbox);
		const restated = changedKeys(api, api3);
		api = api3;
		const held3 = sheetRows(sheets[format]);
		const items3 = sent(await run(flows.main));
		const table3 = readTab(tab);
		const updated = changedKeys(held3, sheetRows(sheets[format]));
		const moved = table3.rows.filter((r) => rowOf.get(String(valueOf(r.cells.row_key))) !== r.row);
		console.log(
			`  restated in the API: ${restated.join(', ')}; updated in the sheet: ${updated.join(', ')}; ${table3.rows.length} rows, ${moved.length} moved`,
		);
		await checks.check(
			`restatements (${format}): exactly the restated rows changed, in place, to the API's new figures`,
			() => {
				assert.ok(restated.length >= 2, `${restated.length} rows restated`);
				assert.deepEqual(updated, restated);
				assert.equal(table3.rows.length, table1.rows.length);
				assert.equal(moved.length, 0);
				assert.deepEqual(changedKeys(api, sheetRows(sheets[format])), []);
			},
		);

		// 4. Exact read-back.
		const inexact = inexactCells(table3, items3);
		console.log(
			`  ${items3.length * Object.keys(items3[0]).length} cells compared with what the node sent: ${inexact.length} differ${inexact.length ? ` (${inexact.slice(0, 4).join('; ')})` : ''}`,
		);
		await checks.check(
			`read back (${format}): every row_key is the text sent and every figure the number sent`,
			() => {
				assert.deepEqual(inexact, []);
			},
		);

		// The other cell format, the same workflow.
		console.log(`\n▶ The same workflow with Cell Format ${other}: run twice`);
		const itemsOther = sent(await run(flows.other));
		await run(flows.other);
		const tableOther = readTab(sheets[other].tabs[0]);
		const inexactOther = inexactCells(tableOther, itemsOther);
		const keyConverted = inexactOther.filter((line) => / row_key: /.test(line));
		console.log(
			`  ${tableOther.rows.length} rows, ${byKey(tableOther).duplicates.length} duplicates; ${inexactOther.length} cells differ from what was sent (${keyConverted.length} of them row_key)${inexactOther.length ? `: ${inexactOther.slice(0, 3).join('; ')}` : ''}`,
		);
		await checks.check(
			`${other}: the example's rows keep their row_key text and figures; a rerun adds no row`,
			() => {
				assert.deepEqual(keyConverted, []);
				assert.equal(tableOther.rows.length, itemsOther.length);
				assert.deepEqual(byKey(tableOther).duplicates, []);
			},
		);

		await probeChecks(
			checks,
			run,
			flows.probeRaw,
			flows.probeUser,
			sheets.RAW,
			sheets.USER_ENTERED,
		);

		server = await rerunSafeChecks({
			checks,
			sandbox,
			sheet: creatives,
			flow: flows.rerunSafe,
			server,
			run,
			restart: async () => {
				server = await session.startServer();
				await server.rest.signIn();
				return server;
			},
		});

		await standInChecks(checks, standIn, keys);
	} catch (error) {
		checks.fail('sheets stage', (error as Error).stack ?? String(error));
		if (server) console.log(`--- ${server.log.logFile}\n${tail(server.log.logFile, 30)}`);
	} finally {
		await server?.stop();
		await sandbox?.stop();
		await standIn?.stop();
	}
	return finishStage({
		stage: 'sheets',
		started,
		checks,
		ranIn: `n8n ${runtime.version} with its Google Sheets node and a local Google stand-in`,
		work,
		holds: "n8n's user folder, the keys and logs",
		keep: flags.has('--keep'),
	});
}

runStage(async () =>
	process.env[STAGE.inside] ? await inner() : await runOutsideNamespace(STAGE),
);
