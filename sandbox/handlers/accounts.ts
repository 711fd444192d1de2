import {
	cabinetListItem,
	cabinetName,
	campaignItem,
	dashboardBalances,
	visibleCabinets,
} from '../data/accounts';
import { ApiError, FieldErrors } from '../errors';
import type { QueryParams } from '../types';
import {
	AD_LIST_DEFAULT_LIMIT,
	AD_LIST_MAX_LIMIT,
	integerParam,
	PERIODS,
	periodWindow,
} from './adList';
import { json, queryValue, type Handler } from './context';

/**
 * The real service's own resources (telegram form only; the spec hides them): cabinet names, one
 * cabinet, the detailed cabinet list, campaigns and the dashboard balances. Paging is by offset
 * and limit with the total in `count`; the docs give no default or maximum for limit, so the
 * sandbox takes the ad list's (50 and 500).
 */

function unknownParams(query: QueryParams, known: readonly string[], errors: FieldErrors): void {
	for (const key of Object.keys(query)) {
		if (!known.includes(key))
			errors.add(key, `unknown query parameter; allowed: ${known.join(', ')}`);
	}
}

function paging(query: QueryParams, errors: FieldErrors): { offset: number; limit: number } {
	const offset = integerParam(
		errors,
		'offset',
		queryValue(query, 'offset'),
		0,
		0,
		Number.MAX_SAFE_INTEGER,
	);
	const limit = integerParam(
		errors,
		'limit',
		queryValue(query, 'limit'),
		AD_LIST_DEFAULT_LIMIT,
		1,
		AD_LIST_MAX_LIMIT,
	);
	return { offset, limit };
}

/** A text filter: matches any part of the value, ignoring case; empty means no filter. */
function textFilter(query: QueryParams, key: string): ((value: string) => boolean) | null {
	const wanted = (queryValue(query, key) ?? '').trim().toLowerCase();
	return wanted === '' ? null : (value) => value.toLowerCase().includes(wanted);
}

/** GET {base_url}/api/accounts/telegram/names: an array of every cabinet the user may see. */
export const cabinetNames: Handler = ({ data }) =>
	json(visibleCabinets(data).map((cabinet) => cabinetName(data, cabinet)));

/** GET {base_url}/api/accounts/telegram/{account_uid}: one cabinet, shaped as in the names list. */
export const cabinetGet: Handler = ({ req, data }) => {
	const id = req.params.account_uid;
	const cabinet = data.cabinet(id);
	if (!cabinet) throw new ApiError(404, `Account ${id} not found.`);
	if (!cabinet.permitted)
		throw new ApiError(403, `You do not have permission to access account ${id}.`);
	return json(cabinetName(data, cabinet));
};

/** GET {base_url}/api/accounts/telegram/?account_name=&legal_name=&offset=&limit=: `{items, count}`. */
export const cabinetList: Handler = ({ req, data }) => {
	const errors = new FieldErrors();
	unknownParams(req.query, ['account_name', 'legal_name', 'offset', 'limit'], errors);
	const { offset, limit } = paging(req.query, errors);
	errors.throwIfAny();
	const byName = textFilter(req.query, 'account_name');
	const byLegalName = textFilter(req.query, 'legal_name');
	const matching = visibleCabinets(data).filter(
		(cabinet) =>
			(!byName || byName(cabinet.name)) && (!byLegalName || byLegalName(cabinet.legalName)),
	);
	return json({
		items: matching.slice(offset, offset + limit).map((cabinet) => cabinetListItem(data, cabinet)),
		count: matching.length,
	});
};

/**
 * GET {base_url}/api/campaigns/?period=&campaign_name=&is_active=&offset=&limit=: `{items, count}`.
 * `period` chooses the window the figures cover (default all); every campaign is listed in every
 * period. A campaign is active while one of its ads runs.
 */
export const campaignList: Handler = ({ req, data }) => {
	const errors = new FieldErrors();
	unknownParams(req.query, ['period', 'offset', 'limit', 'campaign_name', 'is_active'], errors);
	const { offset, limit } = paging(req.query, errors);
	const period = queryValue(req.query, 'period') ?? 'all';
	if (!PERIODS.includes(period))
		errors.add('period', `must be one of ${PERIODS.join(', ')}, got ${JSON.stringify(period)}`);
	const activeRaw = queryValue(req.query, 'is_active');
	if (activeRaw !== undefined && !['true', 'false'].includes(activeRaw.toLowerCase()))
		errors.add(
			'is_active',
			`must be true or false (or left out for both), got ${JSON.stringify(activeRaw)}`,
		);
	errors.throwIfAny();
	const now = data.nowMs();
	const window = periodWindow(period, now) ?? [Number.NEGATIVE_INFINITY, now];
	// The window's end is inclusive in the ad list's terms; figures cover slots that ended by then.
	const toMs = Math.min(now, window[1] + 1);
	const byName = textFilter(req.query, 'campaign_name');
	const visible = new Set(visibleCabinets(data).map((c) => c.account_id));
	const wantActive = activeRaw === undefined ? null : activeRaw.toLowerCase() === 'true';
	const matching = data.campaigns
		.filter((campaign) => visible.has(campaign.account_id) && (!byName || byName(campaign.name)))
		.sort((a, b) => a.id - b.id)
		.map((campaign) => campaignItem(data, campaign, window[0], toMs))
		.filter((item) => wantActive === null || (item.status === 'active') === wantActive);
	return json({ items: matching.slice(offset, offset + limit), count: matching.length });
};

/** GET {base_url}/api/dashboard/balances: `{active, available, total}`, each `{amount, currency}`. */
export const balances: Handler = ({ data }) => json(dashboardBalances(data));
