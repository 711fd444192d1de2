import type { CredentialView } from './credentialView';
import { hash, ownsSession, randomKey, signInFields } from './session';

/** The first pause after a refused sign-in or refresh token; it doubles with each refusal. */
export const FIRST_PAUSE_MS = 5 * 60_000;
/** The longest pause. */
export const MAX_PAUSE_MS = 60 * 60_000;

export interface Refusal {
	/** When the API refused (Date.now() time). */
	at: number;
	/** No new attempt with the same fields before this. */
	until: number;
	pauseMs: number;
	/** What the API said, ready to quote (scrubbed). */
	said: string;
}

/** Keys the in-process fingerprints: they never leave the process. */
const processKey = randomKey();

const refusals = new Map<string, Refusal>();

/** Refusals kept: one per credential that was refused, so a handful. */
const MAX_KEPT = 1_000;

/** The fingerprint of the fields that sign in; any edit of them gives another. */
export function refusalKey(view: CredentialView): string {
	return hash(`${processKey}\u0000${signInFields(view)}`);
}

/**
 * The refusal still in force for these fields, if any. Services lock an account that keeps
 * signing in with a wrong password, and every item and execution would try again: until the pause
 * has passed, none does.
 */
export function refusalInForce(key: string, now = Date.now()): Refusal | undefined {
	const refusal = refusals.get(key);
	return refusal && refusal.until > now ? refusal : undefined;
}

/**
 * The API refused these fields: no attempt with them for 5 minutes, doubling to 1 hour. `stored`
 * is the refusal another process kept in the credential for the same fields, if any.
 */
export function rememberRefusal(
	key: string,
	said: string,
	now = Date.now(),
	stored?: Refusal,
): Refusal {
	const before = refusals.get(key) ?? stored;
	const pauseMs = before ? Math.min(MAX_PAUSE_MS, before.pauseMs * 2) : FIRST_PAUSE_MS;
	const refusal = { at: now, until: now + pauseMs, pauseMs, said };
	refusals.delete(key);
	if (refusals.size >= MAX_KEPT) refusals.delete(refusals.keys().next().value as string);
	refusals.set(key, refusal);
	return refusal;
}

/** The fields worked: a later refusal starts again at the first pause. */
export function forgetRefusal(key: string): void {
	refusals.delete(key);
}

/** Forgets every refusal (tests). */
export function forgetRefusals(): void {
	refusals.clear();
	reported.clear();
}

/** "23:15:04 UTC": when the API refused, or when the next attempt is allowed. */
export function clockTime(ms: number): string {
	return `${new Date(ms).toISOString().slice(11, 19)} UTC`;
}

/** "5 minutes", "1 hour", "40 seconds". */
export function duration(ms: number): string {
	const seconds = Math.max(1, Math.round(ms / 1000));
	if (seconds < 90) return `${seconds} seconds`;
	const minutes = Math.round(seconds / 60);
	if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
	const hours = Math.round((minutes / 60) * 10) / 10;
	return `${hours} hour${hours === 1 ? '' : 's'}`;
}

/** A refusal as the credential keeps it (see storedRefusal). */
export function refusalText(refusal: Refusal): string {
	return JSON.stringify(refusal);
}

/** The refusal kept in the credential, if the text is one. */
function parseRefusal(text: string): Refusal | undefined {
	try {
		const value = JSON.parse(text) as Partial<Refusal>;
		const { at, until, pauseMs, said } = value;
		if (
			[at, until, pauseMs].every((n) => typeof n === 'number' && Number.isFinite(n)) &&
			typeof said === 'string'
		) {
			return { at: at as number, until: until as number, pauseMs: pauseMs as number, said };
		}
	} catch {
		// Not a refusal: nothing is held back.
	}
	return undefined;
}

/**
 * The refused sign-in the credential holds for the fields it has now, if any: another process
 * (or an earlier run) was refused these very username and password. The access token is then
 * empty, so n8n asks preAuthentication before every request, which holds it back.
 */
export function storedRefusal(view: CredentialView): Refusal | undefined {
	if (view.session.token !== '' || !ownsSession(view)) return undefined;
	return parseRefusal(view.session.refusal);
}

/** Refusals this process has already reported once (by when they happened). */
const reported = new Set<number>();

/**
 * Whether this is the first report of a refusal this very process met: its message then says
 * the pause has just begun; every later one says the sign-in was held back.
 */
export function firstReport(refusal: Refusal): boolean {
	if (reported.has(refusal.at)) return false;
	const own = [...refusals.values()].some((r) => r.at === refusal.at);
	if (!own) return false;
	if (reported.size >= MAX_KEPT) reported.clear();
	reported.add(refusal.at);
	return true;
}
