import { adDetail } from '../data/adViews';
import { ApiError } from '../errors';
import { json, type Handler } from './context';

export function adNotFound(id: string): ApiError {
	return new ApiError(404, `Advertisement ${id} not found.`);
}

/** GET {base_url}/api/advertisement/{platform}/{ad_id}: the ad's detail. */
export const adGet: Handler = ({ req, data }) => {
	const ad = data.ad(Number(req.params.ad_id));
	if (!ad || data.cabinet(ad.accountId)?.permitted !== true) throw adNotFound(req.params.ad_id);
	return json(adDetail(data, ad));
};
