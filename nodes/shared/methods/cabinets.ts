import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { realServiceCredentials } from '../realService';
import { apiRequest } from '../transport/request';

interface CabinetName {
	account_uid?: unknown;
	name?: unknown;
	balance?: unknown;
}

/**
 * The Cabinet ID picker, fed by the real service's cabinet names (its docs, "Accounts"). The
 * interface spec hides the list, so with the credential in the Generic form it says it cannot list
 * cabinets and points at By ID.
 */
async function cabinetNames(ctx: ILoadOptionsFunctions): Promise<CabinetName[]> {
	const { credentials, paths } = await realServiceCredentials(
		ctx,
		0,
		'Cabinet lists',
		'choose "By ID" and type the cabinet ID',
	);
	const body = (await apiRequest.call(ctx, {
		api: 'base',
		method: 'GET',
		path: paths.cabinetNames,
		credentials,
	})) as unknown;
	return Array.isArray(body) ? (body as CabinetName[]) : [];
}

function matches(filter: string | undefined, ...texts: unknown[]): boolean {
	const needle = (filter ?? '').trim().toLowerCase();
	return !needle || texts.some((text) => String(text ?? '').toLowerCase().includes(needle));
}

/** From List of a Cabinet ID resource locator: every cabinet by name, searchable by name or ID. */
export async function searchCabinets(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const cabinets = await cabinetNames(this);
	return {
		results: cabinets
			.filter((cabinet) => matches(filter, cabinet.name, cabinet.account_uid))
			.map((cabinet) => ({
				name: `${String(cabinet.name)} (${String(cabinet.account_uid)})`,
				value: String(cabinet.account_uid),
			})),
	};
}
