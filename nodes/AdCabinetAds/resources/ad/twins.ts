import type { IDataObject } from 'n8n-workflow';
import { readableText, readableUrl } from './sameAd';

/**
 * The look after a node's creates for a twin: an identical ad (same campaign, title, promote URL
 * and text) that another run made at the same moment. The shared records keep runs of one node
 * apart, but runs of another workflow (a copy of this one left active, a second Create node) never
 * see them, and a claim can be lost to an overlapping write. Each of the two runs reads the list
 * after its own create has been answered, so the run whose ad came second always finds the first.
 *
 * One look covers every ad the node made in its execution: one read of the ads made today (pages of
 * 500), and the detail of each listed ad with the same campaign and title as one of them. A made ad
 * the list of today does not hold (the service's day turned, or the list lags) is looked for by its
 * title, and an ad made in the first minutes of the service's day also in yesterday's list.
 */
export interface TwinPorts {
	/** The ads of a `period` (`today`, `yesterday`) or, with `title`, every ad of that title. */
	list: (filter: { period?: string; title?: string }) => Promise<IDataObject[]>;
	detail: (adId: string) => Promise<IDataObject>;
}

export interface MadeAd {
	adId: unknown;
	body: IDataObject;
}

/** The minutes after the service's midnight in which yesterday's list is read too. */
const NEAR_MIDNIGHT_MINUTES = 10;

const sameListing = (listed: IDataObject, made: MadeAd) =>
	listed.status !== 'deleted' &&
	String(listed.id) !== String(made.adId) &&
	String(listed.campaign_id) === String(made.body.campaign_id) &&
	readableText(listed.advertisement_title) === readableText(made.body.title);

/** `created_dt` is `DD.MM.YYYY HH:MM:SS` in the service's time: minutes after its midnight. */
function minutesIntoDay(created: unknown): number | undefined {
	const match = typeof created === 'string' ? /\s(\d{2}):(\d{2})/.exec(created) : null;
	return match ? Number(match[1]) * 60 + Number(match[2]) : undefined;
}

/** For each ad made, the IDs of its twins (empty when it has none). */
export async function twinsOf(ports: TwinPorts, made: MadeAd[]): Promise<unknown[][]> {
	if (made.length === 0) return [];
	const listed = await ports.list({ period: 'today' });
	const seen = new Set(listed.map((ad) => String(ad.id)));
	const more: IDataObject[] = [];
	let yesterday = false;
	for (const ad of made) {
		const own = listed.find((entry) => String(entry.id) === String(ad.adId));
		if (!own) more.push(...(await ports.list({ title: readableText(ad.body.title) })));
		const minutes = minutesIntoDay(own?.created_dt);
		if (minutes !== undefined && minutes < NEAR_MIDNIGHT_MINUTES) yesterday = true;
	}
	if (yesterday) more.push(...(await ports.list({ period: 'yesterday' })));
	for (const ad of more) if (!seen.has(String(ad.id)) && seen.add(String(ad.id))) listed.push(ad);
	const out: unknown[][] = [];
	for (const ad of made) {
		const twins: unknown[] = [];
		for (const entry of listed.filter((listing) => sameListing(listing, ad))) {
			const detail = await ports.detail(String(entry.id));
			if (
				readableUrl(detail.promote_url) === readableUrl(ad.body.promote_url) &&
				readableText(detail.text) === readableText(ad.body.text)
			)
				twins.push(entry.id);
		}
		out.push(twins);
	}
	return out;
}
