import type { DeclarativeRestApiSettings, IExecuteSingleFunctions, INodeProperties } from 'n8n-workflow';
import { cabinetIdFields } from '../../../shared/cabinetId';
import { PATHS } from '../../../shared/constants';
import { cabinetOf, PIXEL_CABINET_TYPED_IN } from './fields';

const show = { resource: ['pixelEvent'], operation: ['getBaseCode'] };

export const pixelEventGetBaseCodeDescription: INodeProperties[] = [
	...cabinetIdFields(show, PIXEL_CABINET_TYPED_IN),
];

/** spec 4.11: GET /api/pixel_events/{account_id}/code_snippet */
export async function preparePixelEventGetBaseCode(
	this: IExecuteSingleFunctions,
	options: DeclarativeRestApiSettings.HttpRequestOptions,
): Promise<void> {
	options.url = PATHS.pixelBaseCode(cabinetOf(this));
}
