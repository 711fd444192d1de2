import type { INodeParameters } from 'n8n-workflow';
import { minimalCreate } from './adFixtures';
import type { BadInput } from './badInputCase';

const create = minimalCreate;
const update = (updateFields: INodeParameters): INodeParameters => ({
	resource: 'ad',
	operation: 'update',
	adId: { __rl: true, mode: 'id', value: '10001' },
	updateFields,
});
const ads = (name: string, parameters: INodeParameters, message: RegExp): BadInput => ({
	name: `ads: ${name}`,
	type: 'adCabinetAds',
	parameters,
	message,
});

/** Bad inputs of the Ads node: every operation of its four resources. */
export const AD_BAD_INPUTS: BadInput[] = [
	{
		...ads(
			'a budget above Budget Max (1.3)',
			create({ budget: 1500, options: { budgetMax: 1000 } }),
			/^Budget: must be at most 1000 \(Budget Max under Options\) \(got 1500\)\. Nothing was sent to the API/,
		),
		typeVersion: 1.3,
	},
	{
		...ads(
			'a CPM below CPM Min on update (1.3)',
			update({ cpm: 0.2 }),
			/^CPM: must be at least 0\.5 \(CPM Min under Options\) \(got 0\.2\)/,
		),
		parameters: { ...update({ cpm: 0.2 }), options: { cpmMin: 0.5 } },
		typeVersion: 1.3,
	},
	ads(
		'two KKTU categories',
		create({ kktu: { __rl: true, mode: 'id', value: '503, 504' } }),
		/^KKTU Category: exactly one KKTU category per ad/,
	),
	ads(
		'a second-level KKTU code',
		create({ kktu: { __rl: true, mode: 'id', value: '1.2' } }),
		/^KKTU Category: "1\.2" is a level-2 code; only third-level categories/,
	),
	ads(
		'two pixel events',
		create({ tracking: { pixelEvent: '={{ "7700065, 7700078" }}' } }),
		/^Pixel Event Name or ID: only one pixel event per ad/,
	),
	ads(
		'hour 24 in the schedule',
		create({ budgetSchedule: { schedule: { days: [{ day: 'mon', hours: '={{ [8, 24] }}' }] } } }),
		/^Schedule: mon: hours must be whole numbers from 0 to 23/,
	),
	ads(
		'an unknown schedule day',
		create({ budgetSchedule: { scheduleJson: '{"someday": [1]}' } }),
		/^Schedule \(JSON\): unknown day key "someday"/,
	),
	ads('a negative budget', create({ budget: -20 }), /^Budget: must be a number greater than 0/),
	ads('a zero CPM on update', update({ cpm: 0 }), /^CPM: must be a number greater than 0/),
	ads(
		'start after end',
		create({
			budgetSchedule: { startDate: '2026-12-31T00:00:00', endDate: '2026-12-01T00:00:00' },
		}),
		/^Start Date: must be before End Date/,
	),
	ads(
		'an invite link without Ad Object',
		create({ promoteUrl: 'https://t.me/+InviteCode123' }),
		/^Ad Object: is required when Promote URL is a channel invite link/,
	),
	ads('an empty title', create({ title: '={{ "" }}' }), /^Title: must not be empty/),
	ads(
		'a promote URL without a scheme',
		create({ promoteUrl: 't.me/brand' }),
		/^Promote URL: must be an absolute http\(s\) URL/,
	),
	ads(
		'an unknown button type',
		update({ buttonType: '={{ "buy_now" }}' }),
		/^Button Type: must be one of/,
	),
	ads(
		'fractional views per user',
		update({ viewsPerUser: 2.5 }),
		/^Views per User: must be a whole number of at least 1/,
	),
	ads('an update with no fields', update({}), /^Update Fields: add at least one field to change/),
	ads(
		'bot validation without bots',
		{
			resource: 'ad',
			operation: 'validateBots',
			accountId: 'ACC07021',
			bots: '={{ " , " }}',
			failOnRejected: false,
		},
		/^Bots: /,
	),
	ads(
		'bot validation without a cabinet',
		{
			resource: 'ad',
			operation: 'validateBots',
			accountId: '={{ "" }}',
			bots: 'shop_helper_bot',
			failOnRejected: false,
		},
		/^Cabinet ID: is required/,
	),
	ads(
		'an ad ID that is not a number on get',
		{ resource: 'ad', operation: 'get', adId: { __rl: true, mode: 'id', value: '={{ "abc" }}' } },
		/^Ad: must be a whole-number ad ID/,
	),
	ads(
		'an unknown period in the ad list filters',
		{
			resource: 'ad',
			operation: 'getAll',
			returnAll: true,
			filters: { period: '={{ "fortnight" }}' },
		},
		/^Period: must be one of/,
	),
	ads(
		'Limit 0 on the cabinet list',
		{ resource: 'cabinet', operation: 'getAll', returnAll: false, limit: 0, filters: {} },
		/^Limit: must be a whole number of at least 1/,
	),
	ads(
		'an empty cabinet on cabinet get',
		{
			resource: 'cabinet',
			operation: 'get',
			cabinetId: { __rl: true, mode: 'id', value: '={{ "" }}' },
		},
		/^Cabinet ID: is required/,
	),
	ads(
		'Limit 0 on the campaign list',
		{
			resource: 'campaign',
			operation: 'getAll',
			period: 'all',
			returnAll: false,
			limit: 0,
			filters: {},
		},
		/^Limit: must be a whole number of at least 1/,
	),
	{
		...ads(
			'the balance with a credential of the Generic form',
			{ resource: 'balance', operation: 'get' },
			/^Platform \(Ad Cabinet API credential\): Balances exist only on the Telegram \(Adstat\) API/,
		),
		credentials: { platform: 'ext' },
	},
];
