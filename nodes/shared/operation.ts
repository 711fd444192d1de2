import type {
	IDisplayOptions,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	INodePropertyRouting,
} from 'n8n-workflow';
import { beginCall } from './callDeadline';

/** What the Operation dropdown shows of an operation, and what n8n names its action. */
interface OperationOption {
	name: string;
	value: string;
	action: string;
	description: string;
}

/** The code of a custom operation: n8n calls it once for all input items. */
type OperationExecute = (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

/**
 * An operation that n8n's RoutingNode runs from its `routing`: one request per item (or offset
 * pages), built from the parameters by the routing's preSend steps.
 */
interface DeclarativeOperation {
	option: OperationOption;
	fields: INodeProperties[];
	routing: INodePropertyRouting;
	execute?: never;
}

/**
 * An operation whose work routing cannot express (paging until a count, a cursor, a file built from
 * many items, a multipart upload): the node dispatches it to `execute` through `customOperations`.
 */
interface CustomOperation {
	option: OperationOption;
	fields: INodeProperties[];
	execute: OperationExecute;
	routing?: never;
}

/** Every operation file exports one of these: its option, its parameters, and how it runs. */
export type Operation = DeclarativeOperation | CustomOperation;

/** A value of a node's Resource parameter with its operations. */
export interface Resource {
	/** The Resource parameter's value, e.g. `pixelEvent`. */
	resource: string;
	/** Its name in the Resource dropdown, e.g. "Pixel Event". */
	displayName: string;
	operations: Operation[];
	/** The Operation parameter(s) and then every operation's parameters. */
	properties: INodeProperties[];
}

function optionOf(operation: Operation): INodePropertyOptions {
	return operation.routing ? { ...operation.option, routing: operation.routing } : operation.option;
}

/**
 * The resource's Operation dropdown, built from its operations' options (sorted by name, as n8n's
 * lint rules want). `displayOptions` adds conditions to the resource's own, e.g. a node version.
 */
export function operationParameter(
	resource: string,
	operations: Operation[],
	defaultOperation: string,
	displayOptions: IDisplayOptions = { show: {} },
): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: {
			...displayOptions,
			show: { resource: [resource], ...displayOptions.show },
		},
		default: defaultOperation,
		options: operations
			.map(optionOf)
			.sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' })),
	};
}

/**
 * A resource from its operations, listed in the order their parameters appear in the panel: its
 * Operation parameter (or `operationParameters`, where the dropdown differs between node
 * versions) and then each operation's fields.
 */
export function defineResource(definition: {
	resource: string;
	displayName: string;
	defaultOperation: string;
	operations: Operation[];
	operationParameters?: INodeProperties[];
}): Resource {
	const { resource, displayName, defaultOperation, operations } = definition;
	return {
		resource,
		displayName,
		operations,
		properties: [
			...(definition.operationParameters ?? [
				operationParameter(resource, operations, defaultOperation),
			]),
			...operations.flatMap((operation) => operation.fields),
		],
	};
}

/** The node's Resource parameter from its resources (sorted by name). */
export function resourceParameter(
	resources: Resource[],
	defaultResource: string,
	displayOptions?: IDisplayOptions,
): INodeProperties {
	return {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		default: defaultResource,
		...(displayOptions ? { displayOptions } : {}),
		options: resources
			.map(({ displayName, resource }) => ({ name: displayName, value: resource }))
			.sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' })),
	};
}

/**
 * The node's `customOperations`: each custom operation's execute, by resource and operation. The
 * workflow engine calls them itself, so each marks the start of a tool call's deadline (see
 * callDeadline) as the node's own `execute` does.
 */
export function customOperationsOf(
	resources: Resource[],
): Record<string, Record<string, OperationExecute>> {
	const table: Record<string, Record<string, OperationExecute>> = {};
	for (const resource of resources) {
		for (const operation of resource.operations) {
			if (!operation.execute) continue;
			table[resource.resource] ??= {};
			const execute = operation.execute;
			table[resource.resource][operation.option.value] = async function (this: IExecuteFunctions) {
				beginCall(this);
				return await execute.call(this);
			};
		}
	}
	return table;
}
