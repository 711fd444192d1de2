/**
 * The words a person types into the node creator to find these nodes: the service's names
 * ("Telegram", "Telegram Ads", "Adstat"), "ads", "statistics" for the statistics nodes, and
 * "moderation" and "declined" for the Ads Trigger. Each
 * word is typed into the search of a new workflow's node creator, and each node expected for it
 * must be listed: by its own entry, or, for a trigger n8n groups under its node ("Ad Cabinet Stats
 * Trigger" under "Ad Cabinet Stats"), by that node's entry. The words reach the nodes through the
 * codex `alias` lists in nodes/<Node>/<Node>.node.json.
 */
import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import type { Checks } from '../lib/checks';
import type { EditorBrowser } from './browser';
import { openNewWorkflow, SELECTORS, type NodeUnderTest } from './nodeChecks';

const TIMEOUT = 20_000;
/** How long the list may take to settle after the last keystroke (n8n renders results lazily). */
const SETTLE_MS = 1_500;

/** The searches and which nodes (type names without the package) each must list. */
const CREATOR_SEARCHES: Array<{ word: string; nodes: 'all' | string[] }> = [
	{ word: 'Telegram', nodes: 'all' },
	{ word: 'Telegram Ads', nodes: 'all' },
	{ word: 'Adstat', nodes: 'all' },
	{ word: 'ads', nodes: 'all' },
	{ word: 'statistics', nodes: ['adCabinetStats', 'adCabinetStatsTrigger'] },
	{ word: 'moderation', nodes: ['adCabinetAdsTrigger'] },
	{ word: 'declined', nodes: ['adCabinetAdsTrigger'] },
];

/** The node types (with the package) whose entries the search result lists, in order. */
async function listedTypes(page: Page, packageName: string): Promise<string[]> {
	const entries = page.locator(
		`${SELECTORS.creatorItem}[data-keyboard-nav-id^=${JSON.stringify(`${packageName}.`)}]`,
	);
	const ids = await entries.evaluateAll((elements) =>
		elements.map((element) => element.getAttribute('data-keyboard-nav-id') ?? ''),
	);
	// An entry's id is its node type, a dash and an id of the entry: `<package>.<name>-<uuid>`.
	return [
		...new Set(ids.map((id) => id.replace(/-[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i, ''))),
	];
}

async function searchFor(page: Page, word: string): Promise<void> {
	const search = page.locator(SELECTORS.searchBar);
	if (!(await search.isVisible())) {
		await page.locator(SELECTORS.plusButton).first().click();
		await search.waitFor({ state: 'visible', timeout: TIMEOUT });
	}
	await search.fill('');
	await search.fill(word);
	await page.waitForTimeout(SETTLE_MS);
}

/**
 * For each word: the node creator of the open (new) workflow lists every node expected for it.
 * A trigger counts as listed when its own entry is there or the entry of the node it is grouped
 * under (its display name less " Trigger").
 */
export async function checkCreatorSearches(
	checks: Checks,
	browser: EditorBrowser,
	baseUrl: string,
	nodes: NodeUnderTest[],
	packageName: string,
): Promise<void> {
	const { page, events } = browser;
	// A fresh new workflow: the checks before may leave the creator inside a node's actions.
	await openNewWorkflow(page, baseUrl);
	const byName = new Map(nodes.map((node) => [node.type.slice(packageName.length + 1), node]));
	for (const { word, nodes: wanted } of CREATOR_SEARCHES) {
		const expected = wanted === 'all' ? [...byName.keys()] : wanted;
		events.step = `node creator search "${word}"`;
		await checks.check(
			`the node creator's search for "${word}" lists ${wanted === 'all' ? 'every node of the package' : expected.map((n) => byName.get(n)?.displayName ?? n).join(' and ')}`,
			async () => {
				await searchFor(page, word);
				const deadline = Date.now() + TIMEOUT;
				let listed: string[] = [];
				let missing: string[] = expected;
				while (Date.now() < deadline) {
					listed = await listedTypes(page, packageName);
					missing = expected.filter((name) => {
						const node = byName.get(name);
						if (!node) return true;
						if (listed.includes(node.type)) return false;
						const host = [...byName.values()].find(
							(other) => other.displayName === node.displayName.replace(/ Trigger$/, ''),
						);
						return !(host && host !== node && listed.includes(host.type));
					});
					if (!missing.length) break;
					await page.waitForTimeout(500);
				}
				console.log(
					`      "${word}": ${listed.map((type) => byName.get(type.slice(packageName.length + 1))?.displayName ?? type).join(', ') || 'none of ours'}`,
				);
				assert.deepEqual(missing, [], `not listed for "${word}"`);
			},
		);
	}
	await page.keyboard.press('Escape');
}
