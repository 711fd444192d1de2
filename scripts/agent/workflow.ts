/**
 * The workflow of the agent stage: Manual Trigger → AI Agent, with the OpenAI Chat Model pointed at
 * the scripted model server and our nodes as its tools. Tool parameters the model fills are
 * `$fromAI` expressions with the keys n8n's editor proposes (the parameter's display name with
 * spaces as underscores). Every tool keeps n8n's default settings (no On Error → Continue).
 */
import type { SandboxCredential } from '../../harness/sandbox';
import type { WorkflowJson, WorkflowNode } from '../lib/workflows';

const PACKAGE = 'n8n-nodes-ad-cabinet';
const AD_CABINET = { id: 'adCabinetAgent', name: 'Ad Cabinet sandbox' };
const AD_CABINET_EXPIRED = { id: 'adCabinetExpired', name: 'Ad Cabinet expired token' };
const SCRIPTED_MODEL = { id: 'scriptedModel', name: 'Scripted model' };
export const AGENT_NODE = 'AI Agent';
/** The cabinet with automatic labelling and audiences (Uzbekistan) and the one without either. */
export const UZ_CABINET = 'ACC06163';
export const DE_CABINET = 'ACC07021';
const UZ_CAMPAIGN = 2101;

/** Tool node name → its type, operation and the `$fromAI` keys it asks the model for. */
export const TOOLS = {
	'Get statistics': {
		type: 'adCabinetStatsTool',
		resource: 'statistic',
		operation: 'getAll',
		keys: ['Period_From', 'Period_To', 'Period_Grouping_Unit', 'Limit'],
	},
	'Find KKTU categories': {
		type: 'adCabinetKktuTool',
		resource: 'category',
		operation: 'getAll',
		keys: ['Search'],
	},
	'Create ad': {
		type: 'adCabinetAdsTool',
		resource: 'ad',
		operation: 'create',
		keys: ['Title', 'Text', 'Promote_URL', 'KKTU_Category'],
	},
	'Upload image': {
		type: 'adCabinetMediaTool',
		resource: 'media',
		operation: 'upload',
		keys: ['File_URL'],
	},
	// The same operation as a workflow author adds it: Allow Private Network Addresses stays off.
	'Upload image from the web': {
		type: 'adCabinetMediaTool',
		resource: 'media',
		operation: 'upload',
		keys: ['File_URL'],
	},
	'List cabinets': {
		type: 'adCabinetAdsTool',
		resource: 'cabinet',
		operation: 'getAll',
		keys: ['Limit'],
	},
	'Create audience': {
		type: 'adCabinetAudiencesTool',
		resource: 'audience',
		operation: 'create',
		keys: ['Title', 'Phone_Numbers'],
	},
	'List pixel events': {
		type: 'adCabinetPixelEventsTool',
		resource: 'pixelEvent',
		operation: 'getAll',
		keys: ['Cabinet_ID'],
	},
	'List ads (expired token)': {
		type: 'adCabinetAdsTool',
		resource: 'ad',
		operation: 'getAll',
		keys: ['Limit'],
	},
} as const;

export type ToolName = keyof typeof TOOLS;

/** The tool name n8n gives a node (n8n-workflow's nodeNameToToolName). */
export function toolNameOf(nodeName: string): string {
	const name = nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_');
	return name.length > 64 ? name.slice(0, 64).replace(/[_-]+$/, '') : name;
}

function fromAI(key: string, description: string, type = 'string'): string {
	return `={{ $fromAI('${key}', \`${description}\`, '${type}') }}`;
}

/** Notes the editor shows on a tool node: why it differs from n8n's defaults. */
const TOOL_NOTES: Partial<Record<ToolName, string>> = {
	'Upload image':
		'Allow Private Network Addresses is on: this stage serves its image from 127.0.0.1. Leave it off for files from the internet.',
};

/** Only the parameters the workflow author sets; n8n fills the rest with defaults. */
const TOOL_PARAMETERS: Record<ToolName, Record<string, unknown>> = {
	'Get statistics': {
		period: 'custom',
		periodFrom: fromAI('Period_From', 'Start, YYYY-MM-DDTHH:MM:SS (UTC)'),
		periodTo: fromAI('Period_To', 'End, YYYY-MM-DDTHH:MM:SS (UTC)'),
		periodGroupingUnit: fromAI('Period_Grouping_Unit', 'hour, day, week, month or year'),
		returnAll: false,
		limit: fromAI('Limit', 'How many rows at most', 'number'),
	},
	'Find KKTU categories': {
		filters: { search: fromAI('Search', 'Part of the category name, or a code prefix') },
	},
	'Create ad': {
		accountId: UZ_CABINET,
		campaignId: UZ_CAMPAIGN,
		title: fromAI('Title', 'Ad title'),
		text: fromAI('Text', 'Ad text'),
		promoteUrl: fromAI('Promote_URL', 'The t.me link the ad promotes'),
		cpm: 2.5,
		budget: 100,
		adType: 'target_channels',
		kktu: {
			__rl: true,
			mode: 'id',
			value: fromAI('KKTU_Category', 'Third-level KKTU code such as 1.2.3, or empty'),
		},
	},
	// The stage serves its image from 127.0.0.1, so this tool allows private network addresses.
	'Upload image': {
		accountId: UZ_CABINET,
		fileUrl: fromAI('File_URL', 'Address of the image'),
		allowPrivateNetwork: true,
	},
	'Upload image from the web': {
		accountId: UZ_CABINET,
		fileUrl: fromAI('File_URL', 'Address of the image'),
	},
	'List cabinets': {
		returnAll: false,
		limit: fromAI('Limit', 'How many cabinets at most', 'number'),
	},
	'Create audience': {
		accountId: UZ_CABINET,
		title: fromAI('Title', 'Audience name'),
		phoneNumbers: fromAI('Phone_Numbers', 'Phone numbers separated by commas'),
	},
	'List pixel events': {
		accountId: fromAI('Cabinet_ID', 'The cabinet ID'),
		returnAll: true,
	},
	'List ads (expired token)': {
		returnAll: false,
		limit: fromAI('Limit', 'How many ads at most', 'number'),
	},
};

/** The scripted chat model, as the agent's language model. */
export const MODEL_NODE: WorkflowNode = {
	name: 'Model',
	type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
	typeVersion: 1.3,
	parameters: {
		model: { __rl: true, mode: 'id', value: 'scripted-model' },
		responsesApiEnabled: false,
		options: {},
	},
	credentials: { openAiApi: SCRIPTED_MODEL },
} as WorkflowNode;

/** Start → AI Agent, and the model into the agent; the tools are connected by each workflow. */
export function agentConnections(): Record<string, unknown> {
	return {
		Start: { main: [[{ node: AGENT_NODE, type: 'main', index: 0 }]] },
		Model: { ai_languageModel: [[{ node: AGENT_NODE, type: 'ai_languageModel', index: 0 }]] },
	};
}

export function agentWorkflow(id: string, prompt: string): WorkflowJson {
	const nodes: WorkflowNode[] = [
		{
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			parameters: {},
		},
		{
			name: AGENT_NODE,
			type: '@n8n/n8n-nodes-langchain.agent',
			typeVersion: 3.1,
			// Fourteen model calls: more than the agent's default limit of 10 iterations.
			parameters: { promptType: 'define', text: prompt, options: { maxIterations: 20 } },
		},
		MODEL_NODE,
	];
	const connections = agentConnections();
	for (const [name, tool] of Object.entries(TOOLS) as Array<[ToolName, (typeof TOOLS)[ToolName]]>) {
		const notes = TOOL_NOTES[name];
		nodes.push({
			name,
			type: `${PACKAGE}.${tool.type}`,
			typeVersion: 1,
			parameters: { resource: tool.resource, operation: tool.operation, ...TOOL_PARAMETERS[name] },
			...(notes ? { notes, notesInFlow: true } : {}),
			credentials: {
				adCabinetApi: name === 'List ads (expired token)' ? AD_CABINET_EXPIRED : AD_CABINET,
			},
		});
		connections[name] = { ai_tool: [[{ node: AGENT_NODE, type: 'ai_tool', index: 0 }]] };
	}
	return {
		name: 'Ad Cabinet tools for an AI agent',
		nodes: nodes.map((node, i) => ({ ...node, position: [i * 200, 0] }) as WorkflowNode),
		connections,
		// n8n 2.x's default for new workflows. With the legacy order the agent resumes before its
		// tools have run, and the model receives an empty result for every call.
		settings: { executionOrder: 'v1' },
	};
}

/** The credentials file for `n8n import:credentials`: the sandbox, an expired token, the model. */
export function agentCredentials(sandbox: SandboxCredential, modelUrl: string): object[] {
	return [
		{ ...AD_CABINET, type: 'adCabinetApi', data: sandbox },
		{
			...AD_CABINET_EXPIRED,
			type: 'adCabinetApi',
			data: { ...sandbox, accessToken: 'expired-token' },
		},
		{ ...SCRIPTED_MODEL, type: 'openAiApi', data: { apiKey: 'sk-scripted-model', url: modelUrl } },
	];
}
