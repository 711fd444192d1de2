import type { CredentialView } from './credentialView';
import { PASTED_MARK } from './session';

/** Tokens kept: far more than one process renews in the lifetime of one of them. */
const MAX_KEPT = 500;

const obtained: string[] = [];

/**
 * Every token sign-in or refresh obtained in this process, newest last. An error built later may
 * quote an answer that echoed one of them (a token renewed mid-run is in none of the lists of
 * secrets made before the run's requests), so every error scrubs them too.
 */
export function rememberObtained(...tokens: unknown[]): void {
	for (const token of tokens) {
		if (typeof token !== 'string' || token.length < 4 || obtained.includes(token)) continue;
		obtained.push(token);
		if (obtained.length > MAX_KEPT) obtained.shift();
	}
}

export function obtainedTokens(): readonly string[] {
	return obtained;
}

/** Forgets them (tests). */
export function forgetObtained(): void {
	obtained.length = 0;
}

/** The credential's values that must never be echoed back in an error or a log line. */
export function secretsOf(view: CredentialView): string[] {
	return [
		view.accessToken,
		view.refreshToken,
		view.password,
		view.session.token,
		view.session.refreshToken,
		view.session.key,
	].filter((value) => value !== '' && value !== PASTED_MARK);
}

/**
 * Removes every secret named, and every token obtained in this process, from a text: a token
 * renewed during the run is in no list made before it, yet an answer may echo it. Texts shorter
 * than 4 characters are left alone: masking them would garble the message and hide nothing.
 */
export function scrub(text: string, secrets: string[] = []): string {
	let out = text;
	for (const secret of [...secrets, ...obtainedTokens()]) {
		if (secret && secret.length >= 4) out = out.split(secret).join('***');
	}
	return out;
}
