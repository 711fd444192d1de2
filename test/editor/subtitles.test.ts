import {
	NodeHelpers,
	Workflow,
	type INode,
	type INodeParameters,
	type INodeType,
	type INodeTypes,
} from 'n8n-workflow';
import { nodeTypes, PACKAGE_NAME } from '../../harness';
// After the harness, which sets n8n's environment up before n8n-core loads.
import { DirectoryLoader } from 'n8n-core';

/**
 * The node type as n8n's loader leaves it: a polling trigger gets n8n's Poll Times parameter (the
 * harness's shared node types are left as they are).
 */
function withSpecialParameters(loaded: INodeType): INodeType {
	const copy = {
		...loaded,
		description: { ...loaded.description, properties: [...loaded.description.properties] },
	};
	const loader = DirectoryLoader.prototype as unknown as {
		applySpecialNodeParameters(nodeType: INodeType): void;
	};
	loader.applySpecialNodeParameters.call(undefined, copy as INodeType);
	return copy as INodeType;
}

/** An expression of the node's description as n8n's editor evaluates it for a node (parameters with their defaults). */
function evaluate(
	type: string,
	expression: (description: INodeType['description']) => string,
	parameters: INodeParameters = {},
	typeVersion?: number,
): unknown {
	const types = nodeTypes();
	const nodeType = withSpecialParameters(
		types.getByNameAndVersion(`${PACKAGE_NAME}.${type}`, typeVersion) as INodeType,
	);
	const description = nodeType.description;
	const version =
		typeVersion ??
		(Array.isArray(description.version) ? Math.max(...description.version) : description.version);
	const node: INode = {
		id: 'n1',
		name: 'Node',
		type: `${PACKAGE_NAME}.${type}`,
		typeVersion: version,
		position: [0, 0],
		parameters: {},
	};
	// The parameters as the editor holds them: defaults filled in, the values set kept as they are.
	node.parameters = {
		...NodeHelpers.getNodeParameters(
			description.properties,
			parameters,
			true,
			false,
			node,
			description,
		),
		...parameters,
	};
	const single: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: single,
	});
	return workflow.expression.getSimpleParameterValue(node, expression(description), 'internal', {});
}

const subtitleOf = (type: string, parameters: INodeParameters = {}) =>
	evaluate(type, (description) => description.subtitle as string, parameters);

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
		[
			'adCabinetStatsTrigger',
			{ periodGroupingUnit: '30_minutes', emit: 'everyChange' },
			'30-minute rows, every change',
		],
	])('%s %j → "%s"', (type, parameters, expected) => {
		expect(subtitleOf(type, parameters as INodeParameters)).toBe(expected);
	});
});

describe('the Stats Trigger panel hints when Poll Times does not suit the unit', () => {
	const pollHint = (parameters: INodeParameters) =>
		evaluate(
			'adCabinetStatsTrigger',
			(description) => description.hints?.[0]?.displayCondition as string,
			parameters,
		);
	const every = (mode: string) => ({ pollTimes: { item: [{ mode }] } });

	test.each([
		[{ periodGroupingUnit: 'day', ...every('everyMinute') }, true],
		[{ periodGroupingUnit: 'month', ...every('everyMinute') }, true],
		[{ periodGroupingUnit: 'day', ...every('everyHour') }, false],
		[{ periodGroupingUnit: 'hour', ...every('everyMinute') }, false],
		[{ periodGroupingUnit: '5_minutes', ...every('everyMinute') }, false],
		[{ periodGroupingUnit: 'day', emit: 'everyChange', ...every('everyMinute') }, false],
	])('%j → shown: %s', (parameters, shown) => {
		expect(pollHint(parameters as INodeParameters)).toBe(shown);
	});
});
