import { NodeHelpers, type INode, type INodeParameters, type INodeType } from 'n8n-workflow';
import { nodeTypes, PACKAGE_NAME, runNode } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';

function typeOf(type: string): INodeType {
	return nodeTypes().getByNameAndVersion(`${PACKAGE_NAME}.${type}`) as INodeType;
}

function latest(type: string): number {
	const { version } = typeOf(type).description;
	return Array.isArray(version) ? Math.max(...version) : version;
}

/** The parameters n8n gives a node added with nothing set (or a saved node holding `stored`). */
function opened(
	type: string,
	typeVersion = latest(type),
	stored: INodeParameters = {},
): INodeParameters {
	const description = typeOf(type).description;
	const node: INode = {
		id: 'n1',
		name: 'Node',
		type: `${PACKAGE_NAME}.${type}`,
		typeVersion,
		position: [0, 0],
		parameters: stored,
	};
	return (
		NodeHelpers.getNodeParameters(description.properties, stored, true, false, node, description) ??
		{}
	);
}

/** The values a shown options parameter offers, for a node of this version and parameters. */
function offered(type: string, name: string, typeVersion: number): string[] {
	const description = typeOf(type).description;
	const values = opened(type, typeVersion);
	const node = { typeVersion } as INode;
	return description.properties
		.filter((p) => p.name === name && NodeHelpers.displayParameter(values, p, node, description))
		.flatMap((p) => (p.options ?? []).map((o) => String((o as { value: string }).value)));
}

const READS = new Set(['getAll', 'get', 'getTree', 'getTypes', 'getBaseCode']);

describe('a node added to a workflow opens on a read', () => {
	test.each([
		'adCabinetStats',
		'adCabinetAds',
		'adCabinetKktu',
		'adCabinetPixelEvents',
		'adCabinetAudiences',
	])('%s', (type) => {
		expect(READS.has(String(opened(type).operation))).toBe(true);
	});

	test('Ad Cabinet Audiences: a new node opens on Get Many; a saved version 1 node keeps Create', () => {
		expect(opened('adCabinetAudiences').operation).toBe('getAll');
		expect(opened('adCabinetAudiences', 1).operation).toBe('create');
	});
});

describe('the Legacy Report is hidden for new nodes, kept for saved ones', () => {
	test('a new Stats node does not offer it; a saved version 1 node does', () => {
		expect(offered('adCabinetStats', 'resource', latest('adCabinetStats'))).toEqual([
			'advertisedObject',
			'statistic',
		]);
		expect(offered('adCabinetStats', 'resource', 1)).toEqual([
			'advertisedObject',
			'legacyReport',
			'statistic',
		]);
	});
});

describe('saved version 1 nodes run as before', () => {
	const sandbox = useSandbox({ now: '2026-11-20T12:00:00.000Z' });

	test('an Audiences version 1 node with no operation stored still creates (its old default)', async () => {
		const { error } = await runNode({
			type: 'adCabinetAudiences',
			typeVersion: 1,
			parameters: {
				resource: 'audience',
				accountId: 'ACC06163',
				title: 'Saved',
				source: 'items',
				phoneField: 'phone',
			},
			credentials: credentialsFor(sandbox()),
			input: [{ phone: '998901234567' }],
		});
		// Too few numbers for an audience: refused by the Create rules, before any request.
		expect(error?.message).toMatch(/at least 1,000 numbers/);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	test('an Audiences node of the current version with no operation stored lists audiences', async () => {
		const { error } = await runNode({
			type: 'adCabinetAudiences',
			typeVersion: latest('adCabinetAudiences'),
			parameters: { resource: 'audience', accountId: 'ACC06163', returnAll: true },
			credentials: credentialsFor(sandbox()),
		});
		expect(error).toBeUndefined();
		expect(apiRequests(sandbox()).map((r) => r.method)).toEqual(['GET']);
	});
});
