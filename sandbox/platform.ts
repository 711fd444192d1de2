/**
 * The two forms the sandbox speaks, and the names each gives to paths and fields.
 *
 * - `telegram`: the real service (Adstat, the reseller cabinet for Telegram Ads), as its public
 *   developer docs name things. Where those docs are silent (audiences, the base pixel code, the
 *   ad detail's event), the names follow the docs' own pattern (`tg_…`).
 * - `ext`: the interface spec, which writes the platform as `ext` everywhere.
 *
 * This is the sandbox's own transcription: the API it emulates is the reference, not the nodes.
 */
export type Platform = 'telegram' | 'ext';

export const PLATFORMS: readonly Platform[] = ['telegram', 'ext'];

export const DEFAULT_PLATFORM: Platform = 'telegram';

export function isPlatform(value: unknown): value is Platform {
	return typeof value === 'string' && (PLATFORMS as readonly string[]).includes(value);
}

export interface PlatformNames {
	platform: Platform;
	/** Paths as documented; `{name}` marks a path parameter. */
	paths: {
		/** POST: create an ad. */
		adCreate: string;
		/** GET: ad detail; PUT: edit. */
		ad: string;
		/** POST: the legacy statistics report. */
		legacyReport: string;
		/** POST on the client API, with the query account_id. */
		uploadMedia: string;
		/** GET on the client API. */
		audienceList: string;
		/** POST (multipart) on the client API. */
		audienceCreate: string;
	};
	fields: {
		/** Pixel event list, ad create and edit, and the ad detail's `event` object. */
		eventId: string;
		/** Ad detail: the ad's id on the platform. */
		adPlatformId: string;
		/** Ad detail. */
		accountType: string;
		/** Base pixel code. */
		pixelId: string;
		/** Audience list and create. */
		audienceId: string;
	};
	/** The function a pixel snippet calls: `<fn>('event', ...)`. */
	pixelFunction: string;
}

export const PLATFORM_NAMES: Readonly<Record<Platform, PlatformNames>> = {
	telegram: {
		platform: 'telegram',
		paths: {
			adCreate: '/api/advertisement/telegram/',
			ad: '/api/advertisement/telegram/{ad_id}',
			legacyReport: '/api/report/tgview',
			uploadMedia: '/api/v1/advertising/telegram/upload_media',
			audienceList: '/api/advertisement/telegram/{account_id}/audiences/',
			audienceCreate: '/api/advertisement/telegram/{account_id}/audiences',
		},
		fields: {
			eventId: 'tg_event_id',
			adPlatformId: 'telegram_id',
			accountType: 'tg_account_type',
			pixelId: 'tg_pixel_id',
			audienceId: 'tg_id',
		},
		pixelFunction: 'tgp',
	},
	ext: {
		platform: 'ext',
		paths: {
			adCreate: '/api/advertisement/ext/',
			ad: '/api/advertisement/ext/{ad_id}',
			legacyReport: '/api/report/extview',
			uploadMedia: '/api/v1/advertising/ext/upload_media',
			audienceList: '/api/advertisement/ext/{account_id}/audiences/',
			audienceCreate: '/api/advertisement/ext/{account_id}/audiences',
		},
		fields: {
			eventId: 'ext_event_id',
			adPlatformId: 'ext_id',
			accountType: 'ext_account_type',
			pixelId: 'ext_pixel_id',
			audienceId: 'ext_id',
		},
		pixelFunction: 'extPixel',
	},
};

/** A documented path with its parameters filled in: `fillPath(names.paths.ad, { ad_id: 10001 })`. */
export function fillPath(path: string, params: Record<string, string | number>): string {
	return path.replace(/\{(\w+)\}/g, (_, name: string) => {
		const value = params[name];
		if (value === undefined) throw new Error(`fillPath: no value for {${name}} in ${path}`);
		return encodeURIComponent(String(value));
	});
}
