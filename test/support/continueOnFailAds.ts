import { minimalCreate } from './adFixtures';
import type { FailingSecondItem } from './continueOnFailCase';

const create = minimalCreate({ title: '={{ $json.title }}' });

/** Continue On Fail cases of the Ads node. */
export const AD_CONTINUE_ON_FAIL: FailingSecondItem[] = [
	{
		name: 'Ads 1.3 → Create (a CPM above CPM Max in the second row)',
		type: 'adCabinetAds',
		typeVersion: 1.3,
		parameters: {
			...minimalCreate({ title: '={{ $json.title }}', cpm: '={{ $json.cpm }}' }),
			options: { cpmMax: 5, skipIdentical: false },
		},
		input: [
			{ title: 'Bounded row one', cpm: 2 },
			{ title: 'Bounded row two', cpm: 6 },
		],
		error:
			/^CPM: must be at most 5 \(CPM Max under Options\) \(got 6\)\. Nothing was sent to the API/,
	},
	{
		name: 'Ads 1.3 → Update (a CPM moved past Max Change % in the second row)',
		type: 'adCabinetAds',
		typeVersion: 1.3,
		parameters: {
			resource: 'ad',
			operation: 'update',
			adId: { __rl: true, mode: 'id', value: '10001' },
			updateFields: { cpm: '={{ $json.cpm }}' },
			options: { maxChangePercent: 1000, skipUnchanged: false },
		},
		input: [{ cpm: 4.2 }, { cpm: 500 }],
		error: /^CPM: may move the current value by at most 1000% \(Max Change % under Options\)/,
	},
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
	{
		name: 'Ads → Get Many (Limit 0 in the second row)',
		type: 'adCabinetAds',
		parameters: {
			resource: 'ad',
			operation: 'getAll',
			returnAll: false,
			limit: '={{ $json.limit }}',
			filters: {},
		},
		input: [{ limit: 2 }, { limit: 0 }],
		error: /^Limit: must be a whole number of at least 1/,
	},
	{
		name: 'Ads → Update (a zero CPM in the second row)',
		type: 'adCabinetAds',
		parameters: {
			resource: 'ad',
			operation: 'update',
			adId: { __rl: true, mode: 'id', value: '10001' },
			updateFields: { cpm: '={{ $json.cpm }}' },
		},
		input: [{ cpm: 4.2 }, { cpm: 0 }],
		error: /^CPM: must be a number greater than 0/,
	},
	{
		name: 'Ads → Validate Bots (no bots in the second row)',
		type: 'adCabinetAds',
		parameters: {
			resource: 'ad',
			operation: 'validateBots',
			accountId: 'ACC06163',
			bots: '={{ $json.bots }}',
			failOnRejected: false,
		},
		input: [{ bots: 'https://t.me/shop_helper_bot' }, { bots: ' , ' }],
		error: /^Bots: /,
	},
	{
		name: 'Cabinet → Get (no cabinet in the second row)',
		type: 'adCabinetAds',
		parameters: {
			resource: 'cabinet',
			operation: 'get',
			cabinetId: { __rl: true, mode: 'id', value: '={{ $json.cabinet }}' },
		},
		input: [{ cabinet: 'ACC06163' }, { cabinet: '' }],
		error: /^Cabinet ID: is required/,
	},
	{
		name: 'Cabinet → Get Many (Limit 0 in the second row)',
		type: 'adCabinetAds',
		parameters: {
			resource: 'cabinet',
			operation: 'getAll',
			returnAll: false,
			limit: '={{ $json.limit }}',
			filters: {},
		},
		input: [{ limit: 2 }, { limit: 0 }],
		error: /^Limit: must be a whole number of at least 1/,
	},
	{
		name: 'Campaign → Get Many (Limit 0 in the second row)',
		type: 'adCabinetAds',
		parameters: {
			resource: 'campaign',
			operation: 'getAll',
			period: 'all',
			returnAll: false,
			limit: '={{ $json.limit }}',
			filters: {},
		},
		input: [{ limit: 2 }, { limit: 0 }],
		error: /^Limit: must be a whole number of at least 1/,
	},
];
