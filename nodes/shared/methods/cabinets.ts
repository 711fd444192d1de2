import type {
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodePropertyOptions,
} from 'n8n-workflow';
import { PLATFORM_NAMES } from '../platform';
import { realServiceCredentials } from '../realService';
import { apiRequest } from '../transport/request';

interface CabinetName {
	account_uid?: unknown;
	name?: unknown;
	balance?: unknown;
}

/**
 * Every cabinet the token sees, as `Name (ID)` with its ID; one without an ID cannot be chosen. Fed
 * by the real service's cabinet names (its docs, "Accounts"); the Generic form has no list, so
 * with the credential in the Generic form it says what to do instead, before anything is sent.
 */
async function cabinetChoices(
	ctx: ILoadOptionsFunctions,
	instead: string,
): Promise<Array<{ name: string; value: string; cabinetName: string }>> {
	const { credentials, paths } = await realServiceCredentials(ctx, 0, 'Cabinet lists', instead);
	const body = (await apiRequest.call(ctx, {
		api: 'base',
		method: 'GET',
		path: paths.cabinetNames,
		credentials,
	})) as unknown;
	const cabinets = Array.isArray(body) ? (body as CabinetName[]) : [];
	return cabinets
		.filter(
			(cabinet) =>
				(typeof cabinet.account_uid === 'string' && cabinet.account_uid.trim() !== '') ||
				typeof cabinet.account_uid === 'number',
		)
		.map((cabinet) => {
			const id = String(cabinet.account_uid);
			const cabinetName = String(cabinet.name ?? '');
			return { name: cabinetName ? `${cabinetName} (${id})` : id, value: id, cabinetName };
		});
}

function matches(filter: string | undefined, ...texts: string[]): boolean {
	const needle = (filter ?? '').trim().toLowerCase();
	return !needle || texts.some((text) => text.toLowerCase().includes(needle));
}

/** From List of a Cabinet ID resource locator: every cabinet by name, searchable by name or ID. */
export async function searchCabinets(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const cabinets = await cabinetChoices(this, 'choose "By ID" and type the cabinet ID');
	return {
		results: cabinets
			.filter((cabinet) => matches(filter, cabinet.cabinetName, cabinet.value))
			.map(({ name, value }) => ({ name, value })),
	};
}

/** The statistics' cabinet filter (a multi-select): every cabinet by name, its value the cabinet ID the statistics take. */
export async function getCabinets(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const example = PLATFORM_NAMES.ext.cabinetIdExample;
	const cabinets = await cabinetChoices(
		this,
		`give the cabinet IDs with an expression: a list such as {{ ["${example}"] }}, or IDs separated by commas`,
	);
	return cabinets.map(({ name, value }) => ({ name, value }));
}
