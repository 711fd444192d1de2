import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { MAX_PAGE_SIZE, PATHS } from '../../shared/constants';
import { apiRequest } from '../../shared/transport/request';

/**
 * "From List" of the Ad locator: ads from the list endpoint, a page of 500 at a time,
 * matched by title or ID. The API filters titles only by exact match, so the search is done here.
 */
export async function searchAds(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const offset = Number(paginationToken ?? 0) || 0;
	const body = (await apiRequest.call(this, {
		api: 'base',
		method: 'GET',
		path: PATHS.adList,
		qs: { offset, limit: MAX_PAGE_SIZE },
	})) as { data?: IDataObject[] } | IDataObject[] | undefined;
	const ads = Array.isArray(body) ? body : (body?.data ?? []);
	const needle = (filter ?? '').trim().toLowerCase();
	const results = ads
		.filter(
			(ad) =>
				!needle ||
				String(ad.advertisement_title ?? '')
					.toLowerCase()
					.includes(needle) ||
				String(ad.id) === needle,
		)
		.map((ad) => ({
			name: `${String(ad.advertisement_title)} (#${String(ad.id)}, ${String(ad.campaign_name ?? '')})`,
			value: String(ad.id),
		}));
	return {
		results,
		paginationToken: ads.length === MAX_PAGE_SIZE ? String(offset + MAX_PAGE_SIZE) : undefined,
	};
}
