import type {
	DeclarativeRestApiSettings,
	IExecuteSingleFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import type { Operation } from '../../../shared/operation';
import { cabinetIdFields } from '../../../shared/cabinetId';
import { cabinetOf, PIXEL_CABINET_TYPED_IN } from './fields';
import { platformNamesOf } from '../../../shared/platform';
import { readLimit, returnAllFields } from '../../../shared/returnAll';
import { simplifyFields, simplifyItems } from '../../../shared/simplify';
import { PATHS } from '../../../shared/constants';
import { listToItems, routed } from '../../../shared/transport/routing';
import { pixelEventHint } from './hints';

const show = { resource: ['pixelEvent'], operation: ['getAll'] };

const fields: INodeProperties[] = [
	...cabinetIdFields(show, PIXEL_CABINET_TYPED_IN),
	...returnAllFields(show, { returnAllByDefault: true, cutOutputToLimit: true }),
	...simplifyFields(
		show,
		'ID, event ID, title, type, status and the number of ads using the event',
	),
];

/**
 * postReceive step: with Simplify on, an event keeps these fields (no code snippet or dates), its
 * event id under the name of the credential's form.
 */
async function simplifyPixelEvents(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const { eventId } = (await platformNamesOf(this)).fields;
	return await simplifyItems(['id', eventId, 'title', 'type', 'status', 'ads_count']).call(
		this,
		items,
	);
}

/** GET /api/pixel_events/?account_id= */
async function preparePixelEventGetAll(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
): Promise<void> {
	const accountId = cabinetOf(this);
	readLimit(this.getNode(), this.getItemIndex(), (name) =>
		this.getNodeParameter(name, name === 'returnAll' ? true : 50),
	);
	options.qs = { ...(options.qs ?? {}), account_id: accountId };
}

export const pixelEventGetAll: Operation = {
	option: {
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many pixel events',
		description: "List a cabinet's tag events with their status, type and code snippet",
	},
	fields,
	routing: {
		request: { method: 'GET', url: PATHS.pixelEvents },
		...routed({ prepare: preparePixelEventGetAll, hint: pixelEventHint('getAll') }),
		output: { postReceive: [listToItems(['items']), simplifyPixelEvents] },
	},
};
