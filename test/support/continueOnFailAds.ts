import { minimalCreate } from './adFixtures';
import type { FailingSecondItem } from '../hardening/continueOnFail.test';

const create = minimalCreate({ title: '={{ $json.title }}' });

/** Continue On Fail cases of the Ads node. */
export const AD_CONTINUE_ON_FAIL: FailingSecondItem[] = [
	{
		name: 'Ads → Create (an empty title in the second row)',
		type: 'adCabinetAds',
		parameters: create,
		input: [{ title: 'Row one' }, { title: '' }],
		error: /^Title: must not be empty/,
	},
	{
		name: 'Ads → Get (an unknown ad in the second row)',
		type: 'adCabinetAds',
		parameters: {
			resource: 'ad',
			operation: 'get',
			adId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
		},
		input: [{ id: '10001' }, { id: '99999999' }],
		error: /refused the request with 404/,
	},
];
