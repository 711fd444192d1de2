import { defaultRateLimit, parseRateLimit, RateLimiter } from './auth/rateLimit';
import { ServiceTime } from './auth/serviceTime';
import { AuthFaults } from './auth/authFaults';
import {
	DEFAULT_PASSWORD,
	DEFAULT_REFRESH_LIFETIME_SECONDS,
	DEFAULT_TOKEN_LIFETIME_SECONDS,
	DEFAULT_USERNAME,
	Sessions,
} from './auth/sessions';
import { SandboxClock, type SandboxClockApi } from './clock';
import { DEFAULT_RESTATEMENTS, NO_RESTATEMENTS, parseRestatements } from './metrics/restatements';
import { SandboxData } from './data/sandboxData';
import { Moderation } from './data/moderation';
import { bucketZone } from './metrics/time';
import { FaultController } from './faults';
import { BASE_PREFIX, CLIENT_PREFIX, SandboxHttpServer } from './server/httpServer';
import { DEFAULT_PLATFORM, isPlatform, PLATFORMS, type Platform } from './platform';
import type { LoggedRequest, SandboxOptions } from './types';

export type { FaultKind } from './faults';
export type { LoggedRequest, MultipartBody, SandboxOptions } from './types';
export { PLATFORM_NAMES, PLATFORMS, fillPath } from './platform';
export { cabinetIdIn } from './data/cabinets';
export type { Platform } from './platform';
export type { ModerationDecision } from './data/moderation';
export { REAL_RATE_LIMIT } from './auth/rateLimit';
export { parseAuthFault, parseAuthFaultFlag } from './auth/authFaults';
export type { AuthFaultSettings } from './auth/authFaults';

const DEFAULT_TOKEN = 'sandbox-token';
const DEFAULT_AD_COUNT = 1200;

function defaultNow(): Date {
	return new Date(Math.floor(Date.now() / 60_000) * 60_000);
}

/**
 * A stateful, deterministic emulator of every endpoint of the advertising API, on 127.0.0.1, in
 * one of two forms (`platform`): the real service's (`telegram`) or the interface spec's (`ext`).
 * `baseUrl` serves sign-in, statistics, report and ad endpoints; `clientApiUrl` serves pixel
 * events, KKTU, media and audiences.
 */
export class Sandbox {
	readonly port: number;
	readonly baseUrl: string;
	readonly clientApiUrl: string;
	/** The static token: valid in both forms, never expires. */
	readonly token: string;
	readonly clock: SandboxClockApi;
	readonly faults: FaultController;
	/** Faults on sign-in and refresh only (a status, a dropped connection, latency). */
	readonly authFaults: AuthFaults;
	readonly requests: LoggedRequest[];
	readonly data: SandboxData;
	/** Sign-in, refresh and tokens. */
	readonly sessions: Sessions;
	/** The per-user, per-path rate limit; `answered429` counts its refusals. */
	readonly rateLimiter: RateLimiter;
	/** The time tokens and the rate limit follow: the wall clock, which tests may move ahead. */
	readonly serviceTime: ServiceTime;

	private constructor(
		private readonly http: SandboxHttpServer,
		init: {
			authFaults: AuthFaults;
			port: number;
			token: string;
			clock: SandboxClock;
			faults: FaultController;
			requests: LoggedRequest[];
			data: SandboxData;
			sessions: Sessions;
			rateLimiter: RateLimiter;
			serviceTime: ServiceTime;
		},
	) {
		this.authFaults = init.authFaults;
		this.port = init.port;
		this.baseUrl = `http://127.0.0.1:${init.port}${BASE_PREFIX}`;
		this.clientApiUrl = `http://127.0.0.1:${init.port}${CLIENT_PREFIX}`;
		this.token = init.token;
		this.clock = init.clock;
		this.faults = init.faults;
		this.requests = init.requests;
		this.data = init.data;
		this.sessions = init.sessions;
		this.rateLimiter = init.rateLimiter;
		this.serviceTime = init.serviceTime;
	}

	/** The form the API speaks now (the control API may switch it). */
	get platform(): Platform {
		return this.data.platform;
	}

	get username(): string {
		return this.sessions.settings.username;
	}

	get password(): string {
		return this.sessions.settings.password;
	}

	static async start(options: SandboxOptions = {}): Promise<Sandbox> {
		const platform = options.platform ?? DEFAULT_PLATFORM;
		if (!isPlatform(platform))
			throw new Error(`platform must be one of ${PLATFORMS.join(', ')}, got ${String(platform)}`);
		const start = options.now ?? defaultNow();
		const clock = new SandboxClock(start, options.clock ?? 'frozen');
		const data = new SandboxData({
			platform,
			// On by default in the real form; the spec form keeps served figures as they are.
			restatements:
				options.restatements === undefined
					? platform === 'telegram'
						? DEFAULT_RESTATEMENTS
						: NO_RESTATEMENTS
					: parseRestatements(options.restatements),
			seed: options.seed ?? 1,
			adCount: options.adCount ?? DEFAULT_AD_COUNT,
			clock,
			anchorMs: clock.nowMs(),
		});
		if (options.moderation)
			data.moderation = new Moderation(data, options.moderation === true ? {} : options.moderation);
		if (options.bucketTimeZone !== undefined) data.bucketZone = bucketZone(options.bucketTimeZone);
		const faults = new FaultController();
		const requests: LoggedRequest[] = [];
		const token = options.token ?? DEFAULT_TOKEN;
		const serviceTime = new ServiceTime();
		const sessions = new Sessions(
			token,
			{
				username: options.username ?? DEFAULT_USERNAME,
				password: options.password ?? DEFAULT_PASSWORD,
				tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS,
				refreshLifetimeSeconds: options.refreshLifetimeSeconds ?? DEFAULT_REFRESH_LIFETIME_SECONDS,
				singleSession: options.singleSession === true,
			},
			serviceTime,
		);
		const rateLimiter = new RateLimiter(
			options.rateLimit === undefined
				? defaultRateLimit(platform)
				: parseRateLimit(options.rateLimit),
		);
		rateLimiter.countRenewals = options.countRenewals === true;
		const authFaults = new AuthFaults();
		const http = new SandboxHttpServer({
			authFaults,
			clock,
			faults,
			data,
			requests,
			sessions,
			rateLimiter,
			serviceTime,
			clearLog: () => {
				requests.length = 0;
			},
		});
		const port = await http.listen(options.port ?? 0);
		return new Sandbox(http, {
			authFaults,
			port,
			token,
			clock,
			faults,
			requests,
			data,
			sessions,
			rateLimiter,
			serviceTime,
		});
	}

	/** Empties the request log (the array keeps its identity). */
	clearLog(): void {
		this.requests.length = 0;
	}

	stop(): Promise<void> {
		return this.http.close();
	}
}
