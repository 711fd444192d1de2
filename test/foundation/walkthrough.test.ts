import {
	NodeConnectionTypes,
	type DeclarativeRestApiSettings,
	type IDataObject,
	type IExecuteFunctions,
	type IExecuteSingleFunctions,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';
import { DirectoryLoader } from 'n8n-core';
import { nodeTypes, PACKAGE_NAME, runNode } from '../../harness';
import { apiRequests, credentialsFor } from '../../harness/sandbox';
import { useSandbox } from '../support/useSandbox';
import { cabinetIdFields, readCabinetId } from '../../nodes/shared/cabinetId';
import { CREDENTIAL_TYPE, PATHS } from '../../nodes/shared/constants';
import {
	customOperationsOf,
	defineResource,
	resourceParameter,
	type Operation,
} from '../../nodes/shared/operation';
import { eachItem } from '../../nodes/shared/perItem';
import { operationSubtitle } from '../../nodes/shared/subtitle';
import { baseUrlExpression } from '../../nodes/shared/transport/baseUrl';
import { cabinetAccessHint } from '../../nodes/shared/transport/nodeErrors';
import type { Failure } from '../../nodes/shared/transport/apiFailure';
import { apiRequest, connectionOptions } from '../../nodes/shared/transport/request';
import { recordToItem, routed } from '../../nodes/shared/transport/routing';

/**
 * docs/development.md's "add a new resource", followed step by step on a scratch resource (the
 * pixel base code, an endpoint the sandbox already serves, so step 7 is done). If a step of the
 * walk-through stops producing a working operation, this fails.
 */

// Step 1: the endpoint is in PATHS (PATHS.pixelBaseCode, served by the Client API).

// Step 3: the advice for the API's refusals, beside the operations that raise them.
function scratchHint(this: IExecuteSingleFunctions, failure: Failure): string | undefined {
	const cabinet = String(this.getNodeParameter('accountId', '', { extractValue: true }));
	return failure.status === 403 ? cabinetAccessHint(`cabinet ${cabinet}`) : undefined;
}

// Step 2: one contract per operation: its option, its fields, and its routing or execute.
const show = { resource: ['scratchCode'], operation: ['get'] };

async function prepareScratchGet(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
): Promise<void> {
	const cabinet = readCabinetId(
		this.getNode(),
		this.getNodeParameter('accountId', ''),
		this.getItemIndex(),
	);
	options.url = PATHS.pixelBaseCode(cabinet);
}

const scratchCodeGet: Operation = {
	option: {
		name: 'Get',
		value: 'get',
		action: 'Get the scratch code',
		description: "The cabinet's base pixel code",
	},
	fields: cabinetIdFields(show, [1]),
	routing: {
		request: { method: 'GET' },
		...routed({ prepare: prepareScratchGet, hint: scratchHint }),
		output: { postReceive: [recordToItem()] },
	},
};

// A custom operation of the same resource, to see the node dispatch `execute` from the contract.
const scratchCodeGetTypes: Operation = {
	option: {
		name: 'Get Types',
		value: 'getTypes',
		action: 'Get the scratch types',
		description: 'The event types, read by custom code',
	},
	fields: [],
	async execute(this: IExecuteFunctions) {
		return [
			await eachItem(this, async (_item, i) => {
				const body = (await apiRequest.call(this, {
					api: 'client',
					method: 'GET',
					path: PATHS.pixelEventTypes,
					itemIndex: i,
					connection: connectionOptions(this, i),
				})) as { items: IDataObject[] };
				return { types: body.items.length };
			}),
		];
	},
};

// Step 4: the resource's index lists its operations.
const scratchCodeResource = defineResource({
	resource: 'scratchCode',
	displayName: 'Scratch Code',
	defaultOperation: 'get',
	operations: [scratchCodeGet, scratchCodeGetTypes],
});

// Step 5: the node file assembles its resources.
const resources = [scratchCodeResource];
const properties: INodeProperties[] = [
	resourceParameter(resources, 'scratchCode'),
	...resources.flatMap((resource) => resource.properties),
];

class ScratchNode implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scratch',
		name: 'scratchWalkthrough',
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(properties),
		description: 'A node built by the walk-through',
		defaults: { name: 'Scratch' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		requestDefaults: {
			baseURL: baseUrlExpression('client'),
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
			json: true,
		},
		properties: [...properties],
	};

	customOperations = customOperationsOf(resources);
}

const CABINET = 'ACC07021';
const NO_ACCESS_CABINET = 'ACC08112';

describe('the walk-through for a new resource builds a working operation', () => {
	const sandbox = useSandbox();

	beforeAll(() => {
		const node = new ScratchNode();
		DirectoryLoader.applyDeclarativeNodeOptionParameters(node);
		nodeTypes().types.set(`${PACKAGE_NAME}.${node.description.name}`, node);
	});

	const run = (parameters: IDataObject) =>
		runNode({
			type: 'scratchWalkthrough',
			parameters: { resource: 'scratchCode', ...parameters },
			credentials: credentialsFor(sandbox()),
		});

	test('the Resource and Operation dropdowns come from the contracts', () => {
		const [resource, operation] = new ScratchNode().description.properties;
		expect(resource.options).toEqual([{ name: 'Scratch Code', value: 'scratchCode' }]);
		expect(operation.displayOptions).toEqual({ show: { resource: ['scratchCode'] } });
		expect(operation.default).toBe('get');
		expect((operation.options ?? []).map((option) => (option as { name: string }).name)).toEqual([
			'Get',
			'Get Types',
		]);
		expect(Object.keys(customOperationsOf(resources).scratchCode)).toEqual(['getTypes']);
	});

	test('the declarative operation sends its request and outputs the answer', async () => {
		const { items, error } = await run({ operation: 'get', accountId: CABINET });
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual([sandbox().data.pixelCode(CABINET)]);
		expect(apiRequests(sandbox()).map((request) => [request.method, request.path])).toEqual([
			['GET', `/api/pixel_events/${CABINET}/code_snippet`],
		]);
	});

	test("a refusal carries the operation's hint", async () => {
		const { error } = await run({ operation: 'get', accountId: NO_ACCESS_CABINET });
		expect(error?.message).toMatch(/refused the request with 403/);
		expect(error?.message).toContain(cabinetAccessHint(`cabinet ${NO_ACCESS_CABINET}`));
	});

	test('the custom operation runs from the contract through customOperations', async () => {
		const { items, error } = await run({ operation: 'getTypes' });
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual([
			{ types: sandbox().data.pixelEventTypes.length },
		]);
		expect(apiRequests(sandbox()).map((request) => request.path)).toEqual([
			'/api/pixel_events/types',
		]);
	});

	test('an empty cabinet is refused before anything is sent', async () => {
		const { error } = await run({ operation: 'get', accountId: '={{ "" }}' });
		expect(error?.message).toMatch(/^Cabinet ID: is required/);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});
});
