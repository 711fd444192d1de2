import type { IExecuteSingleFunctions, INodeProperties } from 'n8n-workflow';
import { invalidInput } from '../../../../shared/validation';

const AD_LABEL = 'Ad';

/** The ad of Get and Update: searchable by title from the ad list, or by ID. */
export function adIdField(show: Record<string, string[]>): INodeProperties {
	return {
		displayName: AD_LABEL,
		name: 'adId',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		displayOptions: { show },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Search ads by title…',
				typeOptions: { searchListMethod: 'searchAds', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 10001',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^\\s*\\d+\\s*$', errorMessage: 'An ad ID is a whole number' },
					},
				],
			},
		],
	};
}

/**
 * `ad_id` is a whole number in the path of Get and Update; anything else is refused before a request. It stays the
 * digits as given (leading zeros dropped): an id past 2^53 would change if read as a JS number.
 */
export function readAdId(fx: IExecuteSingleFunctions): string {
	const raw = fx.getNodeParameter('adId', '', { extractValue: true }) as unknown;
	const given = typeof raw === 'number' && Number.isSafeInteger(raw) ? String(raw) : raw;
	const text = typeof given === 'string' ? given.trim().replace(/^0+(?=\d)/, '') : '';
	if (!/^\d+$/.test(text) || text === '0') {
		throw invalidInput(
			fx.getNode(),
			AD_LABEL,
			'must be a whole-number ad ID',
			fx.getItemIndex(),
			raw,
		);
	}
	return text;
}
