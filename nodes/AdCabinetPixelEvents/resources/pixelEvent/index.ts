import type { INodeProperties } from 'n8n-workflow';
import { PATHS } from '../../../shared/constants';
import { listToItems, recordToItem, routed } from '../../../shared/transport/routing';
import { createdFallback, pixelEventCreateDescription, preparePixelEventCreate } from './create';
import { deletedFallback, pixelEventDeleteDescription, preparePixelEventDelete } from './delete';
import { pixelEventGetAllDescription, preparePixelEventGetAll, simplifyPixelEvents } from './getAll';
import { pixelEventGetBaseCodeDescription, preparePixelEventGetBaseCode } from './getBaseCode';
import { pixelEventHint } from './hints';
import { pixelEventRenameDescription, preparePixelEventRename, renamedFallback } from './rename';

export const pixelEventDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['pixelEvent'] } },
		default: 'getAll',
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a pixel event',
				description: 'Add a tag event to a cabinet\'s pixel',
				routing: {
					request: { method: 'POST', url: PATHS.pixelEvents },
					...routed({ idempotent: false, prepare: preparePixelEventCreate, hint: pixelEventHint('create') }),
					output: { postReceive: [recordToItem(createdFallback)] },
				},
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a pixel event',
				description: 'Remove a tag event from a cabinet',
				routing: {
					// The path names the cabinet and the event: preparePixelEventDelete writes it.
					request: { method: 'DELETE' },
					...routed({ idempotent: false, prepare: preparePixelEventDelete, hint: pixelEventHint('delete') }),
					output: { postReceive: [recordToItem(deletedFallback)] },
				},
			},
			{
				name: 'Get Base Code',
				value: 'getBaseCode',
				action: 'Get the base pixel code',
				description: 'The cabinet\'s pixel ID and the base script to put on every page of the site',
				routing: {
					// The path names the cabinet: preparePixelEventGetBaseCode writes it.
					request: { method: 'GET' },
					...routed({ prepare: preparePixelEventGetBaseCode, hint: pixelEventHint('getBaseCode') }),
					output: { postReceive: [recordToItem()] },
				},
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many pixel events',
				description: 'List a cabinet\'s tag events with their status, type and code snippet',
				routing: {
					request: { method: 'GET', url: PATHS.pixelEvents },
					...routed({ prepare: preparePixelEventGetAll, hint: pixelEventHint('getAll') }),
					output: { postReceive: [listToItems(['items']), simplifyPixelEvents] },
				},
			},
			{
				name: 'Get Types',
				value: 'getTypes',
				action: 'Get the pixel event types',
				description: 'The event types an event can have, e.g. page_view, purchase, custom',
				routing: {
					request: { method: 'GET', url: PATHS.pixelEventTypes },
					...routed(),
					output: { postReceive: [listToItems(['items'])] },
				},
			},
			{
				name: 'Rename',
				value: 'rename',
				action: 'Rename a pixel event',
				description: 'Give a tag event a new title',
				routing: {
					// The path names the event: preparePixelEventRename writes it.
					request: { method: 'PATCH' },
					...routed({ idempotent: false, prepare: preparePixelEventRename, hint: pixelEventHint('rename') }),
					output: { postReceive: [recordToItem(renamedFallback)] },
				},
			},
		],
	},
	...pixelEventGetAllDescription,
	...pixelEventCreateDescription,
	...pixelEventRenameDescription,
	...pixelEventDeleteDescription,
	...pixelEventGetBaseCodeDescription,
];
