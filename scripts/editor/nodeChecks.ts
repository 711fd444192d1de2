/**
 * One of our nodes as a person meets it in the editor: found by its display name in the node
 * creator with its icon, on the canvas of a workflow holding it, and in its parameter panel with
 * the credential and the main parameters of its default operation, without an error on the way.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { Checks } from '../lib/checks';
import { describe, type EditorBrowser, type PageEvent } from './browser';
import { mainParameters, type ServedNodeDescription } from './parameters';

export const SELECTORS = {
	plusButton: '[data-test-id="node-creator-plus-button"]',
	searchBar: 'input[data-test-id="node-creator-search-bar"]',
	creatorItem: '[data-test-id="item-iterator-item"]',
	creatorItemName: '[data-test-id="node-creator-item-name"]',
	canvasNode: '[data-test-id="canvas-node"]',
	ndv: '[data-test-id="ndv"]',
	credentialSelect: '[data-test-id="node-credentials-select"]',
	// A resource locator (the Cabinet ID picker) is drawn under its own test id.
	parameterInput: (name: string) =>
		`[data-test-id="parameter-input-${name}"], [data-test-id="resource-locator-${name}"]`,
	toast: '.el-notification',
	zoomToFit: '[data-test-id="zoom-to-fit"]',
};

const TIMEOUT = 20_000;

export interface NodeUnderTest {
	/** Full type, `<package>.<name>`. */
	type: string;
	displayName: string;
	description: ServedNodeDescription;
	/** Id of the workflow holding this node alone, with the sandbox credential. */
	workflowId: string;
	/** Name of the node in that workflow. */
	nodeName: string;
}

export interface NodeFindings {
	node: NodeUnderTest;
	/** How the node creator lists it. */
	listedAs?: string;
	parameters: string[];
	screenshot?: string;
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function cssString(value: string): string {
	return JSON.stringify(value);
}

export function canvasNode(page: Page, name: string): Locator {
	return page.locator(`${SELECTORS.canvasNode}[data-node-name=${cssString(name)}]`);
}

/** The entry of a node type in the node creator's current list (its id starts with the type). */
function creatorEntry(page: Page, type: string): Locator {
	return page.locator(`${SELECTORS.creatorItem}[data-keyboard-nav-id^=${cssString(`${type}-`)}]`);
}

async function waitFor<T>(
	what: string,
	probe: () => Promise<T | undefined>,
	timeoutMs = TIMEOUT,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let last: unknown;
	while (Date.now() < deadline) {
		try {
			const value = await probe();
			if (value !== undefined) return value;
		} catch (error) {
			last = error;
		}
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	throw new Error(
		`${what} within ${timeoutMs / 1000}s${last ? `: ${(last as Error).message}` : ''}`,
	);
}

interface ImageState {
	src: string;
	complete: boolean;
	naturalWidth: number;
}

/** An <img> that finished loading with pixels, drawn in a box of non-zero size. */
export async function assertIconRendered(
	image: Locator,
	expectedSrc: string | undefined,
): Promise<string> {
	await image.waitFor({ state: 'visible', timeout: TIMEOUT });
	const state = await waitFor('the icon to load', async () => {
		const s = await image.evaluate((img): ImageState => ({
			src: String(img.getAttribute('src')),
			complete: Boolean((img as unknown as ImageState).complete),
			naturalWidth: Number((img as unknown as ImageState).naturalWidth),
		}));
		return s.complete && s.naturalWidth > 0 ? s : undefined;
	});
	if (expectedSrc) assert.equal(state.src, expectedSrc, 'icon source');
	const box = await image.boundingBox();
	assert.ok(box && box.width > 0 && box.height > 0, `icon box ${JSON.stringify(box)}`);
	return `${state.src} ${box.width}×${box.height}px, ${state.naturalWidth}px wide`;
}

function lightIcon(description: ServedNodeDescription): string | undefined {
	const { iconUrl } = description;
	if (!iconUrl) return undefined;
	return `/${(typeof iconUrl === 'string' ? iconUrl : iconUrl.light).replace(/^\//, '')}`;
}

/** Error toasts on screen (n8n's notifications of type error), as text. */
export async function errorToasts(page: Page): Promise<string[]> {
	return await page
		.locator(SELECTORS.toast)
		.evaluateAll((toasts) =>
			toasts
				.filter((toast) => /error/.test(toast.outerHTML.match(/class="[^"]*"/g)?.join(' ') ?? ''))
				.map((toast) => String(toast.textContent).trim().slice(0, 300)),
		);
}

/** A new, empty workflow: the page the node creator is searched from. */
export async function openNewWorkflow(page: Page, baseUrl: string): Promise<void> {
	await page.goto(`${baseUrl}/workflow/new`);
	await page.locator(SELECTORS.plusButton).first().waitFor({ state: 'visible', timeout: 60_000 });
}

/**
 * Opens an editor route the way the editor's own links do, without reloading the app: the page
 * loads n8n once (`page.goto`), later routes go through its router (pushState + popstate, what the
 * browser's back and forward buttons trigger). An open node panel is closed first.
 */
export async function openRoute(page: Page, baseUrl: string, path: string): Promise<void> {
	const loaded =
		page.url().startsWith(baseUrl) && (await page.locator('#app [data-test-id]').count()) > 0;
	if (!loaded) {
		await page.goto(`${baseUrl}${path}`);
		return;
	}
	const ndv = page.locator(SELECTORS.ndv);
	if (await ndv.isVisible()) {
		await page.keyboard.press('Escape');
		await ndv.waitFor({ state: 'hidden', timeout: TIMEOUT });
	}
	await page.evaluate(
		`history.pushState(history.state, '', ${JSON.stringify(path)}); dispatchEvent(new PopStateEvent('popstate', { state: history.state }));`,
	);
}

/** Opens the node creator with the + button (Tab no longer does in n8n 2.41). */
async function openNodeCreator(page: Page): Promise<void> {
	await page.locator(SELECTORS.plusButton).first().click();
	await page.locator(SELECTORS.searchBar).waitFor({ state: 'visible', timeout: TIMEOUT });
}

/** Escape until the node creator is closed (a trigger's group takes one more). */
async function closeNodeCreator(page: Page): Promise<void> {
	const search = page.locator(SELECTORS.searchBar);
	for (let i = 0; i < 4 && (await search.isVisible()); i++) {
		await page.keyboard.press('Escape');
		await search.waitFor({ state: 'hidden', timeout: 2_000 }).catch(() => undefined);
	}
}

/**
 * Searches the display name and finds the node's own entry. A trigger whose name is another
 * node's plus " Trigger" is listed, as n8n does, under that node's entry (click it: the trigger is
 * among its actions). Returns how it is listed, and the entry.
 */
async function findInCreator(
	page: Page,
	node: NodeUnderTest,
	packageName: string,
): Promise<{ listedAs: string; entry: Locator }> {
	await page.locator(SELECTORS.searchBar).fill(node.displayName);
	const direct = creatorEntry(page, node.type);
	const anyOfOurs = page.locator(
		`${SELECTORS.creatorItem}[data-keyboard-nav-id^=${cssString(`${packageName}.`)}]`,
	);
	await anyOfOurs.first().waitFor({ state: 'visible', timeout: TIMEOUT });
	if ((await direct.count()) > 0) {
		const name = (await direct.first().locator(SELECTORS.creatorItemName).textContent())?.trim();
		assert.equal(name, node.displayName, 'name shown in the node creator');
		return { listedAs: `"${name}"`, entry: direct.first() };
	}
	const app = node.displayName.replace(/ Trigger$/, '');
	assert.notEqual(app, node.displayName, `no entry for ${node.type} in the search results`);
	const group = anyOfOurs.filter({
		has: page.locator(SELECTORS.creatorItemName, { hasText: new RegExp(`^${escapeRegExp(app)}$`) }),
	});
	assert.equal(await group.count(), 1, `no entry "${app}" that would list the trigger`);
	await group.first().click();
	const action = creatorEntry(page, node.type).first();
	await action.waitFor({ state: 'visible', timeout: TIMEOUT });
	const name = (await action.locator(SELECTORS.creatorItemName).textContent())?.trim() ?? '';
	// n8n names a grouped trigger "On new <node> event", or after its Event option's values when it
	// has one (the Ads Trigger: "Status Changed", "New Ad").
	const event = node.description.properties.find((p) => p.name === 'event') as
		{ options?: Array<{ name: string }> } | undefined;
	const names = [app, ...(event?.options ?? []).map((option) => option.name)];
	assert.ok(
		names.some((part) => new RegExp(escapeRegExp(part), 'i').test(name)),
		`trigger entry name "${name}" names none of: ${names.join(', ')}`,
	);
	return { listedAs: `"${name}" under "${app}"`, entry: action };
}

/**
 * On the new workflow page: the node is found by its display name in the node creator, with its
 * icon. Returns how it is listed (undefined when not found) and what the page reported meanwhile.
 */
export async function checkInNodeCreator(
	checks: Checks,
	browser: EditorBrowser,
	node: NodeUnderTest,
	packageName: string,
): Promise<{ listedAs?: string; events: PageEvent[] }> {
	const { page, events } = browser;
	events.step = `${node.displayName}: node creator`;
	const mark = events.mark();
	let listedAs: string | undefined;
	await checks.check(
		`${node.displayName}: found by its name in the node creator, with its icon`,
		async () => {
			try {
				await openNodeCreator(page);
				const found = await findInCreator(page, node, packageName);
				const rendered = await assertIconRendered(
					found.entry.locator('img').first(),
					lightIcon(node.description),
				);
				listedAs = found.listedAs;
				console.log(`      listed as ${found.listedAs}; icon ${rendered}`);
			} finally {
				for (const text of await errorToasts(page)) events.add({ kind: 'toast', text, url: '' });
				await closeNodeCreator(page);
			}
		},
	);
	return { listedAs, events: events.since(mark) };
}

/**
 * The workflow holding the node opens with it on the canvas, its panel opens on a double-click
 * with the sandbox credential and the main parameters, nothing reported an error about the
 * package (`earlier`: what the page reported while the node creator showed it), and a screenshot.
 */
export async function checkNodeInEditor(
	checks: Checks,
	browser: EditorBrowser,
	baseUrl: string,
	node: NodeUnderTest,
	credentialName: string,
	screenshotFile: string,
	earlier: PageEvent[],
): Promise<Pick<NodeFindings, 'parameters' | 'screenshot'>> {
	const { page, events } = browser;
	const findings: Pick<NodeFindings, 'parameters' | 'screenshot'> = { parameters: [] };
	events.step = `${node.displayName}: canvas and panel`;
	const mark = events.mark();
	const icon = lightIcon(node.description);

	let canvasOk = false;
	await checks.check(`the workflow holding it opens with the node on the canvas`, async () => {
		await openRoute(page, baseUrl, `/workflow/${node.workflowId}`);
		const onCanvas = canvasNode(page, node.nodeName);
		await onCanvas.waitFor({ state: 'visible', timeout: 60_000 });
		await assertIconRendered(onCanvas.locator('img').first(), icon);
		canvasOk = true;
	});

	let expected: string[] = [];
	await checks.check(
		'double-click opens its panel with the sandbox credential and the main parameters',
		async () => {
			assert.ok(canvasOk, 'the node is not on the canvas');
			const main = mainParameters(node.description);
			expected = main.map((p) => p.name);
			await canvasNode(page, node.nodeName).dblclick();
			const ndv = page.locator(SELECTORS.ndv);
			await ndv.waitFor({ state: 'visible', timeout: TIMEOUT });
			const credential = ndv.locator(`${SELECTORS.credentialSelect} input`).first();
			await credential.waitFor({ state: 'visible', timeout: TIMEOUT });
			await waitFor(`the credential selector to show "${credentialName}"`, async () =>
				(await credential.inputValue()) === credentialName ? true : undefined,
			);
			const missing: string[] = [];
			for (const parameter of main) {
				const input = ndv.locator(SELECTORS.parameterInput(parameter.name)).first();
				try {
					await input.waitFor({ state: 'visible', timeout: 5_000 });
				} catch {
					missing.push(`${parameter.name} (${parameter.type}, ${parameter.reason})`);
				}
			}
			findings.parameters = expected;
			assert.deepEqual(missing, [], 'parameter inputs not shown');
			console.log(`      credential "${credentialName}"; parameters ${expected.join(', ')}`);
		},
	);

	await checks.check('no error toast, and no console or page error about our package', async () => {
		const seen = [...earlier, ...events.since(mark)];
		const toasts = [
			...seen.filter((e) => e.kind === 'toast').map((e) => e.text),
			...(await errorToasts(page)),
		];
		const ours = seen.filter((e) => e.kind !== 'toast' && events.concernsPackage(e));
		assert.deepEqual({ toasts, errors: ours.map(describe) }, { toasts: [], errors: [] });
	});

	await checks.check('a screenshot of its panel', async () => {
		await page.screenshot({ path: screenshotFile });
		findings.screenshot = screenshotFile;
	});
	return findings;
}

/** The file name of a node's screenshot: its position and display name. */
function screenshotName(index: number, displayName: string): string {
	return `${String(index + 1).padStart(2, '0')}-${displayName.replace(/[^\w]+/g, '-').toLowerCase()}.png`;
}

export function screenshotPath(dir: string, index: number, displayName: string): string {
	return join(dir, screenshotName(index, displayName));
}
