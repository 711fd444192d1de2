import type { INodePropertyOptions } from 'n8n-workflow';
import { PATHS } from '../../../shared/constants';
import { listToItems, routed } from '../../../shared/transport/routing';

/** The event types as the API lists them; no parameters. */
export const pixelEventGetTypesOperation: INodePropertyOptions = {
	name: 'Get Types',
	value: 'getTypes',
	action: 'Get the pixel event types',
	description: 'The event types an event can have, e.g. page_view, purchase, custom',
	routing: {
		request: { method: 'GET', url: PATHS.pixelEventTypes },
		...routed(),
		output: { postReceive: [listToItems(['items'])] },
	},
};
