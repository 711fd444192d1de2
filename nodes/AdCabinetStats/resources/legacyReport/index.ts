import type { INodeProperties } from 'n8n-workflow';
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
					// The path names the platform: buildLegacyReportBody writes it.
					request: { method: 'POST' },
					...routed({ idempotent: true, prepare: buildLegacyReportBody, hint: legacyReportHint }),
					output: { postReceive: [listToItems(['results'])] },
				},
			},
		],
	},
	...legacyReportGetDescription,
];
