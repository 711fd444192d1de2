/**
 * Where the lost-worker workflow delivers its rows: an HTTP endpoint on 127.0.0.1 in the stage's
 * own process, standing for a user's database or sheet. It records every row it is sent, with the
 * time, and answers after `delayMs` so that a delivery takes long enough to be cut by a kill.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Row } from './rows';

export interface Delivery {
	at: number;
	row: Row;
}

export interface Sink {
	url: string;
	deliveries: Delivery[];
	stop(): Promise<void>;
}

export async function startSink(delayMs: number): Promise<Sink> {
	const deliveries: Delivery[] = [];
	const server: Server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			try {
				const row = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Row;
				deliveries.push({ at: Date.now(), row });
			} catch {
				response.writeHead(400).end();
				return;
			}
			setTimeout(() => {
				response.writeHead(200, { 'content-type': 'application/json' });
				response.end('{"stored":true}');
			}, delayMs);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/rows`,
		deliveries,
		stop: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
