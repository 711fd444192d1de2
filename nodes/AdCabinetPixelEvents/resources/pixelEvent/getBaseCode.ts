import type {
	DeclarativeRestApiSettings,
	IExecuteSingleFunctions,
	INodeProperties,
} from 'n8n-workflow';
import type { Operation } from '../../../shared/operation';
import { cabinetIdFields } from '../../../shared/cabinetId';
import { PATHS } from '../../../shared/constants';
import { cabinetOf, PIXEL_CABINET_TYPED_IN } from './fields';
import { recordToItem, routed } from '../../../shared/transport/routing';
import { pixelEventHint } from './hints';

const show = { resource: ['pixelEvent'], operation: ['getBaseCode'] };

const fields: INodeProperties[] = [...cabinetIdFields(show, PIXEL_CABINET_TYPED_IN)];

/** GET /api/pixel_events/{account_id}/code_snippet */
async function preparePixelEventGetBaseCode(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
): Promise<void> {
	options.url = PATHS.pixelBaseCode(cabinetOf(this));
}

export const pixelEventGetBaseCode: Operation = {
	option: {
		name: 'Get Base Code',
		value: 'getBaseCode',
		action: 'Get the base pixel code',
		description: "The cabinet's pixel ID and the base script to put on every page of the site",
	},
	fields,
	routing: {
		// The path names the cabinet: preparePixelEventGetBaseCode writes it.
		request: { method: 'GET' },
		...routed({ prepare: preparePixelEventGetBaseCode, hint: pixelEventHint('getBaseCode') }),
		output: { postReceive: [recordToItem()] },
	},
};
