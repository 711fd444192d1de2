import type { INode } from 'n8n-workflow';

/**
 * Whether the node runs as an AI tool (called by n8n's AI Agent or MCP Server Trigger): n8n then
 * gives it a type name of its own, the node's with `Tool` at the end
 * (`n8n-nodes-ad-cabinet.adCabinetAdsTool`).
 */
export function runsAsTool(node: INode): boolean {
	return node.type.endsWith('Tool');
}
