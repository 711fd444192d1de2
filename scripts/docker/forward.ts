/**
 * Containers on Docker's default bridge reach the machine running them at the bridge's address
 * (172.17.0.1 in the stage's namespace), not at 127.0.0.1. The sandbox, the local registry,
 * PostgreSQL and Redis listen on 127.0.0.1 only; a forwarder per port listens on the bridge address
 * with the same port number and passes each connection through to 127.0.0.1, so a URL is turned
 * into the containers' one by changing its host alone. Both ends live in the stage's namespace.
 */
import { createConnection, createServer, type Server } from 'node:net';

export interface Forwarders {
	/** The bridge's address as containers see the machine. */
	address: string;
	/** Starts forwarding `port` (once per port). */
	add(port: number): Promise<void>;
	/** `http://127.0.0.1:<port>/…` → `http://<bridge>:<port>/…`, forwarding that port. */
	url(url: string): Promise<string>;
	close(): Promise<void>;
}

export function forwarders(address: string): Forwarders {
	const servers = new Map<number, Server>();
	const add = async (port: number): Promise<void> => {
		if (servers.has(port)) return;
		const server = createServer((incoming) => {
			const outgoing = createConnection({ host: '127.0.0.1', port });
			incoming.pipe(outgoing).pipe(incoming);
			incoming.on('error', () => outgoing.destroy());
			outgoing.on('error', () => incoming.destroy());
		});
		servers.set(port, server);
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(port, address, () => resolve());
		});
	};
	return {
		address,
		add,
		url: async (url: string) => {
			const parsed = new URL(url);
			if (parsed.hostname !== '127.0.0.1') return url;
			await add(Number(parsed.port));
			parsed.hostname = address;
			return parsed.toString().replace(/\/$/, url.endsWith('/') ? '/' : '');
		},
		close: async () => {
			await Promise.all(
				[...servers.values()].map(
					(server) => new Promise<void>((resolve) => server.close(() => resolve())),
				),
			);
		},
	};
}
