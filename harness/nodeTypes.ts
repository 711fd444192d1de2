import './env';
import { join } from 'node:path';
import type {
	ICredentialType,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
	INodeExecutionData,
	IExecuteFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeHelpers } from 'n8n-workflow';
import { DirectoryLoader, RoutingNode, type ExecuteContext } from 'n8n-core';
import { HarnessToolCaller } from './toolCaller';

const ROOT = join(__dirname, '..');
const pkg = require(join(ROOT, 'package.json')) as {
	name: string;
	n8n: { nodes: string[]; credentials: string[] };
};

/** n8n core nodes the example workflows use, loaded from n8n-nodes-base's build. */
const CORE_NODES: Record<string, string> = {
	manualTrigger: 'ManualTrigger/ManualTrigger.node.js',
	convertToFile: 'Files/ConvertToFile/ConvertToFile.node.js',
	httpRequest: 'HttpRequest/HttpRequest.node.js',
	splitOut: 'Transform/SplitOut/SplitOut.node.js',
	noOp: 'NoOp/NoOp.node.js',
	set: 'Set/Set.node.js',
	code: 'Code/Code.node.js',
	stickyNote: 'StickyNote/StickyNote.node.js',
	scheduleTrigger: 'Schedule/ScheduleTrigger.node.js',
	if: 'If/If.node.js',
	filter: 'Filter/Filter.node.js',
	merge: 'Merge/Merge.node.js',
	summarize: 'Transform/Summarize/Summarize.node.js',
	aggregate: 'Transform/Aggregate/Aggregate.node.js',
	stopAndError: 'StopAndError/StopAndError.node.js',
	// Only switched off in the examples (a disabled node passes its items on), so never run here.
	googleSheets: 'Google/Sheet/GoogleSheets.node.js',
};

/** A test-only node that emits the items given in its `items` parameter, to feed a node under test. */
class HarnessInput implements INodeType {
	description = {
		displayName: 'Harness Input',
		name: 'harnessInput',
		group: ['input'],
		version: 1,
		description: 'Emits fixed items',
		defaults: { name: 'Input' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as unknown;
		const items = (typeof raw === 'string' ? JSON.parse(raw) : raw) as INodeExecutionData[];
		return [items.map((item, index) => ({ ...item, pairedItem: { item: index } }))];
	}
}

/**
 * The harness has no data tables (n8n keeps them in its database): a Data Table node passes its
 * items on here, so a recipe that logs to one runs to its end. `npm run test:e2e`, `test:sync` and
 * `test:telegram` run the real node.
 */
class HarnessDataTableStandIn implements INodeType {
	description = {
		displayName: 'Data Table (harness pass-through)',
		name: 'dataTable',
		group: ['transform'],
		version: [1, 1.1],
		description: 'Passes its items on',
		defaults: { name: 'Data table' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((item, index) => ({ json: item.json, pairedItem: { item: index } })),
		];
	}
}

/**
 * Under jest the package is loaded from its TypeScript sources (ts-jest compiles them), so a test
 * run after an edit tests the edit, never a stale build. Elsewhere (the benchmark, the demo) it is
 * the built `dist/` that package.json lists, as n8n loads it.
 */
const FROM_SOURCES = process.env.JEST_WORKER_ID !== undefined;

function packageFile(listed: string): string {
	return FROM_SOURCES ? listed.replace(/^dist\//, '').replace(/\.js$/, '.ts') : listed;
}

function firstExport<T>(modulePath: string): T {
	const mod = require(modulePath) as Record<string, new () => T>;
	const Ctor = Object.values(mod).find((value) => typeof value === 'function');
	if (!Ctor) throw new Error(`No class exported by ${modulePath}`);
	return new Ctor();
}

/**
 * What n8n's node registry does to a declarative node whenever it hands it out (n8n 1.123 and 2.41
 * alike): it writes onto the node itself an `execute` that runs n8n-core's RoutingNode, so the
 * workflow engine calls `execute` with its ExecuteContext for every run of the node, plain or tool.
 * The harness does the same, so that the nodes run here as they run in n8n.
 */
function withRegistryExecute(nodeType: INodeType): void {
	const declarative = nodeType.description.requestDefaults !== undefined;
	if (!declarative || nodeType.execute || nodeType.poll || nodeType.trigger) return;
	nodeType.execute = async function (this: ExecuteContext) {
		return (await new RoutingNode(this, nodeType).runNode()) ?? [];
	} as INodeType['execute'];
}

export class HarnessNodeTypes implements INodeTypes {
	readonly types = new Map<string, INodeType | IVersionedNodeType>();

	readonly credentialTypes = new Map<string, ICredentialType>();

	constructor() {
		for (const file of pkg.n8n.nodes) {
			const nodeType = firstExport<INodeType>(join(ROOT, packageFile(file)));
			// Declarative nodes get n8n's standard request options (batching, timeout, proxy) at load time, as in n8n.
			DirectoryLoader.applyDeclarativeNodeOptionParameters(nodeType);
			this.types.set(`${pkg.name}.${nodeType.description.name}`, nodeType);
		}
		for (const file of pkg.n8n.credentials) {
			const credential = firstExport<ICredentialType>(join(ROOT, packageFile(file)));
			this.credentialTypes.set(credential.name, credential);
		}
		this.types.set('harness.input', new HarnessInput());
		this.types.set('harness.toolCaller', new HarnessToolCaller());
		this.types.set('n8n-nodes-base.dataTable', new HarnessDataTableStandIn());
	}

	private loadCore(type: string): INodeType | IVersionedNodeType | undefined {
		const short = type.replace(/^n8n-nodes-base\./, '');
		const file = CORE_NODES[short];
		if (!file || short === type) return undefined;
		const nodeType = firstExport<INodeType | IVersionedNodeType>(
			require.resolve(`n8n-nodes-base/dist/nodes/${file}`),
		);
		this.types.set(type, nodeType);
		return nodeType;
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const found = this.types.get(nodeType) ?? this.loadCore(nodeType);
		if (!found) throw new Error(`Unknown node type: ${nodeType}`);
		return found;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		const ours = nodeType.startsWith(`${pkg.name}.`) && nodeType.endsWith('Tool');
		if (ours) return this.asTool(nodeType.replace(/Tool$/, ''), version);
		const found = NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
		if (nodeType.startsWith(`${pkg.name}.`)) withRegistryExecute(found);
		return found;
	}

	private readonly tools = new Map<string, INodeType>();

	/**
	 * One of our nodes as n8n's server hands it to a tool caller (the MCP Server Trigger, an AI
	 * Agent) under its `…Tool` name: the node registry writes onto the node the `execute` it gives
	 * every declarative node, then extends the node into a tool whose only output is the AI tool
	 * connection.
	 */
	private asTool(baseName: string, version?: number): INodeType {
		const key = `${baseName}@${version ?? 'default'}`;
		const cached = this.tools.get(key);
		if (cached) return cached;
		const registered = NodeHelpers.getVersionedNodeType(this.getByName(baseName), version);
		withRegistryExecute(registered);
		const description = Object.create(registered.description, {
			name: { value: `${registered.description.name}Tool` },
			outputs: { value: [NodeConnectionTypes.AiTool] },
			inputs: { value: [] },
		}) as INodeType['description'];
		const tool = Object.create(registered, { description: { value: description } }) as INodeType;
		this.tools.set(key, tool);
		return tool;
	}

	getKnownTypes() {
		return {};
	}
}

export const PACKAGE_NAME = pkg.name;
