import { formatRateLimit, parseRateLimit, type RateLimiter } from '../auth/rateLimit';
import type { ServiceTime } from '../auth/serviceTime';
import { parseAuthFault, type AuthFaults } from '../auth/authFaults';
import { lifetimeViolation, type Sessions } from '../auth/sessions';
import type { SandboxClock } from '../clock';
import { formatRestatements, parseRestatements } from '../metrics/restatements';
import { isPlatform, PLATFORMS } from '../platform';
import type { SandboxData } from '../data/sandboxData';
import { bucketZone } from '../metrics/time';
import { ApiError, fieldError, isPlainObject } from '../errors';
import {
	FAULT_KINDS,
	isFaultKind,
	type FaultController,
	type FaultKind,
	type FaultSettings,
} from '../faults';
import type { LoggedRequest, UploadedFile } from '../types';
import type { ParsedBody } from './requestBody';
import type { Reply } from './reply';
import { setAdStatus } from '../handlers/adStatusControl';

export interface ControlTarget {
	authFaults: AuthFaults;
	clock: SandboxClock;
	faults: FaultController;
	data: SandboxData;
	requests: LoggedRequest[];
	sessions: Sessions;
	rateLimiter: RateLimiter;
	serviceTime: ServiceTime;
	clearLog(): void;
}

/** The request log as JSON: uploaded bytes are left out, their size and sha256 stay. */
function logWithoutBytes(requests: readonly LoggedRequest[]): unknown[] {
	return requests.map((entry) => {
		const body = entry.body;
		if (!isPlainObject(body) || !isPlainObject(body.files)) return entry;
		const files = Object.fromEntries(
			Object.entries(body.files as Record<string, UploadedFile>).map(([name, file]) => [
				name,
				{ filename: file.filename, type: file.type, size: file.size, sha256: file.sha256 },
			]),
		);
		return { ...entry, body: { ...body, files } };
	});
}

function jsonBody(body: ParsedBody): Record<string, unknown> {
	if (body.kind === 'none') return {};
	if (body.kind !== 'json' || !isPlainObject(body.value))
		throw fieldError('body', 'must be a JSON object');
	return body.value;
}

function settingsState(target: ControlTarget): Reply {
	const session = target.sessions.settings;
	return {
		status: 200,
		json: {
			platform: target.data.platform,
			rateLimit: formatRateLimit(target.rateLimiter.settings),
			restatements: formatRestatements(target.data.restatements.settings),
			username: session.username,
			password: session.password,
			singleSession: session.singleSession === true,
			countRenewals: target.rateLimiter.countRenewals,
			tokenLifetimeSeconds: session.tokenLifetimeSeconds,
			refreshLifetimeSeconds: session.refreshLifetimeSeconds,
			answerDelayMs: target.data.answerDelayMs,
			legacyReportDisabled: target.data.legacyReportDisabled,
			bucketTimeZone: target.data.bucketZone.name,
		},
	};
}

/** Checks every sign-in and form setting of a /settings body first, then applies them together. */
function applySessionSettings(target: ControlTarget, b: Record<string, unknown>): void {
	if (b.platform !== undefined && !isPlatform(b.platform))
		throw fieldError('platform', `must be one of ${PLATFORMS.join(', ')}`);
	let rateLimit: ReturnType<typeof parseRateLimit> | undefined;
	if (b.rateLimit !== undefined) {
		try {
			rateLimit = parseRateLimit(b.rateLimit);
		} catch (error) {
			throw fieldError('rateLimit', (error as Error).message);
		}
	}
	let restatements: ReturnType<typeof parseRestatements> | undefined;
	if (b.restatements !== undefined) {
		try {
			restatements = parseRestatements(b.restatements);
		} catch (error) {
			throw fieldError('restatements', (error as Error).message);
		}
	}
	for (const field of ['tokenLifetimeSeconds', 'refreshLifetimeSeconds']) {
		const problem = b[field] === undefined ? null : lifetimeViolation(b[field]);
		if (problem) throw fieldError(field, problem);
	}
	for (const field of ['username', 'password']) {
		if (b[field] !== undefined && (typeof b[field] !== 'string' || b[field] === ''))
			throw fieldError(field, 'must be a non-empty string');
	}
	for (const field of ['singleSession', 'countRenewals']) {
		if (b[field] !== undefined && typeof b[field] !== 'boolean')
			throw fieldError(field, 'must be true or false');
	}
	if (isPlatform(b.platform)) target.data.setPlatform(b.platform);
	if (rateLimit !== undefined) target.rateLimiter.set(rateLimit);
	if (restatements !== undefined) target.data.setRestatements(restatements);
	const session = target.sessions.settings;
	if (typeof b.tokenLifetimeSeconds === 'number')
		session.tokenLifetimeSeconds = b.tokenLifetimeSeconds;
	if (typeof b.refreshLifetimeSeconds === 'number')
		session.refreshLifetimeSeconds = b.refreshLifetimeSeconds;
	if (typeof b.username === 'string') session.username = b.username;
	if (typeof b.password === 'string') session.password = b.password;
	if (typeof b.singleSession === 'boolean') session.singleSession = b.singleSession;
	if (typeof b.countRenewals === 'boolean') target.rateLimiter.countRenewals = b.countRenewals;
}

function authState(target: ControlTarget): Reply {
	return {
		status: 200,
		json: {
			...target.sessions.counts,
			active: target.sessions.active(),
			singleSession: target.sessions.settings.singleSession === true,
			countRenewals: target.rateLimiter.countRenewals,
			authFaults: target.authFaults.state(),
			serviceTime: new Date(target.serviceTime.nowMs()).toISOString(),
		},
	};
}

function serviceTimeState(target: ControlTarget): Reply {
	return {
		status: 200,
		json: {
			now: new Date(target.serviceTime.nowMs()).toISOString(),
			offsetMs: target.serviceTime.offsetMs,
		},
	};
}

function restatementState(target: ControlTarget): Reply {
	return {
		status: 200,
		json: {
			restatements: formatRestatements(target.data.restatements.settings),
			events: target.data.restatementEvents().map((event) => ({
				day: event.day,
				at: new Date(event.atMs).toISOString(),
				...(event.campaignId !== undefined ? { campaign_id: event.campaignId } : {}),
				...(event.adId !== undefined ? { ad_id: event.adId } : {}),
				source: event.source,
			})),
		},
	};
}

function clockState(target: ControlTarget): Reply {
	return { status: 200, json: { now: target.clock.now().toISOString(), mode: target.clock.mode } };
}

function faultSettings(body: Record<string, unknown>): FaultSettings {
	const kinds = body.kinds;
	if (!Array.isArray(kinds) || !kinds.every(isFaultKind)) {
		throw fieldError('kinds', `must be an array of ${FAULT_KINDS.join(', ')}`);
	}
	const match = isPlainObject(body.match) ? body.match : undefined;
	const pathPattern = typeof match?.path === 'string' ? new RegExp(match.path) : undefined;
	const method = typeof match?.method === 'string' ? match.method.toUpperCase() : undefined;
	return {
		rate: typeof body.rate === 'number' ? body.rate : 1,
		kinds: kinds as FaultKind[],
		seed: typeof body.seed === 'number' ? body.seed : undefined,
		retryAfterSeconds:
			typeof body.retryAfterSeconds === 'number' ? body.retryAfterSeconds : undefined,
		stallMs: typeof body.stallMs === 'number' ? body.stallMs : undefined,
		match:
			pathPattern || method
				? (path, m) => (!pathPattern || pathPattern.test(path)) && (!method || method === m)
				: undefined,
	};
}

/**
 * Test control under /__sandbox/ (no auth, not logged), for tests that drive the sandbox from
 * another process: clock, faults, request log, ground-truth statistics rows, settings (the form,
 * sign-in and the rate limit among them), tokens, the rate limit's state, service time, an ad's
 * status.
 */
export function handleControl(
	target: ControlTarget,
	method: string,
	path: string,
	body: ParsedBody,
): Reply {
	const route = `${method} ${path.replace(/\/$/, '')}`;
	try {
		const adStatus = /^POST \/ads\/([^/]+)\/status$/.exec(route);
		if (adStatus)
			return {
				status: 200,
				json: setAdStatus(target.data, decodeURIComponent(adStatus[1]), jsonBody(body)),
			};
		switch (route) {
			case 'GET /clock':
				return clockState(target);
			case 'POST /clock': {
				const b = jsonBody(body);
				if (b.set !== undefined) target.clock.set(String(b.set));
				if (b.advanceMs !== undefined) target.clock.advance(Number(b.advanceMs));
				return clockState(target);
			}
			case 'GET /faults':
				return { status: 200, json: { injected: target.faults.injected } };
			case 'POST /faults': {
				const b = jsonBody(body);
				if (b.kinds !== undefined) target.faults.set(faultSettings(b));
				const nth = b.onNth === undefined ? [] : Array.isArray(b.onNth) ? b.onNth : [b.onNth];
				for (const entry of nth) {
					if (!isPlainObject(entry) || typeof entry.n !== 'number' || !isFaultKind(entry.kind)) {
						throw fieldError('onNth', 'must be { n: number, kind: FaultKind } or an array of them');
					}
					target.faults.onNth(entry.n, entry.kind);
				}
				return { status: 200, json: { injected: target.faults.injected } };
			}
			case 'DELETE /faults':
				target.faults.clear();
				if (jsonBody(body).resetCounts === true) target.faults.resetCounts();
				return { status: 200, json: { injected: target.faults.injected } };
			case 'GET /requests':
				return { status: 200, json: logWithoutBytes(target.requests) };
			case 'DELETE /requests':
				target.clearLog();
				return { status: 204 };
			case 'POST /stats-rows': {
				const rows = target.data.statsRows(jsonBody(body));
				return { status: 200, json: { count: rows.length, rows } };
			}
			case 'POST /legacy-report-rows':
				return { status: 200, json: { results: target.data.legacyReportRows(jsonBody(body)) } };
			case 'GET /settings':
			case 'POST /settings': {
				const b = method === 'POST' ? jsonBody(body) : {};
				applySessionSettings(target, b);
				if (typeof b.legacyReportDisabled === 'boolean')
					target.data.legacyReportDisabled = b.legacyReportDisabled;
				if (b.bucketTimeZone !== undefined) {
					if (typeof b.bucketTimeZone !== 'string')
						throw fieldError(
							'bucketTimeZone',
							'must be a string such as "UTC", "+03:00" or "Europe/Berlin"',
						);
					target.data.bucketZone = bucketZone(b.bucketTimeZone);
				}
				if (b.answerDelayMs !== undefined) {
					if (typeof b.answerDelayMs !== 'number' || !(b.answerDelayMs >= 0))
						throw fieldError('answerDelayMs', 'must be a number of milliseconds, 0 or more');
					target.data.answerDelayMs = b.answerDelayMs;
				}
				return settingsState(target);
			}
			case 'GET /auth':
				return authState(target);
			case 'GET /auth-faults':
				return { status: 200, json: target.authFaults.state() };
			case 'POST /auth-faults':
				target.authFaults.set(parseAuthFault(jsonBody(body)));
				return { status: 200, json: target.authFaults.state() };
			case 'DELETE /auth-faults':
				target.authFaults.clear();
				return { status: 200, json: target.authFaults.state() };
			case 'POST /auth': {
				const b = jsonBody(body);
				// A changed password, one session per user, sign-in counted in the rate limit.
				applySessionSettings(target, {
					password: b.password,
					singleSession: b.singleSession,
					countRenewals: b.countRenewals,
				});
				if (b.revoke !== undefined && b.revoke !== true)
					throw fieldError('revoke', 'must be true (revokes every token issued)');
				if (b.revoke === true) target.sessions.revokeAll();
				const expire = b.expire;
				if (expire !== undefined && !['access', 'refresh', 'all'].includes(expire as string))
					throw fieldError('expire', 'must be "access", "refresh" or "all"');
				if (expire !== undefined)
					target.sessions.expire({
						access: expire === 'access' || expire === 'all',
						refresh: expire === 'refresh' || expire === 'all',
					});
				if (b.issue === true) {
					const issued = target.sessions.issueTokens();
					return {
						status: 200,
						json: { access_token: issued.accessToken, refresh_token: issued.refreshToken },
					};
				}
				return authState(target);
			}
			case 'GET /rate-limit':
				return { status: 200, json: target.rateLimiter.state(target.serviceTime.nowMs()) };
			case 'DELETE /rate-limit':
				target.rateLimiter.reset(jsonBody(body).resetCounts === true);
				return { status: 200, json: target.rateLimiter.state(target.serviceTime.nowMs()) };
			case 'GET /restatements':
				return restatementState(target);
			case 'POST /restatements': {
				const b = jsonBody(body);
				if (b.restatements !== undefined)
					applySessionSettings(target, { restatements: b.restatements });
				const items =
					b.restate === undefined ? [] : Array.isArray(b.restate) ? b.restate : [b.restate];
				if (!items.every(isPlainObject))
					throw fieldError(
						'restate',
						'must be an object { day, campaign_id } or { day, ad_id }, or an array of them',
					);
				for (const item of items as Record<string, unknown>[]) target.data.forceRestatement(item);
				return restatementState(target);
			}
			case 'GET /service-time':
				return serviceTimeState(target);
			case 'POST /service-time': {
				const b = jsonBody(body);
				if (b.advanceMs !== undefined) target.serviceTime.advance(Number(b.advanceMs));
				return serviceTimeState(target);
			}
			default:
				return { status: 404, json: { detail: `Unknown control endpoint ${route}` } };
		}
	} catch (error) {
		if (error instanceof ApiError) throw error;
		throw new ApiError(400, (error as Error).message);
	}
}
