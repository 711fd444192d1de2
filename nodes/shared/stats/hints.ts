import type { NodeExecutionHint } from 'n8n-workflow';
import type { PaceLimit } from '../auth/credentialView';

/** What the last page of a pull held, to tell whether Limit cut rows off. */
export interface LastPage {
	/** Rows passed on after the cut to Limit. */
	delivered: number;
	/** Rows the API answered. */
	received: number;
	cursor?: string | null;
}

/**
 * When Limit stopped the output while the API had more rows, says so in the output pane (the rows
 * themselves stay as they are): a sheet with exactly Limit rows otherwise looks complete.
 */
export function limitHint(
	limit: number,
	returned: number,
	count: number | undefined,
	lastPage: LastPage | undefined,
	itemIndex: number,
	itemCount: number,
): NodeExecutionHint | undefined {
	if (!Number.isFinite(limit) || returned < limit || !lastPage) return undefined;
	const more =
		lastPage.received > lastPage.delivered ||
		(lastPage.cursor !== null && lastPage.cursor !== undefined && lastPage.cursor !== '') ||
		(typeof count === 'number' && count > returned);
	if (!more) return undefined;
	const forItem = itemCount > 1 ? ` (input item ${itemIndex})` : '';
	const stopped =
		typeof count === 'number' && count > returned
			? `Limit stopped the output at ${returned} of the ${count} rows the API has for this query${forItem}.`
			: `Limit stopped the output at ${returned} rows; the API has more for this query${forItem}.`;
	return {
		message: `${stopped} Turn on Return All, or raise Limit, to get every row.`,
		type: 'info',
		location: 'outputPane',
	};
}

/** Minutes and seconds in words: "2 min 10 s", "45 s". */
function duration(ms: number): string {
	const seconds = Math.round(ms / 1000);
	const minutes = Math.floor(seconds / 60);
	return minutes ? `${minutes} min ${seconds % 60} s` : `${seconds} s`;
}

/** A pull that had to wait for the API's rate limit says how long it took and why. */
export function pacingHint(
	result: { pages: number; pacedRequests: number },
	elapsedMs: number,
	limit: PaceLimit | undefined,
): NodeExecutionHint | undefined {
	if (!limit || result.pacedRequests === 0 || elapsedMs < 10_000) return undefined;
	return {
		message: `The API allows ${limit.requests} requests per ${limit.windowMs / 1000} s for each address (Rate Limit in the credential), so these ${result.pages} pages took ${duration(elapsedMs)}; ${result.pacedRequests} of them waited for their turn. A shorter period, or fewer runs sharing the account, makes it faster.`,
		type: 'info',
		location: 'outputPane',
	};
}
