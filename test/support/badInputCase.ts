import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

/**
 * Every invalid input is refused by the node itself: a NodeOperationError whose message names the
 * field and the rule, and not one request reaches the API.
 */
export interface BadInput {
	name: string;
	type: string;
	parameters: INodeParameters;
	input?: Array<IDataObject | INodeExecutionData>;
	/** Overrides of the credential data. */
	credentials?: Record<string, string>;
	trigger?: boolean;
	/** The node version, where the field exists only from one on; 1 by default. */
	typeVersion?: number;
	/** The message starts with the field name, then the rule. */
	message: RegExp;
}
