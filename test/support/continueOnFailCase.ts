import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

/** Continue On Fail: a node given two items, the second of which fails. */
export interface FailingSecondItem {
	name: string;
	type: string;
	parameters: INodeParameters;
	/** Two input items: the first succeeds, the second fails. */
	input: Array<IDataObject | INodeExecutionData>;
	error: RegExp;
	/** The node version, where the field exists only from one on; 1 by default. */
	typeVersion?: number;
}
