import type {
	ICredentialDataDecryptedObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodeParameters,
	INodePropertyOptions,
	INodeType,
} from 'n8n-workflow';
import { LoadOptionsContext } from 'n8n-core';
import { ourNode } from './node';
import { additionalDataFor, buildWorkflow, nodeTypes } from './run';
import { PACKAGE_NAME } from './nodeTypes';

function contextFor(
	type: string,
	parameters: INodeParameters,
	credentials: ICredentialDataDecryptedObject,
	path: string,
	typeVersion = 1,
): { context: ILoadOptionsFunctions; nodeType: INodeType } {
	const node = ourNode(type, parameters, { typeVersion });
	const workflow = buildWorkflow({ nodes: [node], connections: {} });
	const additionalData = additionalDataFor({ adCabinetApi: credentials });
	// The editor sends the node's current parameters with every dropdown request.
	additionalData.currentNodeParameters = parameters;
	const context = new LoadOptionsContext(workflow, node, additionalData, path);
	return {
		context,
		nodeType: nodeTypes().getByNameAndVersion(`${PACKAGE_NAME}.${type}`, typeVersion),
	};
}

/** Calls a node's `methods.loadOptions[name]` as the editor does for a dropdown. */
export async function loadOptions(
	type: string,
	method: string,
	parameters: INodeParameters,
	credentials: ICredentialDataDecryptedObject,
): Promise<INodePropertyOptions[]> {
	const { context, nodeType } = contextFor(type, parameters, credentials, method);
	const fn = nodeType.methods?.loadOptions?.[method];
	if (!fn) throw new Error(`${type} has no loadOptions method ${method}`);
	return await fn.call(context);
}

/**
 * Calls a node's `methods.listSearch[name]` as a resource locator's "From List" mode does, from a
 * node of `typeVersion` (1 unless given), as the editor names it with each request.
 */
export async function listSearch(
	type: string,
	method: string,
	parameters: INodeParameters,
	credentials: ICredentialDataDecryptedObject,
	filter?: string,
	paginationToken?: string,
	typeVersion?: number,
): Promise<INodeListSearchResult> {
	const { context, nodeType } = contextFor(type, parameters, credentials, method, typeVersion);
	const fn = nodeType.methods?.listSearch?.[method];
	if (!fn) throw new Error(`${type} has no listSearch method ${method}`);
	return await fn.call(context, filter, paginationToken);
}
