import { PLATFORM } from './platform';

export const CREDENTIAL_TYPE = 'adCabinetApi';

/** Which of the credential's two addresses an endpoint lives on (spec, "Addresses"). */
export type ApiBase = 'base' | 'client';

/** Every endpoint path of the spec, built once from the platform constant. */
export const PATHS = {
	statsPage: '/api/v1/stats/page',
	legacyReport: `/api/report/${PLATFORM}view`,
	reportObjects: '/api/report/objects',
	adList: '/api/v2/advertisement/',
	adCreate: `/api/advertisement/${PLATFORM}/`,
	ad: (adId: string | number) => `/api/advertisement/${PLATFORM}/${encodeURIComponent(String(adId))}`,
	botValidation: '/api/advertisement/bots/validate',
	mediaUpload: `/api/v1/advertising/${PLATFORM}/upload_media`,
	kktu: '/api/kktu',
	pixelEvents: '/api/pixel_events/',
	pixelEventTypes: '/api/pixel_events/types',
	pixelBaseCode: (accountId: string) =>
		`/api/pixel_events/${encodeURIComponent(accountId)}/code_snippet`,
	pixelEvent: (eventId: string) => `/api/pixel_events/${encodeURIComponent(eventId)}`,
	pixelEventDelete: (accountId: string, eventId: string) =>
		`/api/pixel_events/${encodeURIComponent(accountId)}/events/${encodeURIComponent(eventId)}`,
	audiencesList: (accountId: string) =>
		`/api/advertisement/${PLATFORM}/${encodeURIComponent(accountId)}/audiences/`,
	audienceCreate: (accountId: string) =>
		`/api/advertisement/${PLATFORM}/${encodeURIComponent(accountId)}/audiences`,
} as const;

/** spec 8: maximum `limit` of the statistics and ad list endpoints. */
export const MAX_PAGE_SIZE = 500;
