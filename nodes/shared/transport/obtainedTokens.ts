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
