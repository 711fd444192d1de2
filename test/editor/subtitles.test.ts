import { NodeHelpers, Workflow, type INode, type INodeParameters, type INodeType } from 'n8n-workflow';
import { nodeTypes, PACKAGE_NAME } from '../../harness';

/** The subtitle as n8n's editor computes it for a node on the canvas (parameters with their defaults). */
function subtitleOf(type: string, parameters: INodeParameters = {}, typeVersion?: number): unknown {
	const types = nodeTypes();
	const nodeType = types.getByNameAndVersion(`${PACKAGE_NAME}.${type}`, typeVersion) as INodeType;
	const description = nodeType.description;
	const version = typeVersion ?? (Array.isArray(description.version) ? Math.max(...description.version) : description.version);
	const node: INode = {
		id: 'n1',
		name: 'Node',
		type: `${PACKAGE_NAME}.${type}`,
		typeVersion: version,
		position: [0, 0],
		parameters: {},
	};
	node.parameters =
		NodeHelpers.getNodeParameters(description.properties, parameters, true, false, node, description) ?? {};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: types });
	return workflow.expression.getSimpleParameterValue(node, description.subtitle as string, 'internal', {});
}

describe('canvas subtitles are words, not parameter values', () => {
	test.each([
		['adCabinetStats', {}, 'Get Many: Statistic'],
		['adCabinetStats', { resource: 'advertisedObject' }, 'Get Many: Advertised Object'],
		['adCabinetAds', {}, 'Get Many: Ad'],
		['adCabinetAds', { operation: 'validateBots' }, 'Validate Bots: Ad'],
		['adCabinetMedia', {}, 'Upload: Media'],
		['adCabinetKktu', {}, 'Get Many: Category'],
		['adCabinetPixelEvents', { operation: 'getBaseCode' }, 'Get Base Code: Pixel Event'],
		['adCabinetStatsTrigger', {}, 'Daily rows'],
		['adCabinetStatsTrigger', { periodGroupingUnit: '30_minutes', emit: 'everyChange' }, '30-minute rows, every change'],
	])('%s %j → "%s"', (type, parameters, expected) => {
		expect(subtitleOf(type, parameters as INodeParameters)).toBe(expected);
	});
});
