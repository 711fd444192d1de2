import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IPollFunctions,
} from 'n8n-workflow';
import { readAdList, type AdListRead } from '../shared/adList';
import { renewsItself, type CredentialView } from '../shared/auth';
import { apiRequest } from '../shared/transport/request';
import { readListedAd, type ListedAd } from './adPass';

/**
 * How long a poll goes on reading pages: past this it starts no new page, keeps its place and the
 * next poll reads on. It leaves room within n8n's shortest poll interval (a minute).
 */
const POLL_BUDGET_MS = 45_000;

/**
 * Titles and campaign names go to the API as its own filters, and are checked again on each ad,
 * in case a server ignores them.
 */
export interface ListQuery {
	titles: string[];
	campaigns: string[];
}

function listQs(query: ListQuery): IDataObject {
	return {
		// Deleted ads stay listed, so a deletion is seen as a status and offsets do not shift.
		show_deleted: true,
		...(query.titles.length ? { advertisement_titles: query.titles } : {}),
		...(query.campaigns.length ? { campaign_names: query.campaigns } : {}),
	};
}

/** Whether a listed ad passes the title and campaign filters (empty filters pass every ad). */
function inQuery(query: ListQuery, ad: ListedAd): boolean {
	const title = String(ad.item.advertisement_title ?? '');
	const campaign = String(ad.item.campaign_name ?? '');
	return (
		(!query.titles.length || query.titles.includes(title)) &&
		(!query.campaigns.length || query.campaigns.includes(campaign))
	);
}

/**
 * Reads the ad list from `offset` until it ends, as many pages were read as the credential's rate
 * limit lets start on one path in one window (so a poll never waits for its own requests), or the
 * poll's time is up. Each page's ads that pass the filters go to `onPage` as they arrive.
 */
export async function readListPages(
	ctx: IPollFunctions,
	credentials: CredentialView,
	query: ListQuery,
	offset: number,
	onPage: (ads: ListedAd[]) => void,
	startedAt = Date.now(),
): Promise<AdListRead> {
	// A credential that renews its token keeps one place of the window for n8n's repeat after a
	// renewal (see pacing.ts), so one place fewer is free for pages.
	const places = credentials.pace
		? credentials.pace.requests - (renewsItself(credentials) ? 1 : 0)
		: Infinity;
	const maxPages = Math.max(1, places);
	return await readAdList(ctx, {
		qs: listQs(query),
		offset,
		credentials,
		readMore: (pages) => pages < maxPages && Date.now() - startedAt < POLL_BUDGET_MS,
		onPage: (items) => {
			const ads: ListedAd[] = [];
			for (const item of items) {
				const ad = readListedAd(item);
				if (ad && inQuery(query, ad)) ads.push(ad);
			}
			onPage(ads);
		},
	});
}

/**
 * One ad's detail: its cabinet (`account_id`) and, for a declined ad, `decline_reason`. Undefined
 * when the API answers 404 (the ad was removed since it was listed), so that one such ad cannot
 * hold every later poll back; any other failure fails the poll, which then stores nothing.
 */
export async function readAdDetail(
	ctx: IPollFunctions,
	credentials: CredentialView,
	adId: number,
): Promise<IDataObject | undefined> {
	let body: unknown;
	let caught: unknown;
	try {
		body = await apiRequest.call(ctx, {
			api: 'base',
			method: 'GET',
			path: (names) => names.paths.ad(adId),
			credentials,
		});
	} catch (error) {
		caught = error;
	}
	if (caught !== undefined) {
		if (caught instanceof NodeApiError && String(caught.httpCode) === '404') return undefined;
		if (caught instanceof NodeApiError || caught instanceof NodeOperationError) throw caught;
		throw new NodeOperationError(ctx.getNode(), String(caught));
	}
	return typeof body === 'object' && body !== null && !Array.isArray(body)
		? (body as IDataObject)
		: {};
}
