/**
 * `npm run test:editor`: our nodes in n8n's editor, in headless Chromium (Debian's chromium driven
 * by playwright-core), as a person meets them.
 *
 *  1. n8n 2.41 from the cache (scripts/lib/runtime.ts), the packed package installed into a fresh
 *     user folder, the sandbox API in this process, its credential and every example imported.
 *  2. `n8n start`; the owner signs in; one workflow per node of ours, holding that node alone with
 *     the sandbox credential, created over REST.
 *  3. For each node: found by its display name in the node creator with its icon
 *     loaded; the searches "Telegram", "Telegram Ads", "Adstat", "ads" and "statistics" list the
 *     nodes they should (creatorSearch.ts, through the codex aliases); its workflow opens with the node on the canvas; a double-click opens its panel with
 *     the sandbox credential and the main parameters of its default operation (derived from the
 *     description n8n serves); no error toast, no console or page error about the package; a
 *     screenshot of the panel into a folder printed at the end.
 *  4. The Cabinet ID picker (cabinetPicker.ts) in the Media node's panel: From List lists the
 *     sandbox's cabinets by name, a search leaves one, and the saved node holds the one picked.
 *
 * Flags: --screenshots (also write the README's pictures: docs/images/stats-node-panel.png,
 * example-workflow.png, trigger-node-panel.png, ads-trigger-panel.png (after the sandbox declines
 * an ad), media-cabinet-picker.png and, when
 * examples/balance-alert.json exists, balance-alert.png), --keep (keep the temp folder with n8n's
 * user folder, logs and the browser profile). CHROMIUM_PATH overrides /usr/bin/chromium.
 */
import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Sandbox } from '../../sandbox';
import { setAdStatus } from '../../sandbox/handlers/adStatusControl';
import { Checks } from '../lib/checks';
import { credentialsFor } from '../../harness/sandbox';
import { repoPackageJson } from '../lib/installPackage';
import { EXPECTED_NODES, ownNodes } from '../lib/nodeTypes';
import type { N8nServer } from '../lib/session';
import { finishStage, runStage, seconds, setUpStage, stageSession } from '../lib/stage';
import { CREDENTIAL_TYPE, listExamples, SANDBOX_CREDENTIAL } from '../lib/workflows';
import { CHROMIUM_PATH, openEditorBrowser, type EditorBrowser } from './browser';
import {
	assertImageSize,
	IMAGES_DIR,
	README_EXAMPLE,
	recordPicture,
	screenshotCanvas,
	sheetsCredentialOf,
	subfolderExample,
	writeReadmeImages,
	writeTriggerImage,
} from './readmeImages';
import { checkCabinetPicker } from './cabinetPicker';
import { checkCreatorSearches } from './creatorSearch';
import { latestVersion, type ServedNodeDescription } from './parameters';
import {
	checkInNodeCreator,
	checkNodeInEditor,
	openNewWorkflow,
	screenshotPath,
	type NodeFindings,
	type NodeUnderTest,
} from './nodeChecks';

const args = new Set(process.argv.slice(2));
/** The recipe whose canvas docs/images/balance-alert.png shows. */
const BALANCE_ALERT_EXAMPLE = 'balance-alert.json';
/** Typed in the Cabinet ID list's search: part of one sandbox cabinet's name. */
const CABINET_SEARCH = 'Berlin';

let browser: EditorBrowser | undefined;
/** The temp folder of this run, named when a signal stops it. */
let workDir: string | undefined;

/** One workflow per node: the node alone, with its defaults and the sandbox credential. */
async function createNodeWorkflows(
	server: N8nServer,
	packageName: string,
	checks: Checks,
): Promise<NodeUnderTest[]> {
	const served = await server.rest.typeFile<ServedNodeDescription[]>('/types/nodes.json');
	const byType = new Map(served.map((d) => [d.name, d]));
	const { nodes, unreadable } = ownNodes(repoPackageJson());
	const order = Object.keys(EXPECTED_NODES);
	const ours = nodes
		.filter((n) => order.includes(n.name))
		.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
	await checks.check(`n8n serves all ${order.length} nodes of the package`, () => {
		assert.deepEqual(unreadable, [], 'unreadable node files');
		const missing = order.filter(
			(name) => !byType.has(`${packageName}.${name}`) || !ours.some((n) => n.name === name),
		);
		assert.deepEqual(missing, [], 'not built or not served');
	});
	const result: NodeUnderTest[] = [];
	for (const node of ours) {
		const description = byType.get(node.type);
		if (!description) continue;
		const nodeName = node.displayName;
		const workflow = await server.rest.request<{ id: string }>('POST', '/rest/workflows', {
			name: `Editor check: ${node.displayName}`,
			nodes: [
				{
					id: randomUUID(),
					name: nodeName,
					type: node.type,
					typeVersion: latestVersion(description),
					position: [0, 0],
					parameters: {},
					credentials: { [CREDENTIAL_TYPE]: SANDBOX_CREDENTIAL },
				},
			],
			connections: {},
			settings: { executionOrder: 'v1' },
		});
		result.push({
			type: node.type,
			displayName: node.displayName,
			description,
			workflowId: workflow.id,
			nodeName,
		});
	}
	return result;
}

async function main(): Promise<number> {
	const started = Date.now();
	const checks = new Checks();
	const pkg = repoPackageJson();

	console.log('\n▶ n8n');
	const setUp = setUpStage('editor', started);
	if (!setUp) return 1;
	const { runtime, work } = setUp;
	workDir = work;
	const shots = mkdtempSync(join(tmpdir(), 'ad-cabinet-editor-screenshots-'));
	let t: number;

	// The real service's form; the editor's dropdowns need no rate limit to wait on.
	const sandbox = await Sandbox.start({ platform: 'telegram', rateLimit: 'off', clock: 'frozen' });
	console.log(`  sandbox API on ${sandbox.baseUrl}`);
	const session = await stageSession(setUp);
	const examples = listExamples();
	const findings: NodeFindings[] = [];
	let server: N8nServer | undefined;
	try {
		console.log('\n▶ Import');
		t = Date.now();
		await session.importCredential(credentialsFor(sandbox));
		// The README's first picture shows a sync example, with the Google credential it names.
		const readmeExample = subfolderExample(README_EXAMPLE);
		const sheetsCredential = sheetsCredentialOf(readmeExample);
		if (sheetsCredential.length)
			await session.importCredentials(sheetsCredential, 'google-credentials.json');
		await session.importExamples([...examples, readmeExample]);
		console.log(
			`  the sandbox credential and ${examples.length} examples (${seconds(Date.now() - t)})`,
		);

		console.log('\n▶ n8n start');
		t = Date.now();
		server = await session.startServer();
		await server.rest.signIn();
		console.log(`  n8n ready on ${server.url}, owner signed in (${seconds(Date.now() - t)})`);
		const nodes = await createNodeWorkflows(server, pkg.name, checks);
		console.log(`  ${nodes.length} workflows created, one per node`);

		console.log('\n▶ Chromium');
		t = Date.now();
		browser = await openEditorBrowser(server.url, join(work, 'chromium-profile'), pkg.name);
		const agent = String(await browser.page.evaluate('navigator.userAgent'));
		const version = /HeadlessChrome\/[\d.]+|Chrome\/[\d.]+/.exec(agent)?.[0] ?? agent;
		console.log(`  ${version} from ${CHROMIUM_PATH}, owner logged in (${seconds(Date.now() - t)})`);

		console.log('\n▶ Node creator, in a new workflow');
		t = Date.now();
		await openNewWorkflow(browser.page, server.url);
		const creator: Array<Awaited<ReturnType<typeof checkInNodeCreator>>> = [];
		// Each node from a new workflow's creator: a trigger's check leaves the creator inside the
		// group n8n lists it under, where the next node's search cannot start.
		for (const node of nodes) {
			await openNewWorkflow(browser.page, server.url);
			creator.push(await checkInNodeCreator(checks, browser, node, pkg.name));
		}
		await checkCreatorSearches(checks, browser, server.url, nodes, pkg.name);
		console.log(`  (${seconds(Date.now() - t)})`);

		for (const [index, node] of nodes.entries()) {
			t = Date.now();
			console.log(`\n▶ ${node.displayName} (${node.type})`);
			const panel = await checkNodeInEditor(
				checks,
				browser,
				server.url,
				node,
				SANDBOX_CREDENTIAL.name,
				screenshotPath(shots, index, node.displayName),
				creator[index].events,
			);
			findings.push({ node, listedAs: creator[index].listedAs, ...panel });
			console.log(`  (${seconds(Date.now() - t)})`);
		}

		console.log('\n▶ Cabinet ID picker');
		t = Date.now();
		const media = nodes.find((n) => n.type === `${pkg.name}.adCabinetMedia`);
		let pickerShot: string | undefined;
		if (!media) checks.fail('Cabinet ID picker', 'no workflow holds the Media node');
		else {
			pickerShot = await checkCabinetPicker(checks, browser, server, media, {
				cabinets: sandbox.data.cabinets
					.filter((cabinet) => cabinet.permitted)
					.map((cabinet) => ({ id: cabinet.account_id, name: cabinet.name })),
				search: CABINET_SEARCH,
				screenshotFile: join(shots, 'media-cabinet-picker.png'),
			});
		}
		console.log(`  (${seconds(Date.now() - t)})`);

		if (args.has('--screenshots')) {
			console.log('\n▶ README screenshots');
			const statsType = `${pkg.name}.adCabinetStats`;
			const statsDescription = nodes.find((n) => n.type === statsType)?.description;
			await writeReadmeImages(
				checks,
				browser,
				server.url,
				subfolderExample(README_EXAMPLE),
				statsType,
				statsDescription,
			);
			// The trigger's panel after Fetch Test Event, with the latest settled rows.
			await writeTriggerImage(
				checks,
				browser,
				server.url,
				nodes.find((n) => n.type === `${pkg.name}.adCabinetStatsTrigger`),
				{ image: 'trigger-node-panel.png', node: 'AdCabinetStatsTrigger', label: 'Stats Trigger' },
			);
			// The Ads Trigger's panel after Fetch Test Event, with the ad moderation just declined
			// (its reasons from the ad's detail) the latest of the status changes it shows.
			const [declined] = sandbox.data.ads.filter(
				(ad) => ad.status === 'active' && sandbox.data.cabinet(ad.accountId)?.permitted === true,
			);
			// A minute on first: a seeded ad may have changed status at the very instant the clock
			// stopped, and the decline must be the latest change, not tied with it.
			sandbox.clock.set(new Date(sandbox.clock.now().getTime() + 60_000));
			if (declined)
				setAdStatus(sandbox.data, String(declined.id), {
					status: 'declined',
					decline_reason: [{ reason: 'The landing page does not open' }],
				});
			await writeTriggerImage(
				checks,
				browser,
				server.url,
				nodes.find((n) => n.type === `${pkg.name}.adCabinetAdsTrigger`),
				{
					image: 'ads-trigger-panel.png',
					node: 'AdCabinetAdsTrigger',
					label: 'Ads Trigger',
					view: 'Schema',
				},
			);
			await checks.check('docs/images/media-cabinet-picker.png: the open Cabinet ID list', () => {
				assert.ok(pickerShot, 'no screenshot of the open Cabinet ID list was taken');
				const file = join(IMAGES_DIR, 'media-cabinet-picker.png');
				copyFileSync(pickerShot, file);
				assertImageSize(file);
				recordPicture('media-cabinet-picker.png', [{ node: 'AdCabinetMedia' }]);
			});
			const balanceAlert = examples.find((e) => e.file === BALANCE_ALERT_EXAMPLE);
			if (!balanceAlert) {
				console.log(
					`  skipped docs/images/balance-alert.png: examples/${BALANCE_ALERT_EXAMPLE} does not exist`,
				);
			} else {
				const editor = browser;
				const baseUrl = server.url;
				await checks.check(
					`docs/images/balance-alert.png: the canvas of ${BALANCE_ALERT_EXAMPLE}, fitted to the view`,
					async () => {
						const file = join(IMAGES_DIR, 'balance-alert.png');
						await screenshotCanvas(editor, baseUrl, balanceAlert, `${pkg.name}.`, file, true);
						recordPicture('balance-alert.png', [{ file: `examples/${balanceAlert.file}` }]);
					},
				);
			}
		}
	} catch (error) {
		checks.fail('editor stage', (error as Error).stack ?? String(error));
		if (browser) {
			const file = join(shots, 'failure.png');
			await browser.page.screenshot({ path: file }).then(
				() => console.log(`  the page at the failure: ${file}`),
				() => undefined,
			);
		}
	} finally {
		await browser?.close().catch(() => undefined);
		if (server) await server.stop();
		await sandbox.stop();
	}

	console.log('\n▶ Findings');
	for (const { node, listedAs, parameters } of findings) {
		console.log(
			`  ${node.displayName}: listed as ${listedAs ?? '?'}; panel parameters ${parameters.join(', ') || '?'}`,
		);
	}
	if (browser) {
		const unrelated = browser.events.unrelated();
		const outside = browser.events.outside();
		console.log(
			`  browser messages not about the package: ${unrelated.length ? `\n${unrelated.map((m) => `    ${m}`).join('\n')}` : 'none'}`,
		);
		console.log(
			`  requests to other hosts (blocked): ${outside.length ? `\n${outside.map((u) => `    ${u}`).join('\n')}` : 'none'}`,
		);
	}
	console.log(`  screenshots of each panel: ${shots}`);

	return finishStage({
		stage: 'editor',
		started,
		checks,
		ranIn: `n8n ${runtime.version}`,
		work,
		holds: "n8n's user folder, logs and browser profile",
		keep: args.has('--keep'),
	});
}

runStage(main, (signal) => {
	console.log(`\n${signal}: stopping n8n and Chromium${workDir ? `; logs are in ${workDir}` : ''}`);
	void browser?.close();
});
