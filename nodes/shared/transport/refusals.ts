import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { hash, randomKey, signInFields } from './session';

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
export function refusalKey(credentials: ICredentialDataDecryptedObject): string {
	return hash(`${processKey}\u0000${signInFields(credentials)}`);
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

/** The API refused these fields: no attempt with them for 5 minutes, doubling to 1 hour. */
export function rememberRefusal(key: string, said: string, now = Date.now()): Refusal {
	const before = refusals.get(key);
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
