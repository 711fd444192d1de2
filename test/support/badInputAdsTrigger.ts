import type { BadInput } from './badInputCase';

/** Bad inputs of the Ads Trigger: each refused before the ad list is read. */
export const ADS_TRIGGER_BAD_INPUTS: BadInput[] = [
	{
		name: 'ads trigger: a status the API does not use',
		type: 'adCabinetAdsTrigger',
		trigger: true,
		parameters: { event: 'statusChanged', toStatuses: ['paused'], filters: {} },
		message:
			/^To Statuses: each must be one of active, stopped, in_review, on_hold, declined, deleted/,
	},
	{
		name: 'ads trigger: an event it does not have',
		type: 'adCabinetAdsTrigger',
		trigger: true,
		parameters: { event: 'adDeleted', filters: {} },
		message: /^Event: must be one of statusChanged, newAd \(got "adDeleted"\)/,
	},
	{
		name: 'ads trigger: a cabinet name in the cabinet list',
		type: 'adCabinetAdsTrigger',
		trigger: true,
		parameters: { event: 'newAd', filters: { cabinetIds: '={{ ["Berlin Cabinet"] }}' } },
		message:
			/^Cabinet Names or IDs: each must be a cabinet ID such as ACC0000, .*\(got "Berlin Cabinet"\)/,
	},
];
