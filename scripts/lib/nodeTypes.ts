/**
 * What the editor of a running n8n knows about this package: the node and credential types it
 * serves (/types/nodes.json, /types/credentials.json, after login) and their icons.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { Checks } from './checks';
import type { PackageJson } from './installPackage';
import type { N8nRest } from './rest';
import { REPO_ROOT } from './runtime';
import { CREDENTIAL_TYPE, type Example } from './workflows';

/** Every node type of the package and its display name, as users find them in the editor. */
export const EXPECTED_NODES: Record<string, string> = {
	adCabinetStats: 'Ad Cabinet Stats',
	adCabinetAds: 'Ad Cabinet Ads',
	adCabinetMedia: 'Ad Cabinet Media',
	adCabinetKktu: 'Ad Cabinet KKTU',
	adCabinetPixelEvents: 'Ad Cabinet Pixel Events',
	adCabinetAudiences: 'Ad Cabinet Audiences',
	adCabinetStatsTrigger: 'Ad Cabinet Stats Trigger',
	adCabinetAdsTrigger: 'Ad Cabinet Ads Trigger',
};
const EXPECTED_CREDENTIAL_DISPLAY_NAME = 'Ad Cabinet API';

type IconUrl = string | { light: string; dark: string };

interface ServedNodeType {
	name: string;
	displayName: string;
	version: number | number[];
	iconUrl?: IconUrl;
	icon?: unknown;
	credentials?: Array<{ name: string; required?: boolean }>;
	polling?: boolean;
}

interface ServedCredentialType {
	name: string;
	displayName: string;
	iconUrl?: IconUrl;
	supportedNodes?: string[];
}

interface OwnNode {
	/** Full type as workflows use it: `<package>.<name>`. */
	type: string;
	name: string;
	displayName: string;
	usableAsTool: boolean;
	polling: boolean;
}

/**
 * Our node descriptions, read from the built files package.json lists (the files n8n loads), and
 * the files that could not be read (not built, or not exporting a node class).
 */
export function ownNodes(pkg: PackageJson): { nodes: OwnNode[]; unreadable: string[] } {
	const nodes: OwnNode[] = [];
	const unreadable: string[] = [];
	for (const file of pkg.n8n.nodes) {
		try {
			const mod = require(join(REPO_ROOT, file)) as Record<string, unknown>;
			const Ctor = Object.values(mod).find((value) => typeof value === 'function') as
				(new () => { description: Record<string, unknown> }) | undefined;
			if (!Ctor) throw new Error('exports no node class');
			const { description } = new Ctor();
			nodes.push({
				type: `${pkg.name}.${String(description.name)}`,
				name: String(description.name),
				displayName: String(description.displayName),
				usableAsTool: description.usableAsTool === true,
				polling: description.polling === true,
			});
		} catch (error) {
			unreadable.push(`${file}: ${(error as Error).message.split('\n')[0]}`);
		}
	}
	return { nodes, unreadable };
}

function iconPaths(iconUrl: IconUrl | undefined): string[] {
	if (!iconUrl) return [];
	return typeof iconUrl === 'string' ? [iconUrl] : [iconUrl.light, iconUrl.dark];
}

async function assertSvg(rest: N8nRest, path: string): Promise<void> {
	const response = await rest.fetchRaw(`/${path.replace(/^\//, '')}`);
	const body = await response.text();
	assert.equal(response.status, 200, `icon ${path} answered ${response.status}`);
	assert.match(
		response.headers.get('content-type') ?? '',
		/image\/svg\+xml/,
		`icon ${path} content type`,
	);
	assert.match(body, /<svg[\s>]/, `icon ${path} is not an SVG`);
}

function versionsOf(type: ServedNodeType): number[] {
	return Array.isArray(type.version) ? type.version : [type.version];
}

export async function checkNodeTypes(
	checks: Checks,
	rest: N8nRest,
	pkg: PackageJson,
	examples: Example[],
): Promise<void> {
	const { nodes, unreadable } = ownNodes(pkg);
	await checks.check(`every node file in package.json n8n.nodes is built`, () => {
		assert.deepEqual(unreadable, []);
	});
	const served = await rest.typeFile<ServedNodeType[]>('/types/nodes.json');
	const credentials = await rest.typeFile<ServedCredentialType[]>('/types/credentials.json');
	const byName = new Map(served.map((type) => [type.name, type]));
	// A versioned node appears once per group of versions (Set: [1, 2] and [3, …, 3.5]).
	const versions = new Map<string, number[]>();
	for (const type of served)
		versions.set(type.name, [...(versions.get(type.name) ?? []), ...versionsOf(type)]);

	await checks.check(
		`package.json registers all ${Object.keys(EXPECTED_NODES).length} Ad Cabinet node types`,
		() => {
			const registered = new Set(nodes.map((node) => node.name));
			const missing = Object.keys(EXPECTED_NODES).filter((name) => !registered.has(name));
			assert.deepEqual(missing, [], `not in package.json n8n.nodes: ${missing.join(', ')}`);
		},
	);

	for (const node of nodes) {
		await checks.check(
			`n8n serves ${node.type} ("${node.displayName}") with its icons and credential`,
			async () => {
				const type = byName.get(node.type);
				assert.ok(type, `${node.type} is not in /types/nodes.json`);
				assert.equal(
					type.displayName,
					EXPECTED_NODES[node.name] ?? node.displayName,
					'display name',
				);
				assert.equal(
					type.displayName,
					node.displayName,
					'display name differs from the built description',
				);
				const icons = iconPaths(type.iconUrl);
				assert.equal(
					icons.length,
					2,
					`expected a light and a dark icon URL, got ${JSON.stringify(type.iconUrl)}`,
				);
				for (const icon of icons) await assertSvg(rest, icon);
				assert.deepEqual(
					(type.credentials ?? []).filter((c) => c.name === CREDENTIAL_TYPE),
					[{ name: CREDENTIAL_TYPE, required: true }],
					'credentials',
				);
				if (node.usableAsTool) {
					assert.ok(
						byName.has(`${node.type}Tool`),
						`${node.type}Tool (usable as an AI tool) is missing`,
					);
				}
			},
		);
	}

	await checks.check(
		`n8n serves the ${CREDENTIAL_TYPE} credential type for every node`,
		async () => {
			const credential = credentials.find((c) => c.name === CREDENTIAL_TYPE);
			assert.ok(credential, `${CREDENTIAL_TYPE} is not in /types/credentials.json`);
			assert.equal(credential.displayName, EXPECTED_CREDENTIAL_DISPLAY_NAME);
			for (const icon of iconPaths(credential.iconUrl)) await assertSvg(rest, icon);
			const unsupported = nodes.filter((node) => !credential.supportedNodes?.includes(node.type));
			assert.deepEqual(
				unsupported.map((n) => n.type),
				[],
				'nodes missing from supportedNodes',
			);
		},
	);

	await checks.check('every node of every example is a type and version this n8n knows', () => {
		const unknown: string[] = [];
		for (const example of examples) {
			for (const node of example.workflow.nodes) {
				if (!versions.get(node.type)?.includes(node.typeVersion)) {
					unknown.push(`${example.file}: "${node.name}" ${node.type} v${node.typeVersion}`);
				}
			}
		}
		assert.deepEqual(unknown, []);
	});
}
