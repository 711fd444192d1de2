import type { INodeProperties } from 'n8n-workflow';
import { mediaUploadDescription } from './upload';

export const mediaDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['media'] } },
		default: 'upload',
		options: [
			{
				name: 'Upload',
				value: 'upload',
				action: 'Upload a media file',
				description:
					'Send an image or video from an input binary field; returns the media token for an ad',
			},
		],
	},
	...mediaUploadDescription,
];
