import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { PATHS } from '../constants';
import { apiRequest } from '../transport/request';

/** Dropdown of advertised objects, for the Ad Objects filters. */
export async function getAdObjects(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const objects = await apiRequest.call(this, {
		api: 'base',
		method: 'GET',
		path: PATHS.reportObjects,
	});
	if (!Array.isArray(objects)) return [];
	return objects
		.map((object) => String(object))
		.sort((a, b) => a.localeCompare(b))
		.map((object) => ({ name: object, value: object }));
}
