import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecuteSingleFunctions,
	INodeProperties,
} from 'n8n-workflow';
import type { Operation } from '../../../shared/operation';
import { cabinetIdFields } from '../../../shared/cabinetId';
import { PIXEL_CABINET_TYPED_IN, cabinetOf, requiredText, PIXEL_SAFE_WRITES_SINCE } from './fields';
import { PATHS } from '../../../shared/constants';
import { recordToItem, routed } from '../../../shared/transport/routing';
import { pixelEventHint } from './hints';
import { dryRunGuard, writeOptionsProperty } from '../../../shared/writes';

const show = { resource: ['pixelEvent'], operation: ['create'] };

const fields: INodeProperties[] = [
	...cabinetIdFields(
		show,
		PIXEL_CABINET_TYPED_IN,
		'The cabinet (account) ID the event belongs to; each cabinet has its own events',
	),
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Newsletter signup',
		displayOptions: { show },
		description: 'Name of the event',
	},
	{
		displayName: 'Type Name or ID',
		name: 'type',
		type: 'options',
		required: true,
		typeOptions: { loadOptionsMethod: 'getPixelEventTypes' },
		default: '',
		displayOptions: { show },
		description:
			'What the event tracks, from the API\'s list of event types. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	// Dry Run: from version 1.2, so older saved workflows write as before.
	writeOptionsProperty(show, [1, 1.1]),
];

/** POST /api/pixel_events/ with account_id, title and type. */
async function preparePixelEventCreate(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
): Promise<void> {
	const accountId = cabinetOf(this);
	const title = requiredText(this, 'title', 'Title');
	const type = requiredText(this, 'type', 'Type');
	options.body = { account_id: accountId, title, type };
}

/** The create answer is not documented: without a body, what was created is echoed. */
function createdFallback(this: IExecuteSingleFunctions): IDataObject {
	return {
		account_id: String(this.getNodeParameter('accountId', '')).trim(),
		title: this.getNodeParameter('title', '') as string,
		type: this.getNodeParameter('type', '') as string,
		success: true,
	};
}

export const pixelEventCreate: Operation = {
	option: {
		name: 'Create',
		value: 'create',
		action: 'Create a pixel event',
		description: "Add a tag event to a cabinet's pixel",
	},
	fields,
	routing: {
		request: { method: 'POST', url: PATHS.pixelEvents },
		...routed({
			idempotent: false,
			prepare: preparePixelEventCreate,
			hint: pixelEventHint('create'),
			guardWrite: dryRunGuard(PIXEL_SAFE_WRITES_SINCE),
		}),
		output: { postReceive: [recordToItem(createdFallback)] },
	},
};
