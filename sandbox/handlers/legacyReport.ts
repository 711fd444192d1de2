import { ApiError } from '../errors';
import { legacyReportRows } from '../stats/legacyReport';
import { json, jsonObjectBody, type Handler } from './context';

const LEGACY_REPORT_GONE = 'This report was disabled on 28.02.2026. Use /api/v1/stats/page.';

/** POST {base_url}/api/report/{platform}view (deprecated, disabled from 28.02.2026). */
export const legacyReport: Handler = ({ req, data }) => {
	if (data.legacyReportDisabled) throw new ApiError(410, LEGACY_REPORT_GONE);
	const body = jsonObjectBody(req);
	return json({ results: legacyReportRows(data, body, data.nowMs()) });
};
