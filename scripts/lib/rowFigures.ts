/**
 * A statistics row by period and campaign as the sync and sheets stages compare it between a store
 * and the API: its identity (day and campaign) and its figures in one text, so that a number stored
 * as 12.5 and one sent as "12.50" compare equal.
 */
/** The figures compared between a store and the API (numbers), and the name (text). */
const FIGURES = [
	'exchanged_spent',
	'views',
	'clicks',
	'actions',
	'ctr',
	'cpc',
	'cpm',
	'cpa',
	'cvr',
];

/** What a store holds of one row, in a form both stores and the API's rows compare in. */
export interface HeldRow {
	rowKey: string;
	/** Period start (ms) and campaign: what the row is about. */
	identity: string;
	figures: string;
}

export function identityOf(periodMs: number, campaignId: unknown): string {
	return `${new Date(periodMs).toISOString().slice(0, 10)}/${String(campaignId)}`;
}

export function figuresOf(row: Record<string, unknown>): string {
	return [...FIGURES.map((field) => Number(row[field])), String(row.campaign_name)].join('|');
}

/** Rows by their period_date and campaign_id: identity → figures. */
export function figuresByIdentity(rows: Array<Record<string, unknown>>): Map<string, string> {
	return new Map(
		rows.map((row) => [
			identityOf(Date.parse(String(row.period_date)), row.campaign_id),
			figuresOf(row),
		]),
	);
}
