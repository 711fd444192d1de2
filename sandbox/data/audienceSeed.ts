/** Seeded audiences, by the spec-form id of their cabinet; `platformId` is served as ext_id / tg_id. */
export const SEEDED_AUDIENCES: readonly {
	account_id: string;
	platformId: number;
	title: string;
}[] = [
	{ account_id: '100001', platformId: 55001, title: 'Loyal customers Tashkent' },
	{ account_id: '100001', platformId: 55002, title: 'App installers' },
	{ account_id: '100001', platformId: 55003, title: 'Newsletter subscribers' },
	{ account_id: '100004', platformId: 55101, title: 'Partner audience' },
];

export const FIRST_CREATED_AUDIENCE_ID = 56001;
