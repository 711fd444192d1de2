import {
	NodeOperationError,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type ILoadOptionsFunctions,
	type INodeListSearchResult,
	type INodePropertyOptions,
} from 'n8n-workflow';
import { CREDENTIAL_TYPE, MAX_PAGE_SIZE } from '../constants';
import { platformNames, type PlatformNames } from '../platform';
import { apiRequest } from '../transport/request';

/**
 * Pickers fed by the real service's own lists (its docs, "Accounts" and "Campaigns"): the cabinet
 * names and the campaigns. The interface spec hides both, so with the credential in the Generic
 * form the list says it cannot list them and points at By ID.
 */
async function telegramOnly(
	ctx: ILoadOptionsFunctions,
	what: string,
): Promise<{ credentials: ICredentialDataDecryptedObject; paths: NonNullable<PlatformNames['accounts']> }> {
	const credentials = await ctx.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE);
	const names = platformNames(credentials, ctx.getNode());
	if (!names.accounts) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The API of the credential's Platform "${names.label}" has no ${what} list, so none can be shown here: choose "By ID" and type the ID. Nothing was sent to the API.`,
		);
	}
	return { credentials, paths: names.accounts };
}

interface CabinetName {
	account_uid?: unknown;
	name?: unknown;
	balance?: unknown;
}

async function cabinetNames(ctx: ILoadOptionsFunctions): Promise<CabinetName[]> {
	const { credentials, paths } = await telegramOnly(ctx, 'cabinet');
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

/** The Stats cabinet filter's multi-select. */
export async function getCabinets(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return (await cabinetNames(this)).map((cabinet) => ({
		name: `${String(cabinet.name)} (${String(cabinet.account_uid)})`,
		value: String(cabinet.account_uid),
		...(typeof cabinet.balance === 'number' ? { description: `Available balance ${cabinet.balance}` } : {}),
	}));
}

/**
 * From List of Campaign ID: the campaigns, searchable by name (the API filters) or ID, limited to
 * the cabinet chosen in the same node when it has one, a page of 500 at a time.
 */
export async function searchCampaigns(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const { credentials, paths } = await telegramOnly(this, 'campaign');
	const offset = Number(paginationToken ?? 0) || 0;
	const raw = this.getCurrentNodeParameter('accountId', { extractValue: true }) as unknown;
	const cabinet = typeof raw === 'string' || typeof raw === 'number' ? String(raw).trim() : '';
	const needle = (filter ?? '').trim();
	const qs: IDataObject = { offset, limit: MAX_PAGE_SIZE };
	if (needle && !/^\d+$/.test(needle)) qs.campaign_name = needle;
	const body = (await apiRequest.call(this, {
		api: 'base',
		method: 'GET',
		path: paths.campaignList,
		qs,
		credentials,
	})) as { items?: IDataObject[]; count?: number } | undefined;
	const items = Array.isArray(body?.items) ? body.items : [];
	const results = items
		.filter((campaign) => !cabinet || String(campaign.account_id) === cabinet)
		.filter((campaign) => !/^\d+$/.test(needle) || String(campaign.id) === needle)
		.map((campaign) => ({
			name: `${String(campaign.name)} (#${String(campaign.id)}, ${String(campaign.account_name ?? campaign.account_id ?? '')})`,
			value: String(campaign.id),
		}));
	const next = offset + items.length;
	return {
		results,
		paginationToken: items.length === MAX_PAGE_SIZE && (body?.count === undefined || next < body.count) ? String(next) : undefined,
	};
}
