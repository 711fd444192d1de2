import { AD_STATUSES, type AdStatus } from '../data/model';
import type { SandboxData } from '../data/sandboxData';
import { ApiError, fieldError, isPlainObject } from '../errors';
import { adDetail } from '../data/adViews';

function isAdStatus(value: unknown): value is AdStatus {
	return typeof value === 'string' && (AD_STATUSES as readonly string[]).includes(value);
}

/**
 * POST /__sandbox/ads/{ad_id}/status with `{ status, decline_reason? }`: moderation or the
 * advertiser changed an ad's status. The status, its `decline_reason` (kept only while the ad is
 * declined, empty otherwise) and `status_updated_dt` (now, by the sandbox's clock) change together,
 * so the ad list and the ad's detail show the change in either form. Answers the ad's detail.
 */
export function setAdStatus(
	data: SandboxData,
	rawId: string,
	body: Record<string, unknown>,
): Record<string, unknown> {
	const id = /^\d+$/.test(rawId) ? Number(rawId) : Number.NaN;
	const ad = Number.isSafeInteger(id) ? data.ad(id) : undefined;
	if (!ad) throw new ApiError(404, `Advertisement ${rawId} not found.`);
	if (!isAdStatus(body.status))
		throw fieldError('status', `must be one of ${AD_STATUSES.join(', ')}`);
	const reasons = body.decline_reason;
	if (reasons !== undefined && !(Array.isArray(reasons) && reasons.every(isPlainObject)))
		throw fieldError('decline_reason', 'must be a list of objects, such as [{"reason": "…"}]');
	if (reasons !== undefined && body.status !== 'declined')
		throw fieldError('decline_reason', 'is only kept for the status declined');
	ad.status = body.status;
	ad.statusUpdatedAt = data.nowMs();
	ad.fields.decline_reason =
		body.status === 'declined' ? structuredClone((reasons ?? []) as Record<string, unknown>[]) : [];
	data.adChanged();
	return adDetail(data, ad);
}
