import type { INodeProperties } from 'n8n-workflow';
import { cabinetIdField } from '../../../../shared/cabinetId';

/**
 * Create and Update send no cabinet: the campaign (or the ad) decides it. The Pixel Event and
 * Audiences dropdowns still need one to list, and they read the `accountId` parameter.
 */
export function cabinetForDropdownsField(show: Record<string, string[]>): INodeProperties {
	return {
		...cabinetIdField(
			show,
			'The cabinet (account) of the campaign. Only used to list its pixel events and audiences below; not sent with the ad.',
		),
		required: false,
	};
}
