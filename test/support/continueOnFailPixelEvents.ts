import type { INodeParameters } from 'n8n-workflow';
import type { FailingSecondItem } from './continueOnFailCase';

const CABINET = 'ACC07021';
const pixel = (operation: string, extra: INodeParameters): INodeParameters => ({
	resource: 'pixelEvent',
	operation,
	accountId: CABINET,
	...extra,
});
const event = (value: string) => ({ __rl: true, mode: 'id', value });

/**
 * Continue On Fail cases of the Pixel Events node (Get Many is in the main table; Delete is exempt,
 * see test/hardening/operationTables.test.ts).
 */
export const PIXEL_CONTINUE_ON_FAIL: FailingSecondItem[] = [
	{
		name: 'Pixel Events → Create (an empty title in the second row)',
		type: 'adCabinetPixelEvents',
		parameters: pixel('create', { title: '={{ $json.title }}', type: 'custom' }),
		input: [{ title: 'Signup' }, { title: '  ' }],
		error: /^Title: is required/,
	},
	{
		name: 'Pixel Events → Rename (an empty title in the second row)',
		type: 'adCabinetPixelEvents',
		parameters: pixel('rename', { eventId: event('31005'), newTitle: '={{ $json.title }}' }),
		input: [{ title: 'Renamed' }, { title: '' }],
		error: /^New Title: is required/,
	},
	{
		name: 'Pixel Events → Get Base Code (403 on the second cabinet)',
		type: 'adCabinetPixelEvents',
		parameters: pixel('getBaseCode', { accountId: '={{ $json.cabinet }}' }),
		input: [{ cabinet: CABINET }, { cabinet: 'ACC08112' }],
		error: /refused the request with 403/,
	},
];
