import type { ICredentialDataDecryptedObject, INode } from 'n8n-workflow';
import { credentialViewOf, type CredentialView } from './auth';
import { invalidInput } from './validation';

/**
 * The API's names that differ between its two forms. This module is the only place they are
 * written; everything else asks the map of the credential's platform, at request time.
 *
 * - `telegram`: the real service (Adstat, the reseller cabinet for Telegram Ads), as its public
 *   developer docs write the names. Where they are silent (audiences, the base pixel code, the ad
 *   detail's event), the names follow the docs' own pattern (`tg_…`).
 * - `ext`: the Generic form of the documented interface, which writes the platform as `ext` in
 *   every path and field name.
 *
 * Paths that are the same in both forms are in constants.ts (PATHS).
 */
type Platform = 'telegram' | 'ext';

export const PLATFORMS: readonly Platform[] = ['telegram', 'ext'];

/** A credential saved without a platform speaks to the real service. */
export const DEFAULT_PLATFORM: Platform = 'telegram';

export interface PlatformNames {
	platform: Platform;
	/** As the credential's Platform field names the choice. */
	label: string;
	paths: {
		/** POST, the legacy report. */
		legacyReport: string;
		/** POST, create an ad. */
		adCreate: string;
		/** GET the ad's detail, PUT an edit. */
		ad: (adId: string | number) => string;
		/** Media upload: POST on the client API, with the query account_id. */
		mediaUpload: string;
		/** Audience list: GET on the client API. */
		audiencesList: (accountId: string) => string;
		/** Audience create: POST (multipart) on the client API. */
		audienceCreate: (accountId: string) => string;
	};
	fields: {
		/** The pixel event list's event id, the one ad create and edit send, and the ad detail's `event.<eventId>`. */
		eventId: string;
		/** Ad detail: the ad's id on the platform. */
		adPlatformId: string;
		/** Ad detail: the account type on the platform. */
		accountType: string;
		/** Base pixel code: the pixel's id on the platform. */
		pixelId: string;
		/** Audience list and create: the audience's id (what an ad targets). */
		audienceId: string;
	};
	/** The function a pixel code snippet calls: `<fn>('event', '<id>')`. */
	pixelFunction: string;
	/**
	 * The legacy report's `date_from` / `date_to`: `date` writes the day (`2026-03-01`), `dateTime` the day's
	 * first and last second with the workflow's offset (`2026-03-01T00:00:00+03:00`).
	 */
	legacyReportDates: 'date' | 'dateTime';
	/** A cabinet id as the form writes it, for placeholders and messages. */
	cabinetIdExample: string;
	/**
	 * Endpoints of the real service that the Generic form lacks (cabinets, campaigns, balances);
	 * undefined in a form whose API has none.
	 */
	accounts?: {
		/** GET: `[{account_uid, name, balance, …}]`. */
		cabinetNames: string;
		/** GET: one cabinet, shaped as in the names list. */
		cabinet: (accountUid: string) => string;
		/** GET with account_name, legal_name, offset, limit: `{items, count}`. */
		cabinetList: string;
		/** GET with period, campaign_name, is_active, offset, limit: `{items, count}`. */
		campaignList: string;
		/** GET: `{active, available, total}`, each `{amount, currency}`. */
		balances: string;
	};
}

const cabinet = (accountId: string) => encodeURIComponent(accountId);

export const PLATFORM_NAMES: Readonly<Record<Platform, PlatformNames>> = {
	telegram: {
		platform: 'telegram',
		label: 'Telegram (Adstat)',
		paths: {
			legacyReport: '/api/report/tgview',
			adCreate: '/api/advertisement/telegram/',
			ad: (adId) => `/api/advertisement/telegram/${encodeURIComponent(String(adId))}`,
			mediaUpload: '/api/v1/advertising/telegram/upload_media',
			// Not documented by the real service; by the pattern of its other paths.
			audiencesList: (accountId) => `/api/advertisement/telegram/${cabinet(accountId)}/audiences/`,
			audienceCreate: (accountId) => `/api/advertisement/telegram/${cabinet(accountId)}/audiences`,
		},
		fields: {
			eventId: 'tg_event_id',
			adPlatformId: 'telegram_id',
			accountType: 'tg_account_type',
			// Not documented by the real service; by the pattern of tg_event_id.
			pixelId: 'tg_pixel_id',
			audienceId: 'tg_id',
		},
		pixelFunction: 'tgp',
		legacyReportDates: 'dateTime',
		cabinetIdExample: 'ACC0000',
		accounts: {
			cabinetNames: '/api/accounts/telegram/names',
			cabinet: (accountUid) => `/api/accounts/telegram/${cabinet(accountUid)}`,
			cabinetList: '/api/accounts/telegram/',
			campaignList: '/api/campaigns/',
			balances: '/api/dashboard/balances',
		},
	},
	ext: {
		platform: 'ext',
		label: 'Generic',
		paths: {
			legacyReport: '/api/report/extview',
			adCreate: '/api/advertisement/ext/',
			ad: (adId) => `/api/advertisement/ext/${encodeURIComponent(String(adId))}`,
			mediaUpload: '/api/v1/advertising/ext/upload_media',
			audiencesList: (accountId) => `/api/advertisement/ext/${cabinet(accountId)}/audiences/`,
			audienceCreate: (accountId) => `/api/advertisement/ext/${cabinet(accountId)}/audiences`,
		},
		fields: {
			eventId: 'ext_event_id',
			adPlatformId: 'ext_id',
			accountType: 'ext_account_type',
			pixelId: 'ext_pixel_id',
			audienceId: 'ext_id',
		},
		// The Generic form documents no snippet; the name the sandbox gives it.
		pixelFunction: 'extPixel',
		legacyReportDates: 'date',
		cabinetIdExample: '100001',
	},
};

export const PLATFORM_LABEL = 'Platform (Ad Cabinet API credential)';

function isPlatform(value: unknown): value is Platform {
	return typeof value === 'string' && (PLATFORMS as readonly string[]).includes(value);
}

/**
 * The naming map of the credential's platform. A credential without one (saved before the choice
 * existed, or built by hand) speaks to the real service; an unknown value is refused before any
 * request.
 */
export function platformNames(
	credentials: Pick<CredentialView, 'platform'> | undefined,
	node: INode,
	itemIndex = 0,
): PlatformNames {
	const value = credentials?.platform;
	if (value === undefined || value === '') return PLATFORM_NAMES[DEFAULT_PLATFORM];
	if (isPlatform(value)) return PLATFORM_NAMES[value];
	throw invalidInput(
		node,
		PLATFORM_LABEL,
		`must be ${PLATFORMS.map((p) => `"${p}" (${PLATFORM_NAMES[p].label})`).join(' or ')}; choose one in the credential`,
		itemIndex,
		value,
	);
}

/** What every n8n function context that runs with the credential offers. */
interface WithCredentials {
	getNode(): INode;
	getCredentials(type: string): Promise<ICredentialDataDecryptedObject>;
}

/** The naming map of the credential the node runs with, read when the request is made. */
export async function platformNamesOf(ctx: WithCredentials, itemIndex = 0): Promise<PlatformNames> {
	const credentials = await credentialViewOf(ctx);
	return platformNames(credentials, ctx.getNode(), itemIndex);
}

/**
 * A field's name as texts the editor and AI agents read give it: the Telegram (Adstat) name, such as
 * "tg_event_id". Descriptions are the same for every credential, and nearly every user is on
 * Telegram (Adstat); the credential's Platform option explains the Generic form once.
 */
export function shownFieldName(field: keyof PlatformNames['fields']): string {
	return PLATFORM_NAMES.telegram.fields[field];
}
