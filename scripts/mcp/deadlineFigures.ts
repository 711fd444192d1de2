/** What the MCP stage reports of a tool call's one deadline, case by case, and how it words an answer. */
import { tryAgainSeconds } from '../lib/tryAgain';
import type { ToolAnswer } from './client';

/** What the stage reports of the deadline cases on one n8n line. */
export interface DeadlineFigures {
	/** Each case: how its calls answered, in order, and the slowest call (ms at the MCP client). */
	cases: Array<{ name: string; answers: string[]; slowestMs: number }>;
}

/** One answer as the report lists it: "try again in N s", an error, or answered, with its time. */
export function outcome(answer: ToolAnswer): string {
	const wait = tryAgainSeconds(answer.text);
	if (wait !== undefined) return `try again in ${wait} s (${answer.ms} ms)`;
	if (answer.isError) return `error: ${answer.text.slice(0, 160)} (${answer.ms} ms)`;
	return `answered (${answer.ms} ms)`;
}
