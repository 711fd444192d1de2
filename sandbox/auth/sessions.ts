import { createHmac, randomBytes } from 'node:crypto';
import type { ServiceTime } from './serviceTime';

/** The one user of the sandbox: every token, the static one included, acts as this user. */
export const SANDBOX_USER_ID = 4021;
export const DEFAULT_USERNAME = 'sandbox@adstat.test';
export const DEFAULT_PASSWORD = 'sandbox-password';
/** The real service's lifetimes: 1 hour and 30 days. */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 3600;
export const DEFAULT_REFRESH_LIFETIME_SECONDS = 30 * 24 * 3600;

interface SessionSettings {
	username: string;
	password: string;
	/** Seconds an access token from sign-in or refresh lives. */
	tokenLifetimeSeconds: number;
	/** Seconds a refresh token lives; refreshing does not renew it. */
	refreshLifetimeSeconds: number;
	/**
	 * One session per user: a new sign-in or refresh revokes the user's earlier access tokens, as
	 * some services do. Off by default (the real service keeps them).
	 */
	singleSession?: boolean;
}

type TokenKind = 'access' | 'refresh';

interface IssuedToken {
	kind: TokenKind;
	userId: number;
	expiresAtMs: number;
}

/** Who a request's `Authorization` header names. */
export type Identity =
	| { kind: 'missing' }
	| { kind: 'unknown' }
	| { kind: 'expired'; userId: number }
	| { kind: 'valid'; userId: number; static: boolean };

type RefreshResult =
	{ kind: 'ok'; accessToken: string } | { kind: 'expired' } | { kind: 'unknown' };

interface SessionCounts {
	logins: number;
	failedLogins: number;
	refreshes: number;
	failedRefreshes: number;
	/** Tokens revoked: by single session, or all at once through the control API. */
	revoked: number;
}

/** Tokens kept before expired ones are forgotten (they then read as unknown: still a 401). */
const MAX_KEPT_TOKENS = 10_000;

function base64url(value: string | Buffer): string {
	return Buffer.from(value).toString('base64url');
}

export function lifetimeViolation(value: unknown): string | null {
	return typeof value === 'number' && Number.isFinite(value) && value > 0
		? null
		: `must be a number of seconds greater than 0, got ${JSON.stringify(value)}`;
}

/**
 * Sign-in, refresh and bearer tokens (the real service: `POST /api/v2/login`,
 * `GET /api/v2/access-token`). Tokens are JWT-shaped (`sub`, `type`, `iat`, `exp`), but the
 * sandbox trusts only the tokens it issued: it looks them up rather than checking signatures.
 * The static token (`--token`) never expires.
 */
export class Sessions {
	readonly settings: SessionSettings;
	readonly counts: SessionCounts = {
		logins: 0,
		failedLogins: 0,
		refreshes: 0,
		failedRefreshes: 0,
		revoked: 0,
	};
	private readonly tokens = new Map<string, IssuedToken>();
	private readonly secret = randomBytes(32);
	private serial = 0;

	constructor(
		readonly staticToken: string,
		settings: SessionSettings,
		private readonly time: ServiceTime,
	) {
		for (const field of ['tokenLifetimeSeconds', 'refreshLifetimeSeconds'] as const) {
			const problem = lifetimeViolation(settings[field]);
			if (problem) throw new Error(`${field} ${problem}`);
		}
		this.settings = { ...settings };
	}

	/** Checks the username and password; on success issues an access and a refresh token. */
	login(
		username: string,
		password: string,
	): { userId: number; accessToken: string; refreshToken: string } | null {
		if (username !== this.settings.username || password !== this.settings.password) {
			this.counts.failedLogins += 1;
			return null;
		}
		this.counts.logins += 1;
		if (this.settings.singleSession) this.revokeAccess(SANDBOX_USER_ID);
		return {
			userId: SANDBOX_USER_ID,
			accessToken: this.issue('access', SANDBOX_USER_ID),
			refreshToken: this.issue('refresh', SANDBOX_USER_ID),
		};
	}

	/** A fresh access token for a refresh token that is still active; the refresh token is kept. */
	refresh(refreshToken: string): RefreshResult {
		const issued = this.tokens.get(refreshToken);
		if (!issued || issued.kind !== 'refresh') {
			this.counts.failedRefreshes += 1;
			return { kind: 'unknown' };
		}
		if (this.time.nowMs() >= issued.expiresAtMs) {
			this.counts.failedRefreshes += 1;
			return { kind: 'expired' };
		}
		this.counts.refreshes += 1;
		if (this.settings.singleSession) this.revokeAccess(issued.userId);
		return { kind: 'ok', accessToken: this.issue('access', issued.userId) };
	}

	/** Tokens as sign-in would give them, without a request (for tests and stages). */
	issueTokens(): { accessToken: string; refreshToken: string } {
		return {
			accessToken: this.issue('access', SANDBOX_USER_ID),
			refreshToken: this.issue('refresh', SANDBOX_USER_ID),
		};
	}

	identify(authorization: string | undefined): Identity {
		const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
		if (!match) return { kind: 'missing' };
		const token = match[1];
		if (token === this.staticToken) return { kind: 'valid', userId: SANDBOX_USER_ID, static: true };
		const issued = this.tokens.get(token);
		if (!issued || issued.kind !== 'access') return { kind: 'unknown' };
		if (this.time.nowMs() >= issued.expiresAtMs) return { kind: 'expired', userId: issued.userId };
		return { kind: 'valid', userId: issued.userId, static: false };
	}

	/** Ends every access and/or refresh token issued so far, now (the static token stays valid). */
	expire(which: { access?: boolean; refresh?: boolean }): void {
		const now = this.time.nowMs();
		for (const issued of this.tokens.values()) {
			if (
				(issued.kind === 'access' && which.access) ||
				(issued.kind === 'refresh' && which.refresh)
			)
				issued.expiresAtMs = Math.min(issued.expiresAtMs, now);
		}
	}

	/** Forgets every token issued (access and refresh): each then reads as unknown, a 401. */
	revokeAll(): number {
		const count = this.tokens.size;
		this.tokens.clear();
		this.counts.revoked += count;
		return count;
	}

	/** Forgets the user's access tokens issued so far (single session: a new one replaces them). */
	private revokeAccess(userId: number): void {
		for (const [token, issued] of this.tokens) {
			if (issued.kind === 'access' && issued.userId === userId) {
				this.tokens.delete(token);
				this.counts.revoked += 1;
			}
		}
	}

	/** Tokens issued and still active, by kind. */
	active(): { access: number; refresh: number } {
		const now = this.time.nowMs();
		const out = { access: 0, refresh: 0 };
		for (const issued of this.tokens.values()) if (now < issued.expiresAtMs) out[issued.kind] += 1;
		return out;
	}

	private issue(kind: TokenKind, userId: number): string {
		const nowMs = this.time.nowMs();
		const lifetime =
			kind === 'access' ? this.settings.tokenLifetimeSeconds : this.settings.refreshLifetimeSeconds;
		const expiresAtMs = nowMs + lifetime * 1000;
		const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
		const payload = base64url(
			JSON.stringify({
				sub: String(userId),
				type: kind,
				iat: Math.floor(nowMs / 1000),
				exp: Math.ceil(expiresAtMs / 1000),
				jti: `${kind}-${++this.serial}`,
			}),
		);
		const signature = createHmac('sha256', this.secret)
			.update(`${header}.${payload}`)
			.digest('base64url');
		const token = `${header}.${payload}.${signature}`;
		if (this.tokens.size >= MAX_KEPT_TOKENS) this.forgetExpired(nowMs);
		this.tokens.set(token, { kind, userId, expiresAtMs });
		return token;
	}

	private forgetExpired(nowMs: number): void {
		for (const [token, issued] of this.tokens)
			if (nowMs >= issued.expiresAtMs) this.tokens.delete(token);
	}
}
