import type { Operation } from '../../../shared/operation';
import { PATHS } from '../../../shared/constants';
import { listToItems, routed } from '../../../shared/transport/routing';

/** The event types as the API lists them; no parameters. */

export const pixelEventGetTypes: Operation = {
	option: {
		name: 'Get Types',
		value: 'getTypes',
		action: 'Get the pixel event types',
		description: 'The event types an event can have, e.g. page_view, purchase, custom',
	},
	fields: [],
	routing: {
		request: { method: 'GET', url: PATHS.pixelEventTypes },
		...routed(),
		output: { postReceive: [listToItems(['items'])] },
	},
};
