import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';
import { MAX_PAGE_SIZE } from '../constants';
import { offsetPages, realServiceCredentials } from '../realService';
import { chosenCabinet } from './cabinetLists';

/** A paginationToken is the list offset to go on from; anything else starts at the beginning. */
function offsetOf(token: string | undefined): number {
	const offset = Number(token);
	return Number.isSafeInteger(offset) && offset > 0 ? offset : 0;
}

/** A campaign that can be chosen: one with a whole-number id above 0, as ad create takes it. */
function campaignId(campaign: IDataObject): number | undefined {
	const id = Number(campaign.id);
	return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/**
 * From List of a Campaign ID resource locator: the real service's campaign list (its docs,
 * "Campaigns"), a page of up to 500 at a time, searched by name with the API's own filter. When
 * the node has a Cabinet ID, only that cabinet's campaigns are listed; the API has no cabinet filter,
 * so whole pages are read and the others left out. Without one, each entry names its cabinet. The
 * real service documents no web page per campaign, so entries have no link.
 */
export async function searchCampaigns(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const { credentials, paths } = await realServiceCredentials(
		this,
		0,
		'Campaign lists',
		'choose "By ID" and type the campaign ID',
	);
	const cabinet = chosenCabinet(this);
	// Every campaign is listed whatever the period; the period only chooses the days its figures cover.
	const qs: IDataObject = { period: 'all' };
	const name = (filter ?? '').trim();
	if (name) qs.campaign_name = name;
	const { items, next } = await offsetPages(this, {
		path: paths.campaignList,
		qs,
		limit: MAX_PAGE_SIZE,
		credentials,
		offset: offsetOf(paginationToken),
		keep: cabinet ? (campaign) => String(campaign.account_id ?? '').trim() === cabinet : undefined,
	});
	const results: INodeListSearchItems[] = [];
	for (const campaign of items) {
		const id = campaignId(campaign);
		if (id === undefined) continue;
		const owner = cabinet ? undefined : campaign.account_name || campaign.account_id;
		const label =
			typeof campaign.name === 'string' && campaign.name.trim() ? campaign.name : `Campaign ${id}`;
		results.push({
			name: `${label} (${id}${owner ? `, ${String(owner)}` : ''})`,
			value: String(id),
		});
	}
	return { results, paginationToken: next === undefined ? undefined : String(next) };
}
