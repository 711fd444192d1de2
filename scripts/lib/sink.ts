/**
 * A webhook sink on 127.0.0.1 in the stage's own process, standing for a user's database, sheet or
 * chat: it records the JSON body of every POST with its path (without the leading slash) and the
 * time it arrived, by `now` (the month stage passes its simulated clock), and answers 200 at once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
	path: string;
	at: number;
	body: Record<string, unknown>;
}

export interface WebhookSink {
	/** The base URL; a workflow posts to `${url}/<path>`. */
	url: string;
	/** Every body received, in order of arrival; the array grows as bodies arrive. */
	received: Received[];
	of(path: string): Received[];
	stop(): Promise<void>;
}

export async function startSink(now: () => number = Date.now): Promise<WebhookSink> {
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
