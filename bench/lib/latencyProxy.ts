/**
 * A TCP proxy on 127.0.0.1 that makes loopback behave like a wide-area link: every chunk is held
 * half a round trip in each direction (so a request and its answer cost one RTT), and a new
 * connection carries nothing for `setupRtts` round trips (1 for TCP's handshake, 2 with TLS).
 * Bandwidth and TCP slow start are not modelled: a real link only adds to what this shows.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

interface LatencyOptions {
	/** Round-trip time added, in milliseconds. */
	rttMs: number;
	/** Round trips a new connection waits before its first byte moves. */
	setupRtts: number;
}

/** Forwards `from` to `to`, each chunk `delayMs` after it arrived, in order, with backpressure kept. */
function delayed(from: Socket, to: Socket, delayMs: number, openAt: () => number): void {
	const queue: { at: number; chunk: Buffer }[] = [];
	let timer: NodeJS.Timeout | undefined;
	let ended = false;
	const flush = () => {
		timer = undefined;
		const now = performance.now();
		while (queue.length && queue[0].at <= now) {
			const { chunk } = queue.shift() as { at: number; chunk: Buffer };
			if (!to.write(chunk)) {
				from.pause();
				to.once('drain', () => from.resume());
			}
		}
		if (queue.length) schedule();
		else if (ended) to.end();
	};
	const schedule = () => {
		if (timer || !queue.length) return;
		timer = setTimeout(flush, Math.max(0, queue[0].at - performance.now()));
	};
	from.on('data', (chunk: Buffer) => {
		queue.push({ at: Math.max(performance.now() + delayMs, openAt()), chunk });
		schedule();
	});
	// The end (or a close) travels behind the data, after the same delay.
	const finish = () => {
		if (ended) return;
		ended = true;
		if (!queue.length && !timer) to.end();
	};
	from.on('end', finish);
	from.on('close', finish);
}

export class LatencyProxy {
	private constructor(
		private readonly server: Server,
		readonly port: number,
		private readonly sockets: Set<Socket>,
		private readonly counter: { connections: number },
	) {}

	/** Connections accepted so far: one per request for a client without keep-alive. */
	get connections(): number {
		return this.counter.connections;
	}

	static async start(
		target: { host?: string; port: number },
		options: LatencyOptions,
	): Promise<LatencyProxy> {
		const sockets = new Set<Socket>();
		const counter = { connections: 0 };
		const server = createServer({ noDelay: true }, (client) => {
			counter.connections++;
			const openAt = performance.now() + options.setupRtts * options.rttMs;
			const upstream = connect({
				host: target.host ?? '127.0.0.1',
				port: target.port,
				noDelay: true,
			});
			for (const socket of [client, upstream]) {
				sockets.add(socket);
				socket.on('close', () => sockets.delete(socket));
				socket.on('error', () => {
					client.destroy();
					upstream.destroy();
				});
			}
			const oneWay = options.rttMs / 2;
			delayed(client, upstream, oneWay, () => openAt);
			// The answer direction opens when the request direction does, so it needs no gate of its own.
			delayed(upstream, client, oneWay, () => 0);
		});
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(0, '127.0.0.1', () => resolve());
		});
		const address = server.address();
		if (!address || typeof address === 'string') throw new Error('latency proxy: no port');
		return new LatencyProxy(server, address.port, sockets, counter);
	}

	async stop(): Promise<void> {
		for (const socket of this.sockets) socket.destroy();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}
}
