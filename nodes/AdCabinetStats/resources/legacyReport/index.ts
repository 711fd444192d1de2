import type { INodeProperties } from 'n8n-workflow';
import { PATHS } from '../../../shared/constants';
import { listToItems, routed } from '../../../shared/transport/routing';
import { buildLegacyReportBody, legacyReportGetDescription, legacyReportHint } from './get';

export const legacyReportDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['legacyReport'] } },
		default: 'get',
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get the legacy report',
				description: 'Deprecated statistics report, switched off by the API on 28 February 2026',
				routing: {
					request: { method: 'POST', url: PATHS.legacyReport },
					...routed({ idempotent: true, prepare: buildLegacyReportBody, hint: legacyReportHint }),
					output: { postReceive: [listToItems(['results'])] },
				},
			},
		],
	},
	...legacyReportGetDescription,
];
