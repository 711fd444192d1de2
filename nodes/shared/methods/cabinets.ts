import {
	NodeOperationError,
	type ICredentialDataDecryptedObject,
	type ILoadOptionsFunctions,
	type INodeListSearchResult,
	type INodePropertyOptions,
} from 'n8n-workflow';
import { CREDENTIAL_TYPE } from '../constants';
import { PLATFORM_NAMES, platformNames, type PlatformNames } from '../platform';
import { apiRequest } from '../transport/request';

/**
 * The cabinet lists of the editor (the Cabinet ID picker, the statistics' cabinet filter), fed by
 * the real service's cabinet names (its docs, "Accounts"). The interface spec hides the list, so
 * with the credential in the Generic form each says it cannot list cabinets and what to do
 * instead (`instead`), before anything is sent.
 */
async function telegramOnly(
	ctx: ILoadOptionsFunctions,
	instead: string,
): Promise<{ credentials: ICredentialDataDecryptedObject; paths: NonNullable<PlatformNames['accounts']> }> {
	const credentials = await ctx.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE);
	const names = platformNames(credentials, ctx.getNode());
	if (!names.accounts) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The API of the credential's Platform "${names.label}" has no cabinet list, so none can be shown here: ${instead}. Nothing was sent to the API.`,
		);
	}
	return { credentials, paths: names.accounts };
}

interface CabinetName {
	account_uid?: unknown;
	name?: unknown;
	balance?: unknown;
}

/** Every cabinet the token sees, as `Name (ID)` with its ID; one without an ID cannot be chosen. */
async function cabinetChoices(
	ctx: ILoadOptionsFunctions,
	instead: string,
): Promise<Array<{ name: string; value: string; cabinetName: string }>> {
	const { credentials, paths } = await telegramOnly(ctx, instead);
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
	const cabinets = await cabinetChoices(this, 'choose "By ID" and type the ID');
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
		`the list exists only on the real service (Platform "${PLATFORM_NAMES.telegram.label}"). Give the cabinet IDs with an expression instead: a list such as {{ ["${example}"] }}, or IDs separated by commas`,
	);
	return cabinets.map(({ name, value }) => ({ name, value }));
}
