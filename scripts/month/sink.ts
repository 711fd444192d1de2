/**
 * The webhook sink on 127.0.0.1 in the stage's own process: the balance alerts, the count of ads of
 * each Ads run and every row the Stats Trigger emitted, each recorded with its path and the
 * simulated time it arrived.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
	path: string;
	at: number;
	body: Record<string, unknown>;
}

export interface MonthSink {
	url: string;
	received: Received[];
	of(path: string): Received[];
	stop(): Promise<void>;
}

export async function startMonthSink(now: () => number): Promise<MonthSink> {
	const received: Received[] = [];
	const server: Server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			try {
				const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
				received.push({ path: (request.url ?? '/').replace(/^\//, ''), at: now(), body });
				response.writeHead(200, { 'content-type': 'application/json' });
				response.end('{"stored":true}');
			} catch {
				response.writeHead(400).end();
			}
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		received,
		of: (path) => received.filter((r) => r.path === path),
		stop: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
