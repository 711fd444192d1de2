import type { IDataObject } from 'n8n-workflow';
import type { CredentialView } from './auth';
import { MAX_PAGE_SIZE, PATHS } from './constants';
import { apiRequest, type RequestContext } from './transport/request';

interface AdListRequest {
	/** The list's filters; `offset` and `limit` are added per page. */
	qs: IDataObject;
	/** Where in the list to start. */
	offset: number;
	/** Asked before each page after the first is read: false stops with the list unfinished. */
	readMore: (pagesRead: number) => boolean;
	/** Each page's ads, as they arrive. */
	onPage: (ads: IDataObject[]) => void;
	credentials?: CredentialView;
	itemIndex?: number;
}

export interface AdListRead {
	/** The list was read to its end. */
	complete: boolean;
	/** Where the next page starts. */
	nextOffset: number;
	pages: number;
}

/**
 * Reads the ad list (`data` under offset paging, 500 ads a page, the API's largest) from `offset`
 * until it ends or `readMore` says stop. A short page ends the list, and so does a page with no ad
 * not seen before: a server that ignores the offset would otherwise be paged for good.
 */
export async function readAdList(ctx: RequestContext, request: AdListRequest): Promise<AdListRead> {
	const ids = new Set<unknown>();
	let { offset } = request;
	let pages = 0;
	for (;;) {
		if (pages > 0 && !request.readMore(pages))
			return { complete: false, nextOffset: offset, pages };
		const body = await apiRequest.call(ctx, {
			api: 'base',
			method: 'GET',
			path: PATHS.adList,
			qs: { ...request.qs, offset, limit: MAX_PAGE_SIZE },
			credentials: request.credentials,
			itemIndex: request.itemIndex,
		});
		pages++;
		const data = (body as { data?: unknown } | undefined)?.data;
		const ads = (Array.isArray(data) ? data : []).filter(
			(ad): ad is IDataObject => ad !== null && typeof ad === 'object' && !Array.isArray(ad),
		);
		let fresh = 0;
		for (const ad of ads) {
			if (!ids.has(ad.id)) fresh++;
			ids.add(ad.id);
		}
		request.onPage(ads);
		offset += Array.isArray(data) ? data.length : 0;
		if (!Array.isArray(data) || data.length < MAX_PAGE_SIZE || fresh === 0)
			return { complete: true, nextOffset: offset, pages };
	}
}
