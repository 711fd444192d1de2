import type { INodeProperties } from 'n8n-workflow';
import { listToItems, routed } from '../../../shared/transport/routing';
import { PATHS } from '../../../shared/constants';
import { audienceCreateDescription } from './create';
import { audienceGetAllDescription, audienceGetAllHint, prepareAudienceGetAll } from './getAll';

export const audienceDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['audience'] } },
		default: 'create',
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create an audience',
				description:
					'Upload phone numbers (or their SHA-256 hashes) as a new audience, from a file or from a field of the input items (spec 4.12)',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many audiences',
				description: 'List a cabinet\'s phone-number audiences (spec 4.12)',
				routing: {
					request: { method: 'GET', url: PATHS.audiencesList('') },
					...routed({ prepare: prepareAudienceGetAll, hint: audienceGetAllHint }),
					output: { postReceive: [listToItems(['items', 'data', 'results'])] },
				},
			},
		],
	},
	...audienceCreateDescription,
	...audienceGetAllDescription,
];
