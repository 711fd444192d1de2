/**
 * The answer a tool call gives when the API's rate limit would keep it waiting longer than an AI
 * client waits: an error saying "try again in N s", sent at once, with nothing sent to the API.
 */

/** The longest a tool call may take to answer in the stages (an MCP client gives up at 60 s). */
export const TOOL_ANSWER_BOUND_MS = 25_000;

/** N of "try again in N s", or undefined when the text carries no such wait. */
export function tryAgainSeconds(text: string): number | undefined {
	const match = /try again in (\d+) s\b/.exec(text);
	return match ? Number(match[1]) : undefined;
}

/** Waits until `at` (ms since the epoch) has passed. */
export async function waitUntil(at: number): Promise<void> {
	const left = at - Date.now();
	if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
}
