import { GROUPING_TERMS, inWords } from '../shared/vocabulary';

const perGrouping = inWords(GROUPING_TERMS.map((term) => term.noun));

/** What an AI agent is told about each Stats operation (see shared/toolDescription.ts). */
export const STATISTIC_TOOL_TEXTS = {
	getAll: `Get advertising statistics from Ad Cabinet: one row per period (and per ${perGrouping} when Grouping is set) with period_date, spend in the chosen currency, views, clicks, actions, CTR, CPC, CPM, CPA and CVR. Dates are YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS. With the unit hour, 30 minutes or 5 minutes the period may span at most 2 days and start at most 5 days ago; day, week, month and year have no such limit. Without Return All at most Limit rows come back: if exactly Limit rows arrive, more exist, so raise Limit or narrow the period. Ad object IDs for the filter come from "Get many advertised objects".`,
};

export const ADVERTISED_OBJECT_TOOL_TEXTS = {
	getAll:
		'List the channels, bots and sites the ads promote (one item each). Their IDs filter the statistics by ad object. Without Return All at most Limit items come back.',
};

export const LEGACY_REPORT_TOOL_TEXTS = {
	get: 'The legacy statistics report. The API switched it off on 28.02.2026, so it fails; use "Get many statistics rows" instead.',
};
