import type { INodeProperties } from 'n8n-workflow';
import { mediaUploadDescription, mediaUploadOperation } from './upload';

export const mediaDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['media'] } },
		default: 'upload',
		options: [mediaUploadOperation],
	},
	...mediaUploadDescription,
];
