import {
	NodeHelpers,
	type INode,
	type INodeParameters,
	type INodePropertyOptions,
	type INodeTypeDescription,
} from 'n8n-workflow';
import { nodeTypes, PACKAGE_NAME, runNode } from '../../harness';
import { credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';

const TOOL_NODES = [
	'adCabinetStats',
	'adCabinetAds',
	'adCabinetMedia',
	'adCabinetKktu',
	'adCabinetPixelEvents',
	'adCabinetAudiences',
];

function description(type: string): INodeTypeDescription {
	return nodeTypes().getByNameAndVersion(`${PACKAGE_NAME}.${type}`).description;
}

/** The tool variant as n8n makes it (name + "Tool"), which is what `@tool` display options test. */
function asTool(type: string): INodeTypeDescription {
	const plain = description(type);
	return { ...plain, name: `${plain.name}Tool`, displayName: `${plain.displayName} Tool` };
}

/** Every resource/operation pair of a node, from its Resource and Operation options. */
function operations(
	desc: INodeTypeDescription,
): Array<{ resource: string; operation: string; action: string }> {
	const resources = (desc.properties.find((p) => p.name === 'resource')?.options ??
		[]) as INodePropertyOptions[];
	return resources.flatMap(({ value: resource }) =>
		desc.properties
			.filter(
				(p) =>
					p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource as string),
			)
			.flatMap((p) => (p.options ?? []) as INodePropertyOptions[])
			.map((o) => ({
				resource: String(resource),
				operation: String(o.value),
				action: String(o.action),
			})),
	);
}

/** The parameters n8n resolves for a node of this type (defaults filled, hidden ones dropped). */
function resolved(desc: INodeTypeDescription, parameters: INodeParameters): INodeParameters {
	const node = { parameters, typeVersion: 1 } as unknown as INode;
	return NodeHelpers.getNodeParameters(desc.properties, parameters, true, false, node, desc) ?? {};
}

describe('our nodes as AI agent tools', () => {
	test.each(TOOL_NODES)(
		'%s: every operation tells the agent more than its action, and only on the tool',
		(type) => {
			const tool = asTool(type);
			const plain = description(type);
			const ops = operations(plain);
			expect(ops.length).toBeGreaterThan(0);
			for (const { resource, operation, action } of ops) {
				const toolParameters = resolved(tool, { resource, operation });
				const text = toolParameters.toolDescription as string;
				const node = {
					name: action,
					type: tool.name,
					typeVersion: 1,
					parameters: toolParameters,
				} as unknown as INode;
				// What n8n hands the model as the tool's description.
				expect(NodeHelpers.getToolDescriptionForNode(node, { description: tool } as never)).toBe(
					text,
				);
				expect(text.length).toBeGreaterThan(`${action} in ${plain.defaults.name}`.length + 40);
				expect(text.length).toBeLessThan(1024);
				expect(text).not.toMatch(/spec \d/);
				// The plain node shows no such parameter.
				expect(resolved(plain, { resource, operation })).not.toHaveProperty('toolDescription');
			}
		},
	);

	test('the texts name the limits an agent cannot guess', () => {
		const text = (type: string, resource: string, operation: string) =>
			resolved(asTool(type), { resource, operation }).toolDescription as string;
		const stats = text('adCabinetStats', 'statistic', 'getAll');
		expect(stats).toContain('at most 2 days and start at most 5 days ago');
		expect(stats).toContain('Limit');
		expect(text('adCabinetAds', 'ad', 'getAll')).toContain('up to 500');
		// The event id an ad takes, by the name Adstat gives it; the Generic form is not named.
		expect(text('adCabinetPixelEvents', 'pixelEvent', 'getAll')).toContain(
			"an ad's Pixel Event takes the tg_event_id",
		);
		expect(text('adCabinetPixelEvents', 'pixelEvent', 'getAll')).not.toMatch(/Generic|ext_/);
		expect(text('adCabinetAds', 'ad', 'create')).toContain('Ad Cabinet KKTU');
		expect(text('adCabinetMedia', 'media', 'upload')).toContain('File URL');
		expect(text('adCabinetAudiences', 'audience', 'create')).toContain('at least 1,000 numbers');
	});

	test('Simplify is on for the tool and off on the plain node; Media and Audiences tools default to a URL and a list', () => {
		expect(
			resolved(asTool('adCabinetStats'), { resource: 'statistic', operation: 'getAll' }).simplify,
		).toBe(true);
		expect(
			resolved(description('adCabinetStats'), { resource: 'statistic', operation: 'getAll' })
				.simplify,
		).toBe(false);
		expect(resolved(asTool('adCabinetAds'), { resource: 'ad', operation: 'getAll' }).simplify).toBe(
			true,
		);
		expect(
			resolved(description('adCabinetAds'), { resource: 'ad', operation: 'getAll' }).simplify,
		).toBe(false);
		expect(
			resolved(asTool('adCabinetMedia'), { resource: 'media', operation: 'upload' }).source,
		).toBe('url');
		expect(
			resolved(description('adCabinetMedia'), { resource: 'media', operation: 'upload' }).source,
		).toBe('binary');
		expect(
			resolved(asTool('adCabinetAudiences'), { resource: 'audience', operation: 'create' }).source,
		).toBe('list');
		expect(
			resolved(description('adCabinetAudiences'), { resource: 'audience', operation: 'create' })
				.source,
		).toBe('items');
	});
});

describe('Simplify', () => {
	const sandbox = useSandbox({ now: '2026-11-20T12:00:00.000Z' });

	test('statistics rows keep the period, who they are about and the figures, with the same values', async () => {
		const parameters: INodeParameters = {
			resource: 'statistic',
			operation: 'getAll',
			period: 'custom',
			periodFrom: '2026-11-01T00:00:00Z',
			periodTo: '2026-11-03T23:59:59Z',
			periodGroupingUnit: 'day',
			grouping: ['campaign'],
			returnAll: true,
		};
		const full = await runNode({
			type: 'adCabinetStats',
			parameters,
			credentials: credentialsFor(sandbox()),
		});
		const simple = await runNode({
			type: 'adCabinetStats',
			parameters: { ...parameters, simplify: true },
			credentials: credentialsFor(sandbox()),
		});
		expect(simple.items.length).toBe(full.items.length);
		expect(simple.items.length).toBeGreaterThan(0);
		for (const [i, item] of simple.items.entries()) {
			expect(Object.keys(item.json)).toEqual([
				'period_date',
				'platform_cabinet_name',
				'campaign_id',
				'campaign_name',
				'exchanged_spent',
				'exchange_currency',
				'views',
				'clicks',
				'actions',
				'ctr',
				'cpc',
				'cpm',
				'cpa',
				'cvr',
			]);
			for (const [key, value] of Object.entries(item.json))
				expect(value).toEqual(full.items[i].json[key]);
		}
	});

	test('the ad list keeps id, title, status and the figures', async () => {
		const { items, error } = await runNode({
			type: 'adCabinetAds',
			parameters: {
				resource: 'ad',
				operation: 'getAll',
				returnAll: false,
				limit: 3,
				simplify: true,
			},
			credentials: credentialsFor(sandbox()),
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
		for (const item of items) {
			expect(Object.keys(item.json)).toEqual([
				'id',
				'advertisement_title',
				'status',
				'ad_type',
				'campaign_id',
				'campaign_name',
				'object',
				'cpm',
				'balance',
				'spent',
				'impressions',
				'clicks',
				'ctr',
				'goals',
			]);
		}
	});
	test('pixel events keep id, event ID, title, type, status and how many ads use them', async () => {
		const parameters: INodeParameters = {
			resource: 'pixelEvent',
			operation: 'getAll',
			accountId: 'ACC07021',
		};
		const full = await runNode({
			type: 'adCabinetPixelEvents',
			parameters,
			credentials: credentialsFor(sandbox()),
		});
		const simple = await runNode({
			type: 'adCabinetPixelEvents',
			parameters: { ...parameters, simplify: true },
			credentials: credentialsFor(sandbox()),
		});
		expect(full.items[0].json).toHaveProperty('code_snippet');
		expect(simple.items.map((item) => item.json)).toEqual(
			full.items.map(({ json }) => ({
				id: json.id,
				tg_event_id: json.tg_event_id,
				title: json.title,
				type: json.type,
				status: json.status,
				ads_count: json.ads_count,
			})),
		);
	});
});
