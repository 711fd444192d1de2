/**
 * The latency proxy in a process of its own, so that its timers never wait on a subject's or the
 * sandbox's event loop (as a real network would not).
 */
import { LatencyProxy } from '../lib/latencyProxy';
import { serve } from '../lib/rpc';

let proxy: LatencyProxy | undefined;

serve({
	start: async (args) => {
		const { port, rttMs, setupRtts } = args as { port: number; rttMs: number; setupRtts: number };
		await proxy?.stop();
		proxy = await LatencyProxy.start({ port }, { rttMs, setupRtts });
		return proxy.port;
	},
	connections: () => proxy?.connections ?? 0,
	stop: async () => {
		await proxy?.stop();
		proxy = undefined;
		return true;
	},
});
