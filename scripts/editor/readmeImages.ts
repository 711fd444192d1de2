/**
 * The README's pictures in docs/images/, made by `npm run screenshots` (scripts/editor/run.ts):
 * the canvas of the Google Sheets sync example, its Stats node's panel after Execute step with the
 * rows in the output pane, and the canvas of the balance alert. Each picture is recorded in
 * docs/images/manifest.json with the hash of what it shows (scripts/release/images.js), so that
 * `npm run release:check` fails once the example or the node changes and the picture is older.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Checks } from '../lib/checks';
import { REPO_ROOT } from '../lib/runtime';
import { exampleId, readWorkflow, type Example } from '../lib/workflows';
import { VIEWPORT, type EditorBrowser } from './browser';
import { mainParameters, type ServedNodeDescription } from './parameters';
import {
	assertIconRendered,
	canvasNode,
	errorToasts,
	openRoute,
	SELECTORS,
	type NodeUnderTest,
} from './nodeChecks';

// Plain CommonJS, shared with release-check.mjs.
const { recordImage } = require('../release/images') as {
	recordImage: (
		root: string,
		image: string,
		sources: Array<{ file?: string; node?: string }>,
	) => void;
};

export const IMAGES_DIR = join(REPO_ROOT, 'docs', 'images');
/** The example whose canvas, and whose Stats node's panel, the README shows first. */
export const README_EXAMPLE = 'sync/stats-sync-to-google-sheet.json';
const MAX_IMAGE_BYTES = 150 * 1024;
/** Toolbars and hover highlights fade out this long after the pointer leaves. */
const HOVER_FADE_MS = 600;
/** The canvas animates to its new zoom for about this long. */
const FIT_VIEW_MS = 600;
const EXECUTE_STEP = '[data-test-id="node-execute-button"]';
/** The output pane's Schema, Table and JSON buttons. */
const DISPLAY_MODE = '[data-test-id="ndv-run-data-display-mode"]';

/** An example of a sub-folder of examples/, imported under its file name. */
export function subfolderExample(path: string): Example {
	return {
		file: path.split('/').pop() ?? path,
		id: exampleId(path),
		workflow: readWorkflow(path),
	};
}

/** The Google service account credential the Sheets example names (never used: nothing runs it). */
export function sheetsCredentialOf(example: Example): object[] {
	const sheets = example.workflow.nodes.find((n) => n.type === 'n8n-nodes-base.googleSheets');
	const reference = (sheets as { credentials?: Record<string, { id: string; name: string }> })
		?.credentials?.googleApi;
	if (!reference) return [];
	return [
		{
			...reference,
			type: 'googleApi',
			data: { email: 'ad-stats@example.iam.gserviceaccount.com', privateKey: 'not used' },
		},
	];
}

/** A README picture stays small; prints its path and size. */
export function assertImageSize(file: string): void {
	const bytes = statSync(file).size;
	assert.ok(bytes < MAX_IMAGE_BYTES, `larger than ${MAX_IMAGE_BYTES} bytes`);
	console.log(`      ${relative(REPO_ROOT, file)}, ${Math.round(bytes / 1024)} KB`);
}

/** Records a picture and what it shows in docs/images/manifest.json. */
export function recordPicture(image: string, sources: Array<{ file?: string; node?: string }>) {
	recordImage(REPO_ROOT, image, sources);
}

/**
 * Opens an imported example, waits for every node on the canvas (our icons loaded), optionally
 * fits the workflow to the view, and screenshots it with nothing selected or hovered.
 */
export async function screenshotCanvas(
	editor: EditorBrowser,
	baseUrl: string,
	example: Example,
	packagePrefix: string,
	file: string,
	fitView: boolean,
): Promise<void> {
	const { page } = editor;
	await openRoute(page, baseUrl, `/workflow/${example.id}`);
	for (const node of example.workflow.nodes) {
		if (node.type === 'n8n-nodes-base.stickyNote') continue;
		const onCanvas = canvasNode(page, node.name);
		await onCanvas.waitFor({ state: 'visible', timeout: 60_000 });
		// Our icons are SVG files; n8n's own nodes draw theirs inline.
		if (node.type.startsWith(packagePrefix))
			await assertIconRendered(onCanvas.locator('img').first(), undefined);
	}
	// Nothing selected or hovered: a click on empty canvas, then the pointer off the canvas.
	await page.mouse.click(VIEWPORT.width / 2, 110);
	if (fitView) {
		await page.locator(SELECTORS.zoomToFit).click();
		await page.waitForTimeout(FIT_VIEW_MS);
		// One step out, so that the Execute workflow button below covers no node's name.
		await page.locator('[data-test-id="zoom-out-button"]').click();
		await page.waitForTimeout(FIT_VIEW_MS);
	}
	await page.mouse.move(0, VIEWPORT.height / 2);
	await page.waitForTimeout(HOVER_FADE_MS);
	await page.screenshot({ path: file });
	assertImageSize(file);
}

/**
 * docs/images: the canvas of README_EXAMPLE, and its Stats node's panel after Execute step, with
 * the rows the sandbox answered in the output pane.
 */
export async function writeReadmeImages(
	checks: Checks,
	editor: EditorBrowser,
	baseUrl: string,
	example: Example,
	statsType: string,
	statsDescription: ServedNodeDescription | undefined,
): Promise<void> {
	const { page } = editor;
	editor.events.step = 'README screenshots';
	mkdirSync(IMAGES_DIR, { recursive: true });
	const canvasFile = join(IMAGES_DIR, 'example-workflow.png');
	const panelFile = join(IMAGES_DIR, 'stats-node-panel.png');
	const stats = example.workflow.nodes.find((n) => n.type === statsType);
	const packagePrefix = `${statsType.slice(0, statsType.lastIndexOf('.'))}.`;
	const canvasOk = await checks.check(
		`${relative(REPO_ROOT, canvasFile)}: the canvas of ${README_EXAMPLE}`,
		async () => {
			assert.ok(stats, `${README_EXAMPLE} has no ${statsType} node`);
			await screenshotCanvas(editor, baseUrl, example, packagePrefix, canvasFile, true);
			recordPicture('example-workflow.png', [{ file: `examples/${README_EXAMPLE}` }]);
		},
	);
	await checks.check(
		`${relative(REPO_ROOT, panelFile)}: the panel of "${stats?.name}" after Execute step`,
		async () => {
			assert.ok(canvasOk && stats, 'the example canvas did not open');
			await canvasNode(page, stats.name).dblclick();
			const ndv = page.locator(SELECTORS.ndv);
			await ndv.waitFor({ state: 'visible', timeout: 20_000 });
			await ndv
				.locator(`${SELECTORS.credentialSelect} input`)
				.first()
				.waitFor({ state: 'visible', timeout: 20_000 });
			const parameters = statsDescription ? mainParameters(statsDescription, stats.parameters) : [];
			assert.ok(parameters.length > 0, `no description of ${statsType}`);
			for (const parameter of parameters) {
				await ndv
					.locator(SELECTORS.parameterInput(parameter.name))
					.first()
					.waitFor({ state: 'visible', timeout: 10_000 });
			}
			const shown = await executeAndWaitForItems(editor, 2, 'stats');
			console.log(`      Execute step: ${shown} in the output pane`);
			assert.deepEqual(await errorToasts(page), [], 'error toasts');
			await page.mouse.move(0, VIEWPORT.height / 2);
			await page.waitForTimeout(HOVER_FADE_MS);
			await page.screenshot({ path: panelFile });
			assertImageSize(panelFile);
			recordPicture('stats-node-panel.png', [
				{ file: `examples/${README_EXAMPLE}` },
				{ node: 'AdCabinetStats' },
			]);
		},
	);
}

/**
 * Clicks the panel's Execute step (Fetch Test Event on a trigger) and waits until the output pane
 * names at least `least` items; returns what it names ("30 items"). The count is read from the
 * panel's text, where the input pane of a node after a trigger names its own "1 item".
 */
async function executeAndWaitForItems(
	editor: EditorBrowser,
	least: number,
	what: string,
): Promise<string | undefined> {
	const { page } = editor;
	const ndv = page.locator(SELECTORS.ndv);
	await ndv.locator(EXECUTE_STEP).first().click();
	const items = /(\d+) items?\b/;
	try {
		await page.waitForFunction(
			`Number(${items}.exec(document.querySelector('${SELECTORS.ndv}')?.innerText ?? '')?.[1] ?? 0) >= ${least}`,
			undefined,
			{ timeout: 90_000 },
		);
	} catch (error) {
		const shot = join(tmpdir(), `ad-cabinet-${what}-panel-failed.png`);
		await page.screenshot({ path: shot });
		throw new Error(`no items in the output pane after Execute step (the page: ${shot})`, {
			cause: error,
		});
	}
	return items.exec(await ndv.innerText())?.[0];
}

/** A trigger's picture: its file in docs/images and the node folder whose description it shows. */
interface TriggerPicture {
	image: string;
	node: string;
	/** The trigger's name in the check's title, e.g. "Stats Trigger". */
	label: string;
	/**
	 * The output pane's view when the table is too wide for it: Schema lists every field once, down
	 * the pane, with the value of the item that has it (a declined ad's decline_reason too).
	 */
	view?: 'Schema';
}

/**
 * A trigger's panel after Fetch Test Event, with what it emits in its output pane:
 * docs/images/trigger-node-panel.png (the Stats Trigger: the latest settled rows) and
 * ads-trigger-panel.png (the Ads Trigger: the latest status changes).
 */
export async function writeTriggerImage(
	checks: Checks,
	editor: EditorBrowser,
	baseUrl: string,
	trigger: NodeUnderTest | undefined,
	picture: TriggerPicture,
): Promise<void> {
	const { page } = editor;
	const file = join(IMAGES_DIR, picture.image);
	await checks.check(
		`${relative(REPO_ROOT, file)}: the ${picture.label} panel after Fetch Test Event`,
		async () => {
			assert.ok(trigger, `no workflow holds the ${picture.label}`);
			await openRoute(page, baseUrl, `/workflow/${trigger.workflowId}`);
			await canvasNode(page, trigger.nodeName).dblclick();
			const ndv = page.locator(SELECTORS.ndv);
			await ndv.waitFor({ state: 'visible', timeout: 20_000 });
			await ndv
				.locator(`${SELECTORS.credentialSelect} input`)
				.first()
				.waitFor({ state: 'visible', timeout: 20_000 });
			const shown = await executeAndWaitForItems(editor, 1, 'trigger');
			console.log(`      Fetch Test Event: ${shown} in the output pane`);
			assert.deepEqual(await errorToasts(page), [], 'error toasts');
			if (picture.view) {
				await ndv
					.locator(DISPLAY_MODE)
					.last()
					.getByText(picture.view, { exact: true })
					.click({ timeout: 20_000 });
				await page.waitForTimeout(HOVER_FADE_MS);
			}
			await page.mouse.move(0, VIEWPORT.height / 2);
			await page.waitForTimeout(HOVER_FADE_MS);
			await page.screenshot({ path: file });
			assertImageSize(file);
			recordPicture(picture.image, [{ node: picture.node }]);
		},
	);
}
