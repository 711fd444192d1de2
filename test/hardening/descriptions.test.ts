import type { INodeType } from 'n8n-workflow';
import { AdCabinetAds } from '../../nodes/AdCabinetAds/AdCabinetAds.node';
import { AdCabinetAudiences } from '../../nodes/AdCabinetAudiences/AdCabinetAudiences.node';
import { AdCabinetKktu } from '../../nodes/AdCabinetKktu/AdCabinetKktu.node';
import { AdCabinetMedia } from '../../nodes/AdCabinetMedia/AdCabinetMedia.node';
import { AdCabinetPixelEvents } from '../../nodes/AdCabinetPixelEvents/AdCabinetPixelEvents.node';
import { AdCabinetStats } from '../../nodes/AdCabinetStats/AdCabinetStats.node';
import { AdCabinetStatsTrigger } from '../../nodes/AdCabinetStatsTrigger/AdCabinetStatsTrigger.node';
import { AdCabinetAdsTrigger } from '../../nodes/AdCabinetAdsTrigger/AdCabinetAdsTrigger.node';

/**
 * What the editor, saved workflows and AI agents see of each node is its description: every
 * parameter, default, displayOptions and option (with its routing). A change in code layout must
 * not change it, so each node's description is held to a stored copy, with each function in the
 * routing written as its place (a function's body is code, not what the editor sees). The custom
 * operations a node dispatches are held to the same copy.
 */
const NODES: Array<new () => INodeType> = [
	AdCabinetStats,
	AdCabinetAds,
	AdCabinetMedia,
	AdCabinetKktu,
	AdCabinetPixelEvents,
	AdCabinetAudiences,
	AdCabinetStatsTrigger,
	AdCabinetAdsTrigger,
];

function plain(value: unknown): unknown {
	return JSON.parse(
		JSON.stringify(value, (_key, inner: unknown) =>
			typeof inner === 'function' ? '[function]' : inner,
		),
	) as unknown;
}

function customOperationsOf(node: INodeType): Record<string, string[]> {
	const table = (node as { customOperations?: Record<string, Record<string, unknown>> })
		.customOperations;
	const out: Record<string, string[]> = {};
	for (const [resource, operations] of Object.entries(table ?? {})) {
		out[resource] = Object.keys(operations).sort();
	}
	return out;
}

describe('node descriptions stay as saved workflows and the editor know them', () => {
	it.each(NODES.map((Node) => [new Node().description.name, Node] as const))(
		'%s',
		(_name, Node) => {
			const node = new Node();
			expect(plain(node.description)).toMatchSnapshot('description');
			expect(customOperationsOf(node)).toMatchSnapshot('custom operations');
			expect(typeof node.execute).toMatchSnapshot('execute');
		},
	);
});
