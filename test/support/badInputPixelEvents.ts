import type { INodeParameters } from 'n8n-workflow';
import type { BadInput } from './badInputCase';

const pixel = (operation: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'pixelEvent',
	operation,
	accountId: 'ACC07021',
	...extra,
});

/** Bad inputs of the Pixel Events node: every operation. */
export const PIXEL_BAD_INPUTS: BadInput[] = [
	{
		name: 'pixel: an empty Title on create',
		type: 'adCabinetPixelEvents',
		parameters: pixel('create', { title: '={{ "  " }}', type: 'custom' }),
		message: /^Title: is required/,
	},
	{
		name: 'pixel: an empty Cabinet ID',
		type: 'adCabinetPixelEvents',
		parameters: pixel('getAll', { accountId: '={{ "" }}', returnAll: true }),
		message: /^Cabinet ID: is required/,
	},
	{
		name: 'pixel: an empty New Title on rename',
		type: 'adCabinetPixelEvents',
		parameters: pixel('rename', {
			eventId: { __rl: true, mode: 'id', value: '31005' },
			newTitle: '={{ "" }}',
		}),
		message: /^New Title: is required/,
	},
	{
		name: 'pixel: no Event on delete',
		type: 'adCabinetPixelEvents',
		parameters: pixel('delete', { eventId: { __rl: true, mode: 'id', value: '={{ "" }}' } }),
		message: /^Event: is required/,
	},
	{
		name: 'pixel: an empty Cabinet ID on the base code',
		type: 'adCabinetPixelEvents',
		parameters: pixel('getBaseCode', { accountId: '={{ "" }}' }),
		message: /^Cabinet ID: is required/,
	},
	{
		// Event types take no parameters: the credential is the input that can be wrong.
		name: 'pixel: the event types with a Client API URL that has a space',
		type: 'adCabinetPixelEvents',
		parameters: { resource: 'pixelEvent', operation: 'getTypes' },
		credentials: { clientApiUrl: 'http://client api.example.com' },
		message:
			/^Client API URL \(Ad Cabinet API credential\): must be an http:\/\/ or https:\/\/ address/,
	},
];
