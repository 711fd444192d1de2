import { PLATFORM_ID_KEY, type Audience } from './model';

export const SEEDED_AUDIENCES: readonly Audience[] = [
	{ account_id: '100001', [PLATFORM_ID_KEY]: 55001, title: 'Loyal customers Tashkent' },
	{ account_id: '100001', [PLATFORM_ID_KEY]: 55002, title: 'App installers' },
	{ account_id: '100001', [PLATFORM_ID_KEY]: 55003, title: 'Newsletter subscribers' },
	{ account_id: '100004', [PLATFORM_ID_KEY]: 55101, title: 'Partner audience' },
];

export const FIRST_CREATED_AUDIENCE_ID = 56001;
