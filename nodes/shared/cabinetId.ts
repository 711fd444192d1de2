import type { INode, INodeProperties } from 'n8n-workflow';
import { PLATFORM_NAMES } from './platform';
import { invalidInput } from './validation';

export const CABINET_ID_LABEL = 'Cabinet ID';

/** Cabinet ids as the real service writes them (the spec's form uses numbers such as 100001). */
const EXAMPLE = PLATFORM_NAMES.telegram.cabinetIdExample;

/**
 * The cabinet (the spec's `account_id`) of the client API nodes. It is named `accountId` because the
 * shared dropdowns in methods/cabinetLists.ts read that parameter. The cabinet list has no documented
 * endpoint (spec 4.4), so it is typed in.
 */
export function cabinetIdField(show: Record<string, string[]>, description?: string): INodeProperties {
	return {
		displayName: CABINET_ID_LABEL,
		name: 'accountId',
		type: 'string',
		required: true,
		default: '',
		placeholder: `e.g. ${EXAMPLE}`,
		displayOptions: { show },
		description: description ?? 'The cabinet (account) ID, as shown in the ad cabinet',
	};
}

/** The cabinet ID without surrounding whitespace; refuses an empty one before any request. */
export function readCabinetId(node: INode, value: unknown, itemIndex: number): string {
	const id = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
	if (!id) {
		throw invalidInput(node, CABINET_ID_LABEL, 'is required', itemIndex, typeof value === 'string' ? undefined : value);
	}
	if (/^0+$/.test(id)) {
		throw invalidInput(node, CABINET_ID_LABEL, `must be the ID of a cabinet, such as ${EXAMPLE}; 0 is no cabinet`, itemIndex, value);
	}
	return id;
}
