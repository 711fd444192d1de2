import { fieldError } from '../errors';
import { DAY_MS } from '../metrics/time';
import type { Ad, Campaign } from './model';

/** What a forced restatement needs of the sandbox: its clock and its ads and campaigns. */
interface RestatementScope {
	nowMs(): number;
	ad(id: number): Ad | undefined;
	campaign(id: number): Campaign | undefined;
}

/**
 * The campaign or ad and the UTC day (as a day number) a control request asks to restate, or a
 * field error: the day must be written `YYYY-MM-DD` and have begun, and the item must name exactly
 * one existing campaign or ad.
 */
export function forcedRestatementTarget(
	data: RestatementScope,
	target: { day?: unknown; campaign_id?: unknown; ad_id?: unknown },
): { day: number; campaignId?: number; adId?: number } {
	const day = typeof target.day === 'string' ? target.day : '';
	const dayMs = /^\d{4}-\d{2}-\d{2}$/.test(day) ? Date.parse(`${day}T00:00:00Z`) : Number.NaN;
	if (Number.isNaN(dayMs))
		throw fieldError(
			'day',
			`must be a UTC date written YYYY-MM-DD, got ${JSON.stringify(target.day)}`,
		);
	if (dayMs > data.nowMs())
		throw fieldError(
			'day',
			`${day} has not begun on the sandbox clock (${new Date(data.nowMs()).toISOString()})`,
		);
	const hasAd = target.ad_id !== undefined;
	if (hasAd === (target.campaign_id !== undefined))
		throw fieldError('restate', 'each item names either a campaign_id or an ad_id, with a day');
	if (hasAd && !data.ad(Number(target.ad_id)))
		throw fieldError('ad_id', `no ad ${JSON.stringify(target.ad_id)}`);
	if (!hasAd && !data.campaign(Number(target.campaign_id)))
		throw fieldError('campaign_id', `no campaign ${JSON.stringify(target.campaign_id)}`);
	return {
		day: dayMs / DAY_MS,
		...(hasAd ? { adId: Number(target.ad_id) } : { campaignId: Number(target.campaign_id) }),
	};
}
