import type { INodeProperties } from 'n8n-workflow';
import { legacyReportGetDescription, legacyReportGetOperation } from './get';

export const legacyReportDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['legacyReport'] } },
		default: 'get',
		options: [legacyReportGetOperation],
	},
	...legacyReportGetDescription,
];
