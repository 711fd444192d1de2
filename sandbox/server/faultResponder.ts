import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultDecision } from '../faults';
import { sendReply } from './reply';

const FAULT_DETAIL: Record<string, string> = {
	'500': 'A server error occurred.',
	'502': 'Bad gateway.',
	'503': 'Service temporarily unavailable.',
	'504': 'Gateway timeout.',
};

/**
 * Answers a request with an injected fault instead of running its handler. Returns the status to
 * log: 0 when no response is ever sent (reset, stall).
 */
export function respondWithFault(
	req: IncomingMessage,
	res: ServerResponse,
	fault: FaultDecision,
	stallTimers: Set<NodeJS.Timeout>,
): number {
	switch (fault.kind) {
		case '429':
			sendReply(res, {
				status: 429,
				json: {
					detail: `Request was throttled. Expected available in ${fault.retryAfterSeconds} seconds.`,
				},
				headers: { 'retry-after': String(fault.retryAfterSeconds) },
			});
			return 429;
		case '500':
		case '502':
		case '503':
		case '504': {
			const status = Number(fault.kind);
			sendReply(res, { status, json: { detail: FAULT_DETAIL[fault.kind] } });
			return status;
		}
		case 'reset':
			req.socket.resetAndDestroy();
			return 0;
		case 'stall': {
			const timer = setTimeout(() => {
				stallTimers.delete(timer);
				req.socket.destroy();
			}, fault.stallMs);
			stallTimers.add(timer);
			req.socket.once('close', () => {
				clearTimeout(timer);
				stallTimers.delete(timer);
			});
			return 0;
		}
		case 'truncated': {
			const full = JSON.stringify({
				detail: 'This body is cut in half on purpose, so it is not valid JSON.',
				rows: Array.from({ length: 8 }, (_, i) => ({ index: i, value: `row-${i}` })),
			});
			// The Content-Length matches the cut body, so the HTTP exchange itself completes.
			sendReply(res, { status: 200, raw: full.slice(0, Math.floor(full.length / 2)) });
			return 200;
		}
	}
}
