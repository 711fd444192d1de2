export const CREDENTIAL_TYPE = 'adCabinetApi';

/** Which of the credential's two addresses an endpoint lives on (docs/api-rules.md#addresses). */
export type ApiBase = 'base' | 'client';

/**
 * The endpoint paths that are the same in both forms of the API. The paths that name the platform
 * (ads, the legacy report, media upload, audiences) differ between the forms: they are in the
 * naming map (platform.ts), chosen by the credential.
 */
export const PATHS = {
	statsPage: '/api/v1/stats/page',
	reportObjects: '/api/report/objects',
	adList: '/api/v2/advertisement/',
	botValidation: '/api/advertisement/bots/validate',
	kktu: '/api/kktu',
	pixelEvents: '/api/pixel_events/',
	pixelEventTypes: '/api/pixel_events/types',
	pixelBaseCode: (accountId: string) =>
		`/api/pixel_events/${encodeURIComponent(accountId)}/code_snippet`,
	pixelEvent: (eventId: string) => `/api/pixel_events/${encodeURIComponent(eventId)}`,
	pixelEventDelete: (accountId: string, eventId: string) =>
		`/api/pixel_events/${encodeURIComponent(accountId)}/events/${encodeURIComponent(eventId)}`,
} as const;

/** The largest `limit` the statistics and ad list endpoints accept. */
export const MAX_PAGE_SIZE = 500;

/** Pages a list may take beyond what the API's own count needs, before paging is stopped as endless. */
export const PAGE_BOUND_SLACK = 5;
