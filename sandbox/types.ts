import type { ModerationSettings } from './data/moderation';
import type { RateLimit } from './auth/rateLimit';
import type { RestatementSettings } from './metrics/restatements';
import type { Platform } from './platform';

export interface SandboxOptions {
	/**
	 * The form the API speaks: 'telegram' (default), the real service's paths, field names, cabinet
	 * ids and formats, with its rate limit on; or 'ext', exactly as the interface spec writes it.
	 */
	platform?: Platform;
	/** Static bearer token the API accepts in both forms; it never expires. Default 'sandbox-token'. */
	token?: string;
	/** The one username and password sign-in accepts; defaults in auth/sessions.ts. */
	username?: string;
	password?: string;
	/** Seconds an access token from sign-in or refresh lives; default 3600. */
	tokenLifetimeSeconds?: number;
	/** Seconds a refresh token lives; default 2592000 (30 days). */
	refreshLifetimeSeconds?: number;
	/**
	 * Requests per user and path: "10/60", { requests, windowSeconds }, or "off" / null. Default
	 * 10/60 in the telegram form and off in the ext form.
	 */
	rateLimit?: string | RateLimit | null;
	/** Whether sign-in and refresh count in the rate limit (the real service: they do not). */
	countRenewals?: boolean;
	/** One session per user: a new sign-in or refresh revokes the user's earlier access tokens. */
	singleSession?: boolean;
	/**
	 * Restatements of ended days' figures: "3%/3d" (a share of campaign-days, restated within that
	 * many days after the day ends), { percent, withinDays }, or "off" / null. Default 3%/3d in the
	 * telegram form and off in the ext form.
	 */
	restatements?: string | RestatementSettings | null;
	/** Listening port; default 0 (ephemeral). */
	port?: number;
	/** Initial clock instant; default the real current time rounded down to the minute. */
	now?: string | Date;
	/** 'frozen' (default) moves only when told to; 'real' ticks with wall time. */
	clock?: 'frozen' | 'real';
	/** Number of seeded ads; default 1200. */
	adCount?: number;
	/** Seed of every generated value; default 1. */
	seed?: number;
	/**
	 * Where the statistics endpoint's periods start: "UTC" (default), an offset such as "+03:00",
	 * or an IANA zone such as "Europe/Berlin". period_date is written with the zone's offset.
	 */
	bucketTimeZone?: string;
	/**
	 * Moderation, off unless asked for: a new ad waits in review and is decided a few hours later
	 * (active, declined with reasons, or on hold), and on some days a running ad is stopped or held.
	 */
	moderation?: boolean | ModerationSettings;
}

export type ApiName = 'base' | 'client' | 'control' | 'unknown';

export interface UploadedFile {
	filename: string;
	type: string;
	size: number;
	sha256: string;
	bytes: Buffer;
}

export interface MultipartBody {
	fields: Record<string, string>;
	files: Record<string, UploadedFile>;
}

export type QueryParams = Record<string, string | string[]>;

export interface LoggedRequest {
	seq: number;
	method: string;
	api: ApiName;
	/** Path without the /base or /client prefix and without the query string. */
	path: string;
	/** Repeated keys become arrays. */
	query: QueryParams;
	authorized: boolean;
	contentType?: string;
	/** Parsed JSON, a multipart body, or the raw text when it could not be parsed. */
	body?: unknown;
	/** 0 while the request is in flight, and for faults that never answer (reset, stall). */
	status: number;
	fault?: string;
	/** Answered 429 by the rate limit (not an injected fault). */
	rateLimited?: boolean;
	/** API requests the sandbox was working on when this one arrived, this one included. */
	open: number;
	/** Wall-clock time (ms) it arrived: the time the rate limit counts by. */
	receivedAt?: number;
}
