/**
 * The Cabinet ID picker as a person uses it: in the Media node's panel (Upload), the resource
 * locator set to "From List" lists the sandbox's cabinets by name, a search narrows the list, and
 * the cabinet picked is what the node's parameter holds once the workflow is saved.
 */
import { strict as assert } from 'node:assert';
import type { Locator, Page } from 'playwright-core';
import type { Checks } from '../lib/checks';
import type { N8nServer } from '../lib/session';
import { describe, VIEWPORT, type EditorBrowser } from './browser';
import { canvasNode, errorToasts, openRoute, SELECTORS, type NodeUnderTest } from './nodeChecks';

/** The parameter the picker fills (nodes/shared/cabinetId.ts). */
const PARAMETER = 'accountId';
const TIMEOUT = 20_000;

const RLC = {
	root: `[data-test-id="resource-locator-${PARAMETER}"]`,
	modeSelector: '[data-test-id="rlc-mode-selector"]',
	mode: (name: string) => `[data-test-id="mode-${name}"]`,
	inputContainer: '[data-test-id="rlc-input-container"]',
	input: 'input[data-test-id="rlc-input"], [data-test-id="rlc-input"] input',
	// n8n 2.41 sets this test id on its popover component, which does not pass it on to the open
	// list; the list is the dialog holding the search.
	dropdown:
		'[data-test-id="resource-locator-dropdown"], [role="dialog"]:has([data-test-id="rlc-search"])',
	search: 'input[data-test-id="rlc-search"], [data-test-id="rlc-search"] input',
	item: '[data-test-id="rlc-item"]',
};

interface Cabinet {
	id: string;
	name: string;
}

interface PickerPlan {
	/** The cabinets the sandbox credential may use, in the API's order. */
	cabinets: Cabinet[];
	/** Text typed in the list's search; exactly one cabinet's name must contain it. */
	search: string;
	/** Where the screenshot of the open list goes. */
	screenshotFile: string;
}

/** How searchCabinets names a cabinet in the list. */
function label(cabinet: Cabinet): string {
	return `${cabinet.name} (${cabinet.id})`;
}

async function itemTexts(page: Page): Promise<string[]> {
	return (await page.locator(RLC.dropdown).locator(RLC.item).allInnerTexts()).map((t) => t.trim());
}

/** Waits until the open list shows exactly `expected`, in order. */
async function waitForItems(page: Page, expected: string[], what: string): Promise<void> {
	const deadline = Date.now() + TIMEOUT;
	let shown: string[] = [];
	while (Date.now() < deadline) {
		shown = await itemTexts(page);
		if (JSON.stringify(shown) === JSON.stringify(expected)) return;
		await page.waitForTimeout(200);
	}
	assert.deepEqual(shown, expected, what);
}

/** Waits until an input shows `expected` (`ignoreCase`: in any case). */
async function waitForValue(
	input: Locator,
	expected: string,
	what: string,
	ignoreCase = false,
): Promise<void> {
	const deadline = Date.now() + TIMEOUT;
	const normal = (text: string) => (ignoreCase ? text.trim().toLowerCase() : text.trim());
	let value = '';
	while (Date.now() < deadline) {
		value = await input.inputValue();
		if (normal(value) === normal(expected)) return;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	assert.equal(value, expected, what);
}

interface SavedLocator {
	__rl?: boolean;
	mode?: string;
	value?: unknown;
	cachedResultName?: string;
}

/** The picker's value in the saved workflow, polled until `isSaved` holds or the time is up. */
async function savedValue(
	server: N8nServer,
	workflowId: string,
	nodeName: string,
	isSaved: (value: SavedLocator | undefined) => boolean,
): Promise<SavedLocator | undefined> {
	const deadline = Date.now() + TIMEOUT;
	let value: SavedLocator | undefined;
	while (Date.now() < deadline) {
		const workflow = await server.rest.request<{
			nodes: Array<{ name: string; parameters: Record<string, unknown> }>;
		}>('GET', `/rest/workflows/${workflowId}`);
		value = workflow.nodes.find((n) => n.name === nodeName)?.parameters[PARAMETER] as
			SavedLocator | undefined;
		if (isSaved(value)) return value;
		await new Promise((resolve) => setTimeout(resolve, 300));
	}
	return value;
}

async function openPanel(page: Page, baseUrl: string, node: NodeUnderTest): Promise<Locator> {
	await openRoute(page, baseUrl, `/workflow/${node.workflowId}`);
	const onCanvas = canvasNode(page, node.nodeName);
	await onCanvas.waitFor({ state: 'visible', timeout: 60_000 });
	await onCanvas.dblclick();
	const ndv = page.locator(SELECTORS.ndv);
	await ndv.waitFor({ state: 'visible', timeout: TIMEOUT });
	return ndv;
}

/**
 * Opens the Media node's panel, sets its Cabinet ID to From List, checks the listed cabinets,
 * screenshots the open list, searches, picks the one cabinet found, and checks the saved workflow.
 * Returns the screenshot file when it was written.
 */
export async function checkCabinetPicker(
	checks: Checks,
	browser: EditorBrowser,
	server: N8nServer,
	media: NodeUnderTest,
	plan: PickerPlan,
): Promise<string | undefined> {
	const { page, events } = browser;
	events.step = `${media.displayName}: Cabinet ID picker`;
	const mark = events.mark();
	const all = plan.cabinets.map(label);
	const found = plan.cabinets.filter((c) =>
		label(c).toLowerCase().includes(plan.search.toLowerCase()),
	);
	let screenshot: string | undefined;

	let listed = false;
	await checks.check(
		`${media.displayName} (Upload): Cabinet ID "From List" lists the sandbox's cabinets: ${all.join(', ')}`,
		async () => {
			const ndv = await openPanel(page, server.url, media);
			const picker = ndv.locator(RLC.root).first();
			await picker.waitFor({ state: 'visible', timeout: TIMEOUT });
			await picker.locator(RLC.modeSelector).click();
			await page.locator(RLC.mode('list')).filter({ visible: true }).first().click();
			const mode = picker.locator(`${RLC.modeSelector} input`);
			// n8n labels the mode itself ("From list"), whatever the node's displayName says.
			await waitForValue(mode, 'From List', 'the mode shown', true);
			await picker.locator(RLC.inputContainer).click();
			await page.locator(RLC.dropdown).waitFor({ state: 'visible', timeout: TIMEOUT });
			await waitForItems(page, all, 'the cabinets listed');
			await page.mouse.move(0, VIEWPORT.height / 2);
			await page.screenshot({ path: plan.screenshotFile });
			screenshot = plan.screenshotFile;
			listed = true;
		},
	);

	let picked = false;
	await checks.check(
		`typing "${plan.search}" in the list's search leaves ${found.map(label).join(', ') || 'nothing'}; a click picks it`,
		async () => {
			assert.ok(listed, 'the list did not open');
			assert.equal(found.length, 1, `the search "${plan.search}" must find exactly one cabinet`);
			await page.locator(RLC.dropdown).locator(RLC.search).first().fill(plan.search);
			await waitForItems(page, [label(found[0])], 'the cabinets left by the search');
			await page.locator(RLC.dropdown).locator(RLC.item).first().click();
			await page.locator(RLC.dropdown).waitFor({ state: 'hidden', timeout: TIMEOUT });
			const input = page.locator(RLC.root).first().locator(RLC.input).first();
			await waitForValue(input, label(found[0]), 'the picker shows the cabinet picked');
			picked = true;
		},
	);

	await checks.check(
		`the saved node holds that cabinet: Cabinet ID mode list, value ${found[0]?.id ?? '?'}`,
		async () => {
			assert.ok(picked, 'no cabinet was picked');
			await page.keyboard.press('Escape');
			await page.locator(SELECTORS.ndv).waitFor({ state: 'hidden', timeout: TIMEOUT });
			await page.keyboard.press('Control+s');
			const expected = found[0];
			const value = await savedValue(
				server,
				media.workflowId,
				media.nodeName,
				(v) => v?.value === expected.id,
			);
			assert.deepEqual(
				{ mode: value?.mode, value: value?.value, cachedResultName: value?.cachedResultName },
				{ mode: 'list', value: expected.id, cachedResultName: label(expected) },
				`${PARAMETER} in the saved workflow: ${JSON.stringify(value)}`,
			);
			const toasts = await errorToasts(page);
			const ours = events.since(mark).filter((e) => events.concernsPackage(e));
			assert.deepEqual({ toasts, errors: ours.map(describe) }, { toasts: [], errors: [] });
		},
	);
	return screenshot;
}
