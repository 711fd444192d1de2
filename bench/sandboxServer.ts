/**
 * The API sandbox in a process of its own, so that serving pages never competes with a subject for
 * its event loop (as with a real API), and its result cache never counts in a subject's memory.
 */
import { Sandbox } from '../sandbox';
import { serve } from './lib/rpc';

let sandbox: Sandbox | undefined;

serve({
	start: async (args) => {
		sandbox = await Sandbox.start({ platform: 'ext', ...(args as { now: string }) });
		return { baseUrl: sandbox.baseUrl, clientApiUrl: sandbox.clientApiUrl, token: sandbox.token };
	},
	handlerTimeMs: () => sandbox?.data.handlerTimeMs ?? 0,
	/** The API's rate limit: `{ requests, windowSeconds }` or null for off; a new limit starts clean. */
	setRateLimit: (limit) => {
		sandbox?.rateLimiter.set(limit as { requests: number; windowSeconds: number } | null);
		sandbox?.rateLimiter.reset(true);
		return true;
	},
	/** 429 answers given since the limit was last set. */
	answered429: () => sandbox?.rateLimiter.answered429 ?? 0,
	requestCount: () => sandbox?.requests.length ?? 0,
	/** The request log grows with every page; the bench does not need it. */
	clearLog: () => sandbox?.clearLog(),
	stop: async () => {
		await sandbox?.stop();
		return true;
	},
});
