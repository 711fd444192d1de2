import type { IDisplayOptions, INode, INodeProperties, INodePropertyMode } from 'n8n-workflow';
import { PLATFORM_NAMES } from './platform';
import { invalidInput, locatorValue } from './validation';

const CABINET_ID_LABEL = 'Cabinet ID';

/** Cabinet ids as the real service writes them (the Generic form uses numbers such as 100001). */
const EXAMPLE = PLATFORM_NAMES.telegram.cabinetIdExample;

/**
 * The cabinet (the API's `account_id`) of the client API nodes, typed in. It is named `accountId`
 * because the shared dropdowns in methods/cabinetLists.ts read that parameter. The Generic form has
 * no cabinet list; node versions that have the real service's list offer cabinetIdFields.
 */
function cabinetIdField(show: Record<string, string[]>, description?: string): INodeProperties {
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

/**
 * The Cabinet ID as the node versions that have the picker show it: From List (the cabinet names,
 * searchable; the real service only) or By ID. Saved nodes of the versions in `typedIn` keep the
 * plain text field they were made with.
 */
export function cabinetIdFields(
	show: Record<string, string[]>,
	typedIn: number[],
	description?: string,
	required = true,
): INodeProperties[] {
	const typed = cabinetIdField(show, description);
	return [
		{ ...typed, required, displayOptions: { show: { ...show, '@version': typedIn } } },
		cabinetLocator(
			'accountId',
			{ show, hide: { '@version': typedIn } },
			typed.description ?? '',
			required,
		),
	];
}

/**
 * An ID picker (a resource locator): From List, filled by a listSearch method with search, or By
 * ID, with the ID's own check when it has one.
 */
export function idPicker(
	property: Pick<
		INodeProperties,
		'displayName' | 'name' | 'description' | 'displayOptions' | 'required' | 'placeholder'
	>,
	list: { method: string; placeholder: string },
	byId: { placeholder?: string; validation?: INodePropertyMode['validation'] },
): INodeProperties {
	return {
		...property,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: list.placeholder,
				typeOptions: { searchListMethod: list.method, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: byId.placeholder,
				...(byId.validation ? { validation: byId.validation } : {}),
			},
		],
	};
}

/** The Cabinet ID picker itself: From List (the real service's cabinet names, searchable) or By ID. */
export function cabinetLocator(
	name: string,
	displayOptions: IDisplayOptions,
	description: string,
	required = true,
): INodeProperties {
	return idPicker(
		{ displayName: CABINET_ID_LABEL, name, required, displayOptions, description },
		{ method: 'searchCabinets', placeholder: 'Select a cabinet…' },
		{ placeholder: `e.g. ${EXAMPLE}` },
	);
}

/** The cabinet ID without surrounding whitespace; refuses an empty one before any request. */
export function readCabinetId(node: INode, raw: unknown, itemIndex: number): string {
	const value = locatorValue(raw);
	const id = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
	if (!id) {
		throw invalidInput(
			node,
			CABINET_ID_LABEL,
			`is required: pick a cabinet from the list, or give its ID, such as ${EXAMPLE} ("Ad Cabinet Ads" → Cabinet → Get Many lists each cabinet's ID as account_id)`,
			itemIndex,
			typeof value === 'string' ? undefined : value,
		);
	}
	if (/^0+$/.test(id)) {
		throw invalidInput(
			node,
			CABINET_ID_LABEL,
			`must be the ID of a cabinet, such as ${EXAMPLE}; 0 is no cabinet`,
			itemIndex,
			value,
		);
	}
	return id;
}

/** The statistics' cabinet filter as the node versions with the cabinet list show it. */
export const CABINET_LIST_LABEL = 'Cabinet Names or IDs';

/**
 * Cabinet ids in either form are letters and digits (`ACC06163`, `100001`); "-" and "_" are let
 * through in case the service writes others so. A space or any other sign means a name or a typo.
 */
const CABINET_ID_PATTERN = /^[A-Za-z0-9_-]+$/;

/** A JSON list written as text (`["ACC06163","ACC07021"]`), as an AI agent may give one. */
function jsonList(text: string): unknown[] | undefined {
	const trimmed = text.trim();
	if (!trimmed.startsWith('[')) return undefined;
	try {
		const parsed = JSON.parse(trimmed) as unknown;
		return Array.isArray(parsed) ? parsed : undefined;
	} catch {
		return undefined;
	}
}

/**
 * The cabinet filter's ids (the statistics query's `platform_cabinet_ids`, strings): the options chosen, or what
 * an expression gives (a list, IDs separated by commas or new lines, or a JSON list as text). Blank
 * entries are no ids; every other entry must be a cabinet ID, else the item is refused before any
 * request.
 */
export function readCabinetIdList(node: INode, raw: unknown, itemIndex: number): string[] {
	if (raw === undefined || raw === null) return [];
	let entries: unknown[];
	if (Array.isArray(raw)) entries = raw;
	else if (typeof raw === 'string') entries = jsonList(raw) ?? raw.split(/[,\n]/);
	else if (typeof raw === 'number') entries = [raw];
	else {
		throw invalidInput(
			node,
			CABINET_LIST_LABEL,
			`must be cabinet IDs such as ${EXAMPLE}: chosen from the list, or from an expression as a list or separated by commas`,
			itemIndex,
			raw,
		);
	}
	const ids: string[] = [];
	for (const entry of entries) {
		const id =
			typeof entry === 'string'
				? entry.trim()
				: typeof entry === 'number' && Number.isSafeInteger(entry) && entry >= 0
					? String(entry)
					: undefined;
		if (id === '') continue;
		// A refused entry is quoted as read, without the spaces around it.
		const given = typeof entry === 'string' ? id : entry;
		if (id === undefined || !CABINET_ID_PATTERN.test(id)) {
			throw invalidInput(
				node,
				CABINET_LIST_LABEL,
				`each must be a cabinet ID such as ${EXAMPLE}, made of letters, digits, "-" and "_"; a cabinet name is not an ID, and "Ad Cabinet Ads" → Cabinet → Get Many lists each cabinet's ID as account_id`,
				itemIndex,
				given,
			);
		}
		if (/^0+$/.test(id)) {
			throw invalidInput(
				node,
				CABINET_LIST_LABEL,
				`each must be the ID of a cabinet, such as ${EXAMPLE}; 0 is no cabinet`,
				itemIndex,
				given,
			);
		}
		ids.push(id);
	}
	return ids;
}
