/**
 * The workflows of the sheets stage: the example examples/sync/stats-sync-to-google-sheet.json as it
 * is (its cell format, RAW) and with the other cell format (USER_ENTERED), each pointed at a
 * spreadsheet of the Google stand-in; and a probe that writes texts a sheet may convert through the
 * example's own Google Sheets node.
 */
import type { InputOption } from './cells';
import {
	exampleId,
	readWorkflow,
	type Example,
	type WorkflowJson,
	type WorkflowNode,
} from '../lib/workflows';

const SHEET_EXAMPLE = 'stats-sync-to-google-sheet.json';
export const GOOGLE_CREDENTIAL = {
	id: 'adCabinetGoogleServiceAccount',
	name: 'Google service account',
};
const SHEETS_TYPE = 'n8n-nodes-base.googleSheets';

/** Texts a person may well have in a key or a name, which Sheets reads as typed may convert. */
export const PROBE_TEXTS = ['2026-11-20', '007', '1,5', '1e3', 'TRUE', 'c2101|d'];

export interface SheetFlow {
	example: Example;
	format: InputOption;
	trigger: WorkflowNode;
	sheetsNode: WorkflowNode;
}

export function readExample(): WorkflowJson {
	return readWorkflow(`sync/${SHEET_EXAMPLE}`);
}

export function sheetsNodeOf(workflow: WorkflowJson): WorkflowNode {
	const node = workflow.nodes.find((n) => n.type === SHEETS_TYPE);
	if (!node) throw new Error(`${SHEET_EXAMPLE} has no Google Sheets node`);
	return node;
}

export function cellFormatOf(node: WorkflowNode): InputOption {
	return (
		(node.parameters.options as { cellFormat?: InputOption } | undefined)?.cellFormat ??
		'USER_ENTERED'
	);
}

/** Points a Google Sheets node at a spreadsheet and tab, and sets its cell format. */
function aim(node: WorkflowNode, spreadsheetId: string, tab: string, format: InputOption): void {
	node.parameters = {
		...node.parameters,
		documentId: { __rl: true, value: spreadsheetId, mode: 'id' },
		sheetName: { __rl: true, value: tab, mode: 'name' },
		options: { ...(node.parameters.options as object), cellFormat: format },
	};
}

/** The example, writing to `tab` of `spreadsheetId` with the given cell format. */
export function exampleFlow(spreadsheetId: string, tab: string, format: InputOption): SheetFlow {
	const workflow = readExample();
	const sheetsNode = sheetsNodeOf(workflow);
	aim(sheetsNode, spreadsheetId, tab, format);
	const trigger = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.scheduleTrigger');
	if (!trigger) throw new Error(`${SHEET_EXAMPLE} has no Schedule Trigger`);
	workflow.name = `${workflow.name} (${format})`;
	workflow.settings = { ...(workflow.settings as object), saveDataSuccessExecution: 'all' };
	const file = `sheets-${format}.json`;
	return {
		example: { file, id: exampleId(`sheets/${format}`), workflow },
		format,
		trigger,
		sheetsNode,
	};
}

/**
 * Manual Trigger → Code (one item per probe text: `row_key` and `note` both the text) → the example's
 * Google Sheets node, writing to `tab` with the given cell format.
 */
export function probeFlow(spreadsheetId: string, tab: string, format: InputOption): SheetFlow {
	const sheetsNode = structuredClone(sheetsNodeOf(readExample()));
	aim(sheetsNode, spreadsheetId, tab, format);
	sheetsNode.name = 'Append or update by row_key';
	const trigger: WorkflowNode = {
		name: 'Run',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		parameters: {},
	};
	const code: WorkflowNode = {
		name: 'Probe texts',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: {
			jsCode: `return ${JSON.stringify(PROBE_TEXTS)}.map((text) => ({ json: { row_key: text, note: text } }));`,
		},
	};
	const place = (node: WorkflowNode, x: number) => ({ ...node, position: [x, 0] });
	const workflow: WorkflowJson = {
		name: `Sheets probe (${format})`,
		nodes: [place(trigger, 0), place(code, 220), place(sheetsNode, 440)] as WorkflowNode[],
		connections: {
			[trigger.name]: { main: [[{ node: code.name, type: 'main', index: 0 }]] },
			[code.name]: { main: [[{ node: sheetsNode.name, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all' },
		pinData: {},
	};
	const file = `sheets-probe-${format}.json`;
	return {
		example: { file, id: exampleId(`sheets/probe-${format}`), workflow },
		format,
		trigger,
		sheetsNode,
	};
}
