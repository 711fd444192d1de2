import { PLATFORM_NAMES, PLATFORMS, type Platform } from '../platform';
import {
	balances,
	cabinetGet,
	cabinetList,
	cabinetNames,
	campaignList,
} from '../handlers/accounts';
import { adCreate } from '../handlers/adCreate';
import { adEdit } from '../handlers/adEdit';
import { adGet } from '../handlers/adGet';
import { adList } from '../handlers/adList';
import { audienceCreate, audienceList } from '../handlers/audiences';
import { botValidation } from '../handlers/botValidation';
import type { Handler } from '../handlers/context';
import { kktuTree } from '../handlers/kktu';
import { legacyReport } from '../handlers/legacyReport';
import { mediaUpload } from '../handlers/mediaUpload';
import {
	pixelBaseCode,
	pixelEventCreate,
	pixelEventDelete,
	pixelEventList,
	pixelEventRename,
	pixelEventTypes,
} from '../handlers/pixelEvents';
import { reportObjects } from '../handlers/reportObjects';
import { accessToken, login } from '../handlers/signIn';
import { statsPage } from '../handlers/statsPage';

interface Route {
	api: 'base' | 'client';
	method: string;
	segments: string[];
	handler: Handler;
	/** Answered without a bearer token and not rate limited (sign-in and refresh). */
	public: boolean;
}

const NUMERIC_PARAMS = new Set(['ad_id']);

/** A path as documented (`/api/x/{id}/`) or as a pattern (`api/x/:id`). */
function route(
	api: Route['api'],
	method: string,
	path: string,
	handler: Handler,
	isPublic = false,
): Route {
	const pattern = path
		.replace(/^\//, '')
		.replace(/\/$/, '')
		.replace(/\{(\w+)\}/g, ':$1');
	return { api, method, segments: pattern.split('/'), handler, public: isPublic };
}

/**
 * Every endpoint of the interface, on its address (base or client API), named as the form names
 * it; and the real service's sign-in and refresh, in both forms.
 */
function routesFor(platform: Platform): Route[] {
	const paths = PLATFORM_NAMES[platform].paths;
	return [
		route('base', 'POST', '/api/v2/login', login, true),
		route('base', 'GET', '/api/v2/access-token', accessToken, true),
		route('base', 'POST', 'api/v1/stats/page', statsPage),
		route('base', 'POST', paths.legacyReport, legacyReport),
		route('base', 'GET', 'api/report/objects', reportObjects),
		route('base', 'GET', 'api/v2/advertisement', adList),
		route('base', 'POST', paths.adCreate, adCreate),
		route('base', 'GET', paths.ad, adGet),
		route('base', 'PUT', paths.ad, adEdit),
		route('base', 'GET', 'api/advertisement/bots/validate', botValidation),
		route('base', 'POST', 'api/advertisement/bots/validate', botValidation),
		route('client', 'POST', paths.uploadMedia, mediaUpload),
		route('client', 'GET', 'api/kktu', kktuTree),
		route('client', 'GET', 'api/pixel_events', pixelEventList),
		route('client', 'POST', 'api/pixel_events', pixelEventCreate),
		route('client', 'GET', 'api/pixel_events/types', pixelEventTypes),
		route('client', 'GET', 'api/pixel_events/:account_id/code_snippet', pixelBaseCode),
		route('client', 'PATCH', 'api/pixel_events/:event_id', pixelEventRename),
		route('client', 'DELETE', 'api/pixel_events/:account_id/events/:event_id', pixelEventDelete),
		route('client', 'GET', paths.audienceList, audienceList),
		route('client', 'POST', paths.audienceCreate, audienceCreate),
		// The real service's own resources; the spec hides them, so the ext form has none.
		...(platform === 'telegram'
			? [
					route('base', 'GET', '/api/accounts/telegram/names', cabinetNames),
					route('base', 'GET', '/api/accounts/telegram/{account_uid}', cabinetGet),
					route('base', 'GET', '/api/accounts/telegram/', cabinetList),
					route('base', 'GET', '/api/campaigns/', campaignList),
					route('base', 'GET', '/api/dashboard/balances', balances),
				]
			: []),
	];
}

const ROUTES: Readonly<Record<Platform, readonly Route[]>> = Object.fromEntries(
	PLATFORMS.map((platform) => [platform, routesFor(platform)]),
) as Record<Platform, Route[]>;

type RouteMatch =
	| { kind: 'found'; handler: Handler; params: Record<string, string>; public: boolean }
	| { kind: 'not-found' }
	| { kind: 'method-not-allowed'; allowed: string[] };

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | null {
	if (pattern.length !== actual.length) return null;
	const params: Record<string, string> = {};
	for (let i = 0; i < pattern.length; i++) {
		const p = pattern[i];
		if (p.startsWith(':')) {
			const name = p.slice(1);
			if (NUMERIC_PARAMS.has(name) && !/^\d+$/.test(actual[i])) return null;
			params[name] = actual[i];
		} else if (p !== actual[i]) {
			return null;
		}
	}
	return params;
}

/**
 * Matches a path (after the /base or /client prefix). One trailing slash is optional, because the
 * spec writes some paths with it and some without; anything else (double slashes, empty segments)
 * does not match.
 */
export function matchRoute(
	platform: Platform,
	api: 'base' | 'client',
	method: string,
	path: string,
): RouteMatch {
	if (!path.startsWith('/') || path.length < 2) return { kind: 'not-found' };
	const trimmed = path.endsWith('/') ? path.slice(1, -1) : path.slice(1);
	let segments: string[];
	try {
		segments = trimmed.split('/').map((s) => decodeURIComponent(s));
	} catch {
		return { kind: 'not-found' };
	}
	if (segments.some((s) => s === '')) return { kind: 'not-found' };
	const candidates: { route: Route; params: Record<string, string> }[] = [];
	for (const r of ROUTES[platform]) {
		if (r.api !== api) continue;
		const params = matchSegments(r.segments, segments);
		if (params) candidates.push({ route: r, params });
	}
	if (candidates.length === 0) return { kind: 'not-found' };
	// Literal routes are listed before parameterised ones, so the first match of the method wins.
	const hit = candidates.find((c) => c.route.method === method);
	if (hit)
		return {
			kind: 'found',
			handler: hit.route.handler,
			params: hit.params,
			public: hit.route.public,
		};
	return {
		kind: 'method-not-allowed',
		allowed: [...new Set(candidates.map((c) => c.route.method))],
	};
}
