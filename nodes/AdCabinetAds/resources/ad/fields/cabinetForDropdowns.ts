import type { INodeProperties } from 'n8n-workflow';
import { cabinetIdFields } from '../../../../shared/cabinetId';
import { AD_IDS_TYPED_IN } from './adFields';

/**
 * Create and Update send no cabinet: the campaign (or the ad) decides it. The Pixel Event and
 * Audiences dropdowns still need one to list, and they read the `accountId` parameter.
 */
export function cabinetForDropdownsFields(show: Record<string, string[]>): INodeProperties[] {
	return cabinetIdFields(
		show,
		AD_IDS_TYPED_IN,
		'The cabinet (account) of the campaign. Only used to list its pixel events and audiences below; not sent with the ad.',
		false,
	);
}
