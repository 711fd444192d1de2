import type { INodeProperties } from 'n8n-workflow';

/**
 * What an AI agent is told about each operation when the node is one of its tools.
 *
 * n8n builds a tool's description from the operation's short action ("Get many ads in Ad Cabinet
 * Ads") unless the node has its own `toolDescription` parameter. These parameters exist only on the
 * tool variant (`@tool`), one per operation, so the agent learns what the operation returns, its
 * limits and where its IDs come from; the workflow author sees the text and can edit it.
 */
export function toolDescriptionFields(
	resource: string,
	texts: Record<string, string>,
): INodeProperties[] {
	return Object.entries(texts).map(([operation, text]) => ({
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		default: text,
		required: true,
		typeOptions: { rows: 4 },
		displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
		description:
			'What the AI agent is told about this tool: what it returns, its limits and which other node gives the IDs it needs',
	}));
}
